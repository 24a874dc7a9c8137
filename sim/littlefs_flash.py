"""The real littlefs over a simulated NOR flash, as the boards mount it (CPython only).

``LittleFsFlash`` offers the filesystem as ``sim.flash.Flash`` does (``open``,
``rename``, ``remove``, ``exists``, ``block_device``, ``cut_after``,
``power_off``/``power_on``, ``writes``/``bytes_written``), so ``hal.storage`` and
the journal's ring run on it unchanged; but every file is littlefs's, in
littlefs's own blocks of a ``sim.nor_flash.NorFlash``, through the littlefs C
library that ``littlefs-python`` wraps (requirements.txt pins it: littlefs
2.11, the version MicroPython 1.26 to 1.28 ship; 1.22 to 1.25 ship 2.8.1).
The block device the ring programs (``block_device()``) is the same flash,
so the ring's blocks are littlefs's real blocks.

littlefs is mounted as MicroPython mounts it (extmod/vfs_lfsx.c):
``read_size`` 32, ``prog_size`` the port's (``GEOMETRIES``), ``cache_size``
min(block, 4 x max(read, prog)), ``lookahead_size`` 32, ``block_cycles`` 100.
A flash that does not mount is formatted (``formats`` counts it: every file
lost), as the ports' ``_boot.py`` and ``inisetup.py`` do. MicroPython also
stores each file's modification time as a littlefs attribute, which this
mount does not (a few bytes more in each metadata commit on the board).

A power cut (``cut_after``: a byte of a program or an erase, ``NorFlash``)
stops littlefs inside its operation: the callbacks refuse every access from
then on, the operation fails, and ``PowerCut`` unwinds the firmware. The
mount is dropped whole (as the RAM is lost) and ``power_on`` mounts the flash
again. Paths are the board's (``root`` + name); files live in littlefs's root.
"""

import littlefs
from littlefs import LittleFSError, lfs

from sim.flash import DEVICE_FILES, REPLACEMENT, PowerCut
from sim.nor_flash import GEOMETRIES, BlockDevice, NorFlash

EIO = 5
READ_SIZE = 32  # MicroPython's VfsLfs2 readsize default; no port changes it
LOOKAHEAD_BYTES = 32  # VfsLfs2's lookahead default
BLOCK_CYCLES = 100  # extmod/vfs_lfsx.c


def lfs_config(flash):
    """littlefs's configuration for ``flash`` as MicroPython's VfsLfs2 sets it."""
    prog = flash.page_bytes
    return {
        "block_size": flash.block_bytes,
        "block_count": flash.count,
        "read_size": READ_SIZE,
        "prog_size": prog,
        "cache_size": min(flash.block_bytes, 4 * max(READ_SIZE, prog)),
        "lookahead_size": LOOKAHEAD_BYTES,
        "block_cycles": BLOCK_CYCLES,
    }


def open_flags(mode):
    """littlefs's open flags for a Python ``mode``, as MicroPython's VfsLfs2 maps them
    (extmod/vfs_lfsx_file.c): "a" creates a missing file, as "w" does (littlefs-python's
    own ``open`` leaves "a" without LFS_O_CREAT)."""
    flag = lfs.LFSFileFlag
    if "+" in mode:
        flags = flag.rdwr
    elif "r" in mode:
        flags = flag.rdonly
    else:
        flags = flag.wronly
    if "w" in mode:
        flags |= flag.creat | flag.trunc
    elif "a" in mode:
        flags |= flag.creat | flag.append
    elif "x" in mode:
        flags |= flag.creat | flag.excl
    return flags


class _Chip(littlefs.UserContext):
    """littlefs's block callbacks on the NOR flash; after a cut, every one fails."""

    def __init__(self, flash):
        self.flash = flash
        self.buffer = None
        self.in_size = flash.count * flash.block_bytes
        self.dead = False  # the mount this chip served is gone: it reaches the flash no more

    def read(self, cfg, block, off, size):
        if self.dead or not self.flash.powered:
            return bytearray(b"\x00" * size)  # (the operation fails at its next program)
        return bytearray(self.flash.read(block, off, size))

    def prog(self, cfg, block, off, data):
        if self.dead:
            return -EIO
        try:
            self.flash.program(block, off, data)
        except (PowerCut, OSError):
            return -EIO
        return 0

    def erase(self, cfg, block):
        if self.dead:
            return -EIO
        try:
            self.flash.erase(block)
        except (PowerCut, OSError):
            return -EIO
        return 0

    def sync(self, cfg):
        return -EIO if self.dead or not self.flash.powered else 0


