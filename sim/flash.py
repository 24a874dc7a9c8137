"""The simulated board's flash: the host filesystem, with a power cut that can fall mid-write.

``Flash`` stands in for the filesystem behind ``hal.storage``: the simulated board
(``sim.world.SimBoard``) hands it to ``hal.boot.start``, which gives it to the storage.
Files live in a host folder, so they outlive a power cut exactly as flash
does. What it adds:

- ``power_off()``: every file the firmware holds open is closed with nothing
  more written (the firmware flushes each write, so nothing is pending),
  and any later operation fails: no write after the cut.
- ``cut_after(count)``: arm a cut that falls after ``count`` more bytes have
  been written; a rename or a remove counts as one byte (it happens whole or
  not at all, as on littlefs). The write that reaches the limit leaves only
  its first bytes in the file, then ``PowerCut`` unwinds the firmware as the
  power going would stop it. Tests sweep ``count`` over every byte of a
  write to prove each file holds the old or the new version.
- ``writes`` and ``bytes_written``: what the firmware wrote, for the figures.

Runs on CPython and inside MicroPython; the write path allocates nothing.
"""

import os

EIO = 5
_NAME_COMMIT_BYTES = 16  # a rename's or a remove's directory entry, as the latency model counts it


class PowerCut(BaseException):
    """The power failed in the middle of a flash operation (not an error the firmware sees)."""


class _Handle:
    """A file the firmware opened for writing."""

    def __init__(self, flash, raw):
        self.flash = flash
        self.raw = raw
        self.open = True
        self.unflushed = 0  # bytes written since the last flush: the next commit's data

    def write(self, data):
        flash = self.flash
        if not self.open or not flash.powered:
            raise OSError(EIO)
        size = len(data)
        budget = flash.budget
        if budget is not None and size >= budget:
            self.raw.write(data[:budget])
            self.raw.flush()
            flash.bytes_written += budget
            flash.cut()
        if budget is not None:
            flash.budget = budget - size
        self.raw.write(data)
        flash.writes += 1
        flash.bytes_written += size
        self.unflushed += size
        return size

    def seek(self, offset, whence=0):
        return self.raw.seek(offset, whence)

    def read(self, size=-1):
        return self.raw.read(size)

    def flush(self):
        if not self.open or not self.flash.powered:
            raise OSError(EIO)
        self.raw.flush()
        self._commit()

    def _commit(self):
        """The filesystem commits what was written since the last commit (the latency
        model times it, if the board has one)."""
        if self.unflushed and self.flash.latency is not None:
            self.flash.latency.flash_commit(self.unflushed)
        self.unflushed = 0

    def close(self):
        if self.open:
            self.open = False
            self.raw.close()
            if self.flash.powered:
                self._commit()

    def __enter__(self):
        return self

    def __exit__(self, kind, value, trace):
        self.close()
        return False


class Flash:
    """The filesystem as ``hal.storage.Files`` offers it, with power and cuts."""

    def __init__(self):
        self.powered = True
        self.budget = None  # bytes that may still be written before an armed cut
        self.handles = []
        self.writes = 0
        self.bytes_written = 0
        self.renames = 0
        self.latency = None  # the chip's latency model (sim.latency), if the board has one

    def _check(self):
        if not self.powered:
            raise OSError(EIO)

    def _operation(self):
        """A rename or remove: one indivisible step, which an armed cut may prevent."""
        self._check()
        if self.budget is not None:
            if self.budget <= 0:
                self.cut()
            self.budget -= 1
        if self.latency is not None:
            self.latency.flash_commit(_NAME_COMMIT_BYTES)

    def open(self, path, mode):
        self._check()
        if "w" not in mode and "a" not in mode and "+" not in mode:
            return open(path, mode)
        handle = _Handle(self, open(path, mode))
        handles = [h for h in self.handles if h.open]
        handles.append(handle)
        self.handles = handles
        return handle

    def rename(self, old, new):
        self._operation()
        self.renames += 1
        os.rename(old, new)

    def remove(self, path):
        self._operation()
        os.remove(path)

    def exists(self, path):
        """The board's own ``Files.exists`` (looking never writes). Imported at the
        first call, by boot, so that the heap figures count ``hal.storage`` as the
        firmware's (bench.boot_heap loads the simulator before its first figure)."""
        from hal.storage import Files

        return Files.exists(self, path)

    def cut_after(self, count):
        """Arm a power cut after ``count`` more bytes (renames and removes count 1)."""
        self.budget = count

    def cut(self):
        self.power_off()
        raise PowerCut()

    def power_off(self):
        self.powered = False
        self.budget = None
        for handle in self.handles:
            handle.close()
        self.handles = []

    def power_on(self):
        self.powered = True
