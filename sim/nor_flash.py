"""A NOR flash chip: 4 KiB blocks erased to 0xFF, programs that only clear bits, cuts.

``NorFlash`` is the flash under a board's filesystem as the chip behaves, for
the real littlefs (``sim.littlefs_flash``) and the power-cut sweep
(``sim.power_sweep``):

- an erase sets every byte of one block to 0xFF;
- a program ANDs its bytes into the flash: it can only clear bits, so a
  program over bytes that are not erased leaves the AND of both (no error:
  the chip does not check);
- the power can fail at any byte of a program and at any erase:
  ``cut_after(count)`` lets ``count`` more cut points pass, one a programmed
  byte, one an erase, and the next is where the power goes. A program cut
  at its byte ``k`` leaves its first ``k`` bytes programmed and the rest as
  they were; a cut erase leaves its block undefined, which is modelled with
  contents drawn from ``seed``: the old bytes, 0xFF, or random bits, byte by
  byte, each with a third of the chances (the same for the same seed, block
  and erase). Then ``PowerCut`` (``sim.flash.PowerCut``) unwinds whoever
  wrote, as the power going would stop it, and nothing more is written
  until ``power_on``;
- ``programs``, ``erases`` and ``bytes_programmed`` count what was done;
  ``log`` (a list, if set) receives each operation, ``("erase", block)`` or
  ``("program", block, offset, data)``, for the sweep to replay.

``GEOMETRIES`` holds each port's block and program sizes as MicroPython
mounts littlefs there: rp2 4096 / 256 (ports/rp2/modules/_boot.py mounts
``VfsLfs2(bdev, progsize=256)``), esp32 4096 / 32 (ports/esp32 mounts the
``vfs`` partition with ``VfsLfs2``'s defaults, readsize = progsize = 32).

``BlockDevice`` offers a ``NorFlash`` to the firmware as ``rp2.Flash`` and
``esp32.Partition`` do (``readblocks``, ``writeblocks``, ``ioctl``): the
journal's ring programs its entries through it, into littlefs's own blocks.
"""

import random

from sim.flash import PowerCut

# port: (block bytes, program bytes as littlefs is mounted, blocks of the filesystem,
#        whether a program at an offset must take whole pages).
# The rp2's filesystem is the Pico's 1.4 MiB (boards/pico.py); the esp32's the 960 KiB
# vfs partition (boards/esp32.py). rp2.Flash programs whole 256-byte pages only
# (flash_range_program); esp32.Partition.writeblocks takes any length at any offset.
GEOMETRIES = {
    "rp2": (4096, 256, 352, True),
    "esp32": (4096, 32, 240, False),
}


def torn_block(old, seed, block, erases):
    """Block ``block``'s bytes ``old`` as an erase cut short leaves them, the flash's
    ``erases``-th: byte by byte the old value, 0xFF or random bits, drawn from ``seed``."""
    draw = random.Random(seed * 1_000_003 + block * 7919 + erases)
    out = bytearray(len(old))
    for index in range(len(old)):
        kind = draw.randrange(3)
        out[index] = old[index] if kind == 0 else 0xFF if kind == 1 else draw.randrange(256)
    return out


class NorFlash:
    """``count`` blocks of ``block_bytes``, programmed by ``page_bytes`` pages."""

    def __init__(self, count, block_bytes=4096, page_bytes=256, seed=0):
        self.count = count
        self.block_bytes = block_bytes
        self.page_bytes = page_bytes
        self.seed = seed
        self.data = bytearray(b"\xff" * (count * block_bytes))
        self.powered = True
        self.budget = None  # cut points that may still pass before an armed cut
        self.on_cut = None  # called when the power goes (the filesystem's power_off)
        self.log = None
        self.programs = 0
        self.erases = 0
        self.bytes_programmed = 0
        self.latency = None  # the chip's latency model (sim.latency), if the board has one

    def _check(self, block, offset, size):
        if not self.powered:
            raise OSError(5)  # EIO: no write after the cut
        if not 0 <= block < self.count or offset < 0 or offset + size > self.block_bytes:
            raise OSError(5)

    def read(self, block, offset, size):
        if not 0 <= block < self.count or offset < 0 or offset + size > self.block_bytes:
            raise OSError(5)
        at = block * self.block_bytes + offset
        return bytes(self.data[at : at + size])

    def erase(self, block):
        """Erase ``block``; a cut during it leaves the block undefined."""
        self._check(block, 0, 0)
        at = block * self.block_bytes
        if self.log is not None:
            self.log.append(("erase", block))
        if self.latency is not None:
            self.latency.erase_block()
        if self.budget is not None:
            if self.budget <= 0:
                self.data[at : at + self.block_bytes] = self.torn_erase(block)
                self.cut()
            self.budget -= 1
        self.erases += 1
        self.data[at : at + self.block_bytes] = b"\xff" * self.block_bytes

    def torn_erase(self, block):
        """The block as an erase the power stopped leaves it (drawn from the seed)."""
        at = block * self.block_bytes
        return torn_block(self.data[at : at + self.block_bytes], self.seed, block, self.erases)

    def program(self, block, offset, data):
        """AND ``data`` into ``block`` at ``offset``, byte after byte (a cut stops it)."""
        size = len(data)
        self._check(block, offset, size)
        if self.log is not None:
            self.log.append(("program", block, offset, bytes(data)))
        if self.latency is not None:  # the chip's programs: its pages, or its driver's pieces
            self.latency.program_range(offset, size)
        at = block * self.block_bytes + offset
        done = size
        if self.budget is not None:
            if self.budget < size:
                done = self.budget
            self.budget -= done
        flash = self.data
        for index in range(done):
            flash[at + index] &= data[index]
        self.programs += 1
        self.bytes_programmed += done
        if done < size:
            self.cut()

    def cut_after(self, count):
        """Arm a power cut after ``count`` more cut points (programmed bytes, erases)."""
        self.budget = count

    def cut(self):
        self.powered = False
        self.budget = None
        if self.on_cut is not None:
            self.on_cut()
        raise PowerCut()

    def power_on(self):
        self.powered = True


class BlockDevice:
    """A ``NorFlash`` through the extended block protocol, as ``rp2.Flash`` and
    ``esp32.Partition`` offer it: ``writeblocks(block, buf)`` erases the blocks it
    covers first, ``writeblocks(block, buf, offset)`` only programs; ``ioctl(4)`` the
    block count, ``ioctl(5)`` the block size, ``ioctl(6, block)`` an erase."""

    def __init__(self, flash, whole_pages):
        self.flash = flash
        self.whole_pages = whole_pages  # rp2: a program at an offset takes whole pages

    def ioctl(self, op, arg):
        if op == 4:
            return self.flash.count
        if op == 5:
            return self.flash.block_bytes
        if op == 6:
            self.flash.erase(arg)
        return 0

    def readblocks(self, block, buf, offset=0):
        flash = self.flash
        if not flash.powered:
            raise OSError(5)
        size = len(buf)
        buf[:size] = flash.read(block, offset, size)
        if flash.latency is not None:  # the read, and the Python over what it read
            flash.latency.device_read(buf)

    def writeblocks(self, block, buf, offset=None):
        flash = self.flash
        if offset is None:
            size = flash.block_bytes
            for index in range((len(buf) + size - 1) // size):
                flash.erase(block + index)
                flash.program(block + index, 0, buf[index * size : (index + 1) * size])
            return
        page = flash.page_bytes
        if self.whole_pages and (offset % page or len(buf) % page):
            raise ValueError("a program at an offset takes whole pages")
        flash.program(block, offset, buf)