class _File:
    """A file littlefs holds open for the firmware."""

    def __init__(self, owner, raw):
        self.owner = owner
        self.raw = raw
        self.mount = owner.mount_count  # a handle of an earlier mount is dead
        self.open = True

    def _live(self):
        owner = self.owner
        if not self.open or not owner.powered or owner.mount_count != self.mount:
            raise OSError(EIO)

    def write(self, data):
        self._live()
        count = self.owner.call(self.raw.write, data)
        self.owner.writes += 1
        self.owner.bytes_written += count
        return count

    def read(self, count=-1):
        self._live()
        if count is None or count < 0:
            return bytes(self.owner.call(self.raw.read))
        return bytes(self.owner.call(self.raw.read, count))

    def seek(self, offset, whence=0):
        self._live()
        return self.owner.call(self.raw.seek, offset, whence)

    def flush(self):
        self._live()
        self.owner.call(self.raw.flush)

    def close(self):
        if not self.open:
            return
        self.open = False
        owner = self.owner
        if owner.powered and owner.mount_count == self.mount:
            owner.call(self.raw.close)

    def __enter__(self):
        return self

    def __exit__(self, kind, value, trace):
        if kind is not None and issubclass(kind, PowerCut):
            self.open = False  # the power went: nothing more is written
            return False
        self.close()
        return False


class LittleFsFlash:
    """The board's filesystem on littlefs over ``NorFlash``, with power and cuts."""

    def __init__(self, port="rp2", root="/", flash=None, seed=0):
        block, page, count, whole_pages = GEOMETRIES[port]
        self.port = port
        self.root = root.rstrip("/")
        self.nor = flash if flash is not None else NorFlash(count, block, page, seed)
        self.nor.on_cut = self._power_went
        self.device = BlockDevice(self.nor, whole_pages)
        self.powered = True
        self.fs = None
        self.chip = None
        self.raw_files = []  # littlefs's handles of this mount, forgotten at a cut
        self.mount_count = 0
        self.formats = 0  # mounts that failed, so that the flash was formatted
        self.writes = 0
        self.bytes_written = 0
        self.renames = 0
        self.mount()

    @property
    def latency(self):
        return self.nor.latency

    @latency.setter
    def latency(self, model):
        self.nor.latency = model

    def mount(self):
        """Mount the flash, formatting it if littlefs cannot (a new or lost filesystem)."""
        self.mount_count += 1
        self.chip = _Chip(self.nor)
        fs = littlefs.LittleFS(self.chip, mount=False, **lfs_config(self.nor))
        try:
            fs.mount()
        except LittleFSError:
            if not self.nor.powered:
                raise PowerCut() from None
            self.formats += 1
            self.call(fs.format)
            self.call(fs.mount)
        self.fs = fs

    def call(self, operation, *args):
        """``operation(*args)`` on littlefs: a cut inside it is ``PowerCut``, an error
        of littlefs an ``OSError`` with its errno."""
        if not self.powered:
            raise OSError(EIO)
        try:
            return operation(*args)
        except LittleFSError as error:
            if not self.nor.powered:
                raise PowerCut() from None
            raise OSError(-error.code) from None

    def name(self, path):
        """littlefs's path of the board's ``path``."""
        root = self.root
        if root and path.startswith(root + "/"):
            path = path[len(root) :]
        return path if path.startswith("/") else "/" + path

    # --- the filesystem, as hal.storage.Files offers it ---------------------

    def open(self, path, mode):
        if not self.powered:
            raise OSError(EIO)
        fs = self.fs
        latency = self.nor.latency
        if latency is not None and ("w" in mode or "a" in mode):  # the CPU around a write
            if path.rsplit("/", 1)[-1] in DEVICE_FILES:
                latency.ring_opened()
            elif "w" in mode and path.endswith(REPLACEMENT):
                latency.file_written()
        handle = self.call(lfs.file_open, fs.fs, self.name(path), open_flags(mode))
        raw = littlefs.FileHandle(fs.fs, handle)  # unbuffered: littlefs's cache only
        self.raw_files = [handle for handle in self.raw_files if not handle.closed] + [raw]
        return _File(self, raw)

    def rename(self, old, new):
        self.call(self.fs.rename, self.name(old), self.name(new))
        self.renames += 1

    def remove(self, path):
        self.call(self.fs.remove, self.name(path))

    def exists(self, path):
        try:
            self.call(self.fs.stat, self.name(path))
        except OSError:
            return False
        return True

    def listdir(self):
        return sorted(self.call(self.fs.listdir, "/"))

    def read_file(self, name):
        """A file's bytes as littlefs reads them now (None if it does not exist)."""
        if not self.exists(name):
            return None
        with self.open(name, "rb") as handle:
            return handle.read()

    def block_device(self):
        """The flash under the filesystem, as the ring programs it (``hal.journal_setup``)."""
        return self.device

    # --- power ------------------------------------------------------------

    def cut_after(self, count):
        """Arm a power cut after ``count`` more cut points (bytes programmed, erases)."""
        self.nor.cut_after(count)

    def _power_went(self):
        """The RAM is gone: littlefs's caches and its open files, never to write again."""
        self.powered = False
        self.fs = None
        if self.chip is not None:
            self.chip.dead = True
        for raw in self.raw_files:
            setattr(raw, "__IOBase_closed", True)  # closed without littlefs's close
        self.raw_files = []

    def power_off(self):
        if self.nor.powered:
            self.nor.powered = False
            self.nor.budget = None
        self._power_went()

    def power_on(self):
        self.nor.power_on()
        self.powered = True
        self.mount()
