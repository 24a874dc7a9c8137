"""Finding the journal's ring, reading it back at boot and adding its blocks (hal.journal_ring).

Loaded by ``hal.journal_store`` at boot and for each step of the ring's
preparation (the clock stands), and let go after: nothing of it stays on
the heap in play. The ring's layout on the device is ``hal.journal_ring``'s.
"""

import random

from micropython import const

from firmware.files import JOURNAL_RING
from hal.journal_ring import SLOTS_PER_BLOCK, Ring

MAGIC = b"CJRB"
_BLOCK = const(4096)
_PAGE = const(256)
_ENTRY = const(68)  # firmware.journal.RECORD_SIZE
_PER_PAGE = const(3)
_MARK = const(12)  # magic, nonce, index


def pointer_bytes(index):
    """littlefs's skip-list pointers at the start of a file's block ``index``: none in
    the first, ctz(index) + 1 words of 4 bytes in the others (littlefs SPEC.md)."""
    if index == 0:
        return 0
    count = 1
    while index & 1 == 0:
        index >>= 1
        count += 1
    return 4 * count


def _word(buf, at):
    return buf[at] | buf[at + 1] << 8 | buf[at + 2] << 16 | buf[at + 3] << 24


def device_of(files):
    """The block device under the filesystem: the simulated flash's, else the chip's."""
    if hasattr(files, "block_device"):
        return files.block_device()
    try:
        import rp2

        return rp2.Flash()
    except ImportError:
        import esp32

        return esp32.Partition.find(esp32.Partition.TYPE_DATA, label="vfs")[0]


def add_block(files, path, index, nonce):
    """Write the ring file's block ``index`` (the clock stands: littlefs erases the
    block it allocates): block 0 starts a new file, the others are appended."""
    chunk = bytearray(b"\xff" * (_BLOCK - pointer_bytes(index)))
    chunk[0:4] = MAGIC
    for at, value in ((4, nonce), (8, index)):
        for byte in range(4):
            chunk[at + byte] = (value >> (8 * byte)) & 0xFF
    with files.open(path, "ab" if index else "wb") as handle:
        handle.write(chunk)


def blocks_in(size):
    """How many whole blocks a ring file of ``size`` bytes holds."""
    index = 0
    while size >= _BLOCK - pointer_bytes(index):
        size -= _BLOCK - pointer_bytes(index)
        index += 1
    return index


def locate(files, path):
    """``(device, the ring's blocks on it in the file's order, nonce)``, or None if the
    file has no whole block or a block's marker is missing or found twice (then
    the ring is not used). The nonce and the length are read through the file."""
    with files.open(path, "rb") as handle:
        head = handle.read(_MARK)
        size = handle.seek(0, 2)
    if len(head) < _MARK or head[0:4] != MAGIC:
        return None
    nonce = _word(head, 4)
    count = blocks_in(size)
    device = device_of(files)
    blocks = [-1] * count
    buf = bytearray(64)
    for block in range(device.ioctl(4, 0)):
        device.readblocks(block, buf, 0)
        at = 0
        while at + _MARK <= 64:
            if buf[at : at + 4] == MAGIC and _word(buf, at + 4) == nonce:
                index = _word(buf, at + 8)
                if index < count and pointer_bytes(index) == at:
                    if blocks[index] != -1:
                        return None  # a copy the power cut short: which is the file's?
                    blocks[index] = block
            at += 4
    if count == 0 or -1 in blocks:
        return None
    return device, blocks, nonce


def find_block(device, nonce, index):
    """The device block holding the ring's block ``index``, or -1 (none, or two)."""
    buf = bytearray(64)
    at = pointer_bytes(index)
    found = -1
    for block in range(device.ioctl(4, 0)):
        device.readblocks(block, buf, 0)
        if buf[at : at + 4] != MAGIC or _word(buf, at + 4) != nonce:
            continue
        if _word(buf, at + 8) == index:
            if found >= 0:
                return -1
            found = block
    return found


def _place(ring, slot):
    """(device block, the slot's offset in it)."""
    within = slot % SLOTS_PER_BLOCK
    page_at = (1 + within // _PER_PAGE) * _PAGE
    return ring.blocks[slot // SLOTS_PER_BLOCK], page_at + (within % _PER_PAGE) * _ENTRY


def read(ring, slot):
    """The bytes of ``slot``."""
    block, at = _place(ring, slot)
    buf = bytearray(_ENTRY)
    ring.device.readblocks(block, buf, at)
    return buf


def used(ring, slot):
    for value in read(ring, slot):
        if value != 0xFF:
            return True
    return False


def find_next(ring):
    """Set ``ring.next`` to the first slot never programmed (the used ones come first:
    a torn slot is used)."""
    low = 0
    high = ring.capacity
    while low < high:
        middle = (low + high) // 2
        if used(ring, middle):
            low = middle + 1
        else:
            high = middle
    ring.next = low


def entries(store):
    """Find ``store``'s ring at boot: its last two used slots, newest first ([] if none)."""
    storage = store.storage
    if not storage.exists(JOURNAL_RING):
        return []
    found = locate(storage.files, storage.path(JOURNAL_RING))
    if found is None:
        return []
    ring = Ring(found[0], found[1], found[2])
    find_next(ring)
    store.ring = ring
    return [read(ring, slot) for slot in (ring.next - 1, ring.next - 2) if slot >= 0]


def prepare(store):
    """Add one block to ``store``'s ring (the clock stands; littlefs erases a block), or
    start a new ring with one if there is none."""
    ring = store.ring
    files = store.storage.files
    path = store.storage.path(JOURNAL_RING)
    if ring is None:
        add_block(files, path, 0, random.getrandbits(30))
        found = locate(files, path)
        if found is not None:
            store.ring = Ring(found[0], found[1], found[2])
        return
    index = len(ring.blocks)
    ring.complete = True  # unless the block is added and found once
    add_block(files, path, index, ring.nonce)
    block = find_block(ring.device, ring.nonce, index)
    if block >= 0:  # (two copies: an append a power cut stopped left one)
        ring.grow(block)
        ring.complete = False
