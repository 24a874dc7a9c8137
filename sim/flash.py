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
- ``device`` (``BlockDevice``, on a board with a journal ring): the flash under
  the filesystem as ``rp2.Flash`` or ``esp32.Partition`` offers it, a block
  erased whole and programmed page by page (any bytes at any offset where
  ``whole_pages`` is False: the esp32), a program only clearing bits. A
  file named in ``DEVICE_FILES`` lives on it as littlefs keeps a file: its
  data in blocks the filesystem erases as it allocates them (round-robin, so
  the blocks of an older version stay behind unerased), every block after
  the first opening with littlefs's skip-list pointers, the file's new
  version in force only once committed (a flush or a close). A power cut
  falls at any byte of a program, as of a file write. A page known erased
  is programmed at once. With
  the flash folder (``Flash(blocks, root)``, as ``sim.world.SimBoard`` makes
  it) the device outlives the board, as a chip's flash outlives a reset: a
  board booted again on the folder finds it as it was, until ``forget(root)``
  (``sim.world.remove_flash``).

Runs on CPython and inside MicroPython; the write path allocates nothing.
"""

import os

EIO = 5
BLOCK_BYTES = 4096  # littlefs's block on both ports: the flash's 4 KiB sector
PAGE_BYTES = 256  # the unit of a program (rp2: flash_range_program takes whole pages)
REPLACEMENT = ".new"  # a file replaced whole is written under its name and this (hal.storage)
DEVICE_FILES = ("game.jr", "latency.jr")  # the journal's ring, the latency check's: on the device
_INLINE_BYTES = 512  # littlefs keeps a file this small in its metadata (block / 8 on both ports)
_NAME_COMMIT_BYTES = 16  # a rename's or a remove's directory entry, as the latency model counts it
_ERASED = b"\xff" * BLOCK_BYTES
_PAGES = BLOCK_BYTES // PAGE_BYTES
# The block device of each flash folder, as a board's flash keeps it when the board
# resets or boots again: (its blocks, its device files), by folder (``forget``).
_KEPT = {}


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


def pointer_bytes(index):
    """The bytes littlefs's skip-list pointers take at the start of a file's block
    ``index``: none in the first, ctz(index) + 1 words of 4 bytes in the others.
    Reckoned here from littlefs's design on its own, not taken from the firmware's
    reckoning (hal.journal_setup), so that a mistake there shows as a difference."""
    if index == 0:
        return 0
    zeros = 0
    while not (index >> zeros) & 1:
        zeros += 1
    return 4 * (zeros + 1)


class BlockDevice:
    """A NOR flash partition through the extended block protocol (``readblocks(block,
    buf, offset)``, ``writeblocks(block, buf[, offset])``, ``ioctl``): ``writeblocks``
    without an offset erases the blocks it covers first, with one it only programs.
    An erase sets every byte of its block to 0xFF; a program clears bits: a 0xFF byte
    of its buffer leaves the flash as it is, any other must fall on an erased byte
    (else OSError: the flash cannot set a bit again without an erase). Programs at an
    offset take whole pages (the rp2's rule). The power can fail at any byte."""

    def __init__(self, flash, count, kept=None):
        self.flash = flash
        self.count = count
        # Every block's bytes (all allocated now, erased in place: the heap in use
        # stays the same whatever is written), and a flag a page, 1 while the page is
        # erased (programmed at once, without looking at its bytes): ``kept`` is the
        # flash's memory when a board boots again on it.
        if kept is None:
            blocks = [bytearray(_ERASED) for _ in range(count)]
            kept = (blocks, bytearray(b"\x01" * (count * _PAGES)))
        self.blocks, self.clean = kept
        self.erases = 0
        self.page_programs = 0
        self.whole_pages = True  # a program at an offset takes whole pages (rp2.Flash)

    def ioctl(self, op, arg):
        if op == 4:
            return self.count
        if op == 5:
            return BLOCK_BYTES
        return 0

    def _block(self, block):
        """``block``'s bytes."""
        if not 0 <= block < self.count:
            raise OSError(EIO)
        return self.blocks[block]

    def data(self, block):
        """``block``'s bytes to read."""
        return self._block(block)

    def readblocks(self, block, buf, offset=0):
        self.flash._check()
        data = self.data(block)
        size = len(buf)
        if offset + size > BLOCK_BYTES:
            raise OSError(EIO)
        buf[:size] = data[offset : offset + size]
        if self.flash.latency is not None:  # the read, and the Python over what it read
            self.flash.latency.device_read(buf)

    def writeblocks(self, block, buf, offset=None):
        self.flash._check()
        if offset is None:
            self.erase(block)
            offset = 0
        elif self.whole_pages and (offset % PAGE_BYTES or len(buf) % PAGE_BYTES):
            raise ValueError("a program at an offset takes whole pages")
        self.program(block, offset, buf)

    def erase(self, block):
        """Erase ``block`` (every byte 0xFF); a cut during it leaves it erased or not."""
        self.flash._check()
        self.data(block)  # (a block the device has)
        latency = self.flash.latency
        if latency is not None:
            latency.erase_block()
        self.flash._spend(1)
        self.erases += 1
        self.blocks[block][0:BLOCK_BYTES] = _ERASED
        first = block * _PAGES
        for page in range(_PAGES):
            self.clean[first + page] = 1

    def program(self, block, offset, buf, timed=True):
        """Program ``buf`` at ``offset`` of ``block``, byte after byte (a cut stops it);
        ``timed``: the latency model times it here (a file's bytes through littlefs's
        cache are timed as the cache programs them, ``_DeviceFile``)."""
        flash = self.flash
        flash._check()
        data = self._block(block)
        size = len(buf)
        if offset + size > BLOCK_BYTES:
            raise OSError(EIO)
        first = block * _PAGES + offset // PAGE_BYTES
        last = block * _PAGES + (offset + size - 1) // PAGE_BYTES
        erased = True  # every page it touches erased: nothing to look at (or allocate)
        for page in range(first, last + 1):
            if not self.clean[page]:
                erased = False
            self.clean[page] = 0
        if not erased:
            for index in range(size):
                value = buf[index]
                if value != 0xFF and data[offset + index] != 0xFF:
                    raise OSError(EIO)  # a program over programmed bytes: the firmware's error
        pages = (offset + size - 1) // PAGE_BYTES - offset // PAGE_BYTES + 1
        self.page_programs += pages
        if timed and flash.latency is not None:
            flash.latency.program_range(offset, size)
        flash.writes += 1
        budget = flash.budget
        if budget is None or budget >= size:  # no cut falls in it: programmed whole
            if budget is not None:
                flash.budget = budget - size
            if erased:
                data[offset : offset + size] = buf
            else:
                for index in range(size):
                    value = buf[index]
                    if value != 0xFF:  # (an erased byte programs nothing)
                        data[offset + index] &= value
            flash.bytes_written += size
            return
        for index in range(size):  # a cut falls in it: byte after byte, up to the cut
            flash._spend(1)
            data[offset + index] &= buf[index]
            flash.bytes_written += 1


class _DeviceFile:
    """A file on the block device as littlefs writes it: blocks erased as allocated,
    each after the first opening with its skip-list pointers; committed at a flush.

    littlefs programs a file's bytes through its cache (``cache_size``, on the rp2 port
    1 KiB: ``LFS_CACHE_BYTES``, boards/chips/): the bytes written go to the cache, which
    is programmed when full, when the file moves to its next block, or at the commit. The
    bytes reach the simulated flash at once (a cut still falls at any byte); the latency
    model times the cache's programs, each one call over the pages it covers."""

    def __init__(self, flash, path, mode):
        self.flash = flash
        self.path = path
        self.open = True
        self.blocks = []
        self.size = 0
        # The cache's bytes not yet programmed: their block, from, to (block -1: empty).
        self.cached = [-1, 0, 0]
        if "a" in mode or "+" in mode:
            self.blocks, self.size = flash.device_files.get(path, ([], 0))
            self.blocks = list(self.blocks)

    def write(self, data):
        flash = self.flash
        if not self.open or not flash.powered:
            raise OSError(EIO)
        device = flash.device
        done = 0
        while done < len(data):
            index, used = self._position()
            if index == len(self.blocks):
                block = flash.allocate()
                device.erase(block)
                self.blocks.append(block)
                pointers = bytearray(pointer_bytes(index))
                for word in range(len(pointers) // 4):
                    target = self.blocks[index - (1 << word)]
                    for byte in range(4):
                        pointers[4 * word + byte] = (target >> (8 * byte)) & 0xFF
                if pointers:
                    device.program(block, 0, pointers, False)
                    self._cache(block, 0, len(pointers))
                used = len(pointers)
            count = min(BLOCK_BYTES - used, len(data) - done)
            device.program(self.blocks[index], used, data[done : done + count], False)
            self._cache(self.blocks[index], used, count)
            done += count
            self.size += count
        return done

    def _cache(self, block, offset, count):
        """``count`` bytes at ``offset`` of ``block`` go through littlefs's cache: programmed
        (timed) as it fills, or at once without a cache (``LFS_CACHE_BYTES`` 0)."""
        latency = self.flash.latency
        if latency is None:
            return
        size = latency.cache_bytes
        if not size:
            latency.program_range(offset, count)
            return
        cached = self.cached
        if cached[0] != block or cached[2] != offset:
            self._program_cache()
        while count > 0:
            if cached[0] < 0:  # the cache starts at the program unit the bytes fall in
                cached[0] = block
                cached[1] = cached[2] = offset - offset % latency.prog_bytes
            take = min(count, cached[1] + size - offset)
            offset += take
            count -= take
            cached[2] = offset
            if offset == cached[1] + size:
                self._program_cache()

    def _program_cache(self):
        """Program what the cache holds (timed), and empty it."""
        cached = self.cached
        if cached[0] >= 0 and cached[2] > cached[1]:
            self.flash.latency.program_range(cached[1], cached[2] - cached[1])
        cached[0] = -1

    def _position(self):
        """(the block the next byte goes to, the bytes used in it)."""
        left = self.size
        index = 0
        while index < len(self.blocks):
            room = BLOCK_BYTES - pointer_bytes(index)
            if left < room:
                return index, pointer_bytes(index) + left
            left -= room
            index += 1
        return index, 0

    def flush(self):
        flash = self.flash
        if not self.open or not flash.powered:
            raise OSError(EIO)
        self._program_cache()  # the cache's last bytes, then the commit
        flash._step()  # littlefs commits the file's new size and blocks
        flash.device_files[self.path] = (list(self.blocks), self.size)
        flash._committed()

    def close(self):
        if self.open:
            if self.flash.powered:
                self.flush()
            self.open = False

    def __enter__(self):
        return self

    def __exit__(self, kind, value, trace):
        self.close()
        return False


class _DeviceReader:
    """A device file opened for reading: its bytes as they are when read."""

    def __init__(self, flash, path):
        self.flash = flash
        self.path = path
        self.position = 0

    def read(self, count=-1):
        data = self.flash.read_device_file(self.path, self.position, count)
        self.position += len(data)
        return data

    def seek(self, offset, whence=0):
        size = self.flash.device_files[self.path][1]
        self.position = offset + (size if whence == 2 else self.position if whence else 0)
        return self.position

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, kind, value, trace):
        return False


def forget(root):
    """Let the block device of the flash folder ``root`` go (the folder is removed)."""
    _KEPT.pop(root, None)


class Flash:
    """The filesystem as ``hal.storage.Files`` offers it, with power and cuts."""

    def __init__(self, device_blocks=0, root=None):
        self.powered = True
        # The block device under the filesystem (boards with a journal ring, sized
        # for the ring, one set aside and some room for littlefs's allocator). With
        # ``root``, the flash folder, a board booted again on it finds the device
        # as the last board left it (until ``forget(root)``).
        self.root = root
        kept = _KEPT.get(root) if root is not None and device_blocks else None
        if kept is not None and len(kept[0]) != device_blocks:
            kept = None
        self.device = BlockDevice(self, device_blocks, kept and kept[:2]) if device_blocks else None
        self.device_files = kept[2] if kept is not None else {}  # path: (blocks, size)
        if root is not None and device_blocks:
            _KEPT[root] = (self.device.blocks, self.device.clean, self.device_files)
        self.next_block = 0  # where littlefs's allocator looks next
        self.budget = None  # bytes that may still be written before an armed cut
        self.handles = []
        self.writes = 0
        self.bytes_written = 0
        self.renames = 0
        self.removes = 0
        self.latency = None  # the chip's latency model (sim.latency), if the board has one
        # the folders of the files written (littlefs's root on the board): ``live_files``
        self.folders = [] if root is None else [root]

    def _check(self):
        if not self.powered:
            raise OSError(EIO)

    def _spend(self, count):
        """``count`` bytes written: an armed cut falls before the first that exceeds it."""
        if self.budget is not None:
            if self.budget < count:
                self.cut()
            self.budget -= count

    def _step(self):
        """A rename, a remove or a device file's commit: one indivisible step, which an
        armed cut may prevent (it falls before the step changes anything)."""
        self._check()
        if self.budget is not None:
            if self.budget <= 0:
                self.cut()
            self.budget -= 1

    def _committed(self, inline=0):
        """littlefs's commit of the step just made (``inline``: the bytes of a small
        file the commit carries, a rename's), timed once the files are as it leaves
        them: a compaction it brings programs them (``live_files``)."""
        if self.latency is not None:
            self.latency.flash_commit(_NAME_COMMIT_BYTES + inline)

    def _on_device(self, path):
        return self.device is not None and path.rsplit("/", 1)[-1] in DEVICE_FILES

    def allocate(self):
        """The next free block, as littlefs's allocator finds it: onward from the last
        one taken, wrapping, past the blocks of committed files and open ones."""
        used = []
        for blocks, _ in self.device_files.values():
            used.extend(blocks)
        for handle in self.handles:
            if isinstance(handle, _DeviceFile) and handle.open:
                used.extend(handle.blocks)
        for step in range(self.device.count):
            block = (self.next_block + step) % self.device.count
            if block not in used:
                self.next_block = block + 1
                return block
        raise OSError(28)  # ENOSPC

    def read_device_file(self, path, offset=0, count=-1):
        """``count`` bytes (-1: all) of the committed file from ``offset``, read from
        its blocks as they are now."""
        blocks, size = self.device_files[path]
        end = size if count < 0 else min(size, offset + count)
        out = bytearray()
        start_of_block = 0
        for index, block in enumerate(blocks):
            start = pointer_bytes(index)
            room = BLOCK_BYTES - start
            low = max(offset, start_of_block)
            high = min(end, start_of_block + room)
            if low < high:
                at = start + low - start_of_block
                out.extend(self.device.data(block)[at : at + high - low])
            start_of_block += room
            if start_of_block >= end:
                break
        return bytes(out)

    def open(self, path, mode):
        self._check()
        if self._on_device(path):
            if "w" not in mode and "a" not in mode and "+" not in mode:
                if path not in self.device_files:
                    raise OSError(2)  # ENOENT
                return _DeviceReader(self, path)
            created = path not in self.device_files
            if self.latency is not None:  # (written: a block appended, or a new ring)
                self.latency.ring_opened()
            handle = _DeviceFile(self, path, mode)
            self.handles = [h for h in self.handles if h.open] + [handle]
            if created:  # littlefs commits its entry at the open
                self._committed()
            return handle
        if "w" not in mode and "a" not in mode and "+" not in mode:
            return open(path, mode)
        created = False
        folder = path.rsplit("/", 1)[0] if "/" in path else "."
        if folder not in self.folders:
            self.folders.append(folder)
        if self.latency is not None:
            if "w" in mode and path.endswith(REPLACEMENT):
                self.latency.file_written()
            created = not self.exists(path)
        handle = _Handle(self, open(path, mode))
        handles = [h for h in self.handles if h.open]
        handles.append(handle)
        self.handles = handles
        if created:  # littlefs commits its entry at the open
            self._committed()
        return handle

    def rename(self, old, new):
        inline = 0  # a small file's bytes live in littlefs's metadata: renamed, committed again
        if self.latency is not None and old not in self.device_files:
            size = os.stat(old)[6]
            inline = size if size <= _INLINE_BYTES else 0
        self._step()
        self.renames += 1
        if old in self.device_files:
            self.device_files[new] = self.device_files.pop(old)
        else:
            os.rename(old, new)
        self._committed(inline)

    def remove(self, path):
        self._step()
        self.removes += 1
        if path in self.device_files:
            del self.device_files[path]
        else:
            os.remove(path)
        self._committed()

    def exists(self, path):
        """The board's own ``Files.exists`` (looking never writes). Imported at the
        first call, by boot, so that the heap figures count ``hal.storage`` as the
        firmware's (bench.boot_heap loads the simulator before its first figure)."""
        if path in self.device_files:
            return True
        from hal.storage import Files

        return Files.exists(self, path)

    def file_sizes(self):
        """The size of each file the flash holds (in its folder, and on its device)."""
        sizes = [size for _blocks, size in self.device_files.values()]
        if self.root is None:
            return sizes
        for name in os.listdir(self.root):
            path = self.root + "/" + name
            stat = os.stat(path)
            if stat[0] & 0x4000 == 0 and not self._on_device(path):  # a file, not a folder
                sizes.append(stat[6])
        return sizes

    def live_files(self):
        """The files littlefs's metadata holds now, as a compaction writes them again:
        (name, size, whether its data is in blocks of its own), a device file's size as
        last committed (one created and not yet committed: empty, inline)."""
        files = []
        for path, (blocks, size) in self.device_files.items():
            files.append((path.rsplit("/", 1)[-1], size, bool(blocks)))
        for handle in self.handles:
            if isinstance(handle, _DeviceFile) and handle.open:
                if handle.path not in self.device_files:
                    files.append((handle.path.rsplit("/", 1)[-1], 0, False))
        for folder in self.folders:
            for name in os.listdir(folder):
                path = folder + "/" + name
                stat = os.stat(path)
                if stat[0] & 0x4000 == 0 and not self._on_device(path):  # a file, not a folder
                    files.append((name, stat[6], False))
        return files

    def block_device(self):
        """The block device under the filesystem (``hal.storage.Files.block_device``)."""
        return self.device

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
