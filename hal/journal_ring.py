"""The journal's ring: entries programmed into flash erased before the game, never erased in play.

A littlefs file, ``game.jr`` (``firmware.files.JOURNAL_RING``), of up to
``JOURNAL_RING_BLOCKS`` blocks (boards/*.py) is written through the
filesystem while the clock stands, a block at a time (``hal.journal_ring_setup.add_block``: a new
file at a new game's setup, then one block appended every half second while
the clock is set up, paused or over): every byte 0xFF but a marker at the
start of each block's data (``MAGIC``, the ring's random nonce, the block's
index in the file). littlefs erases each
block as it allocates it, and then leaves the blocks of a file that is not
written again where they are (it moves metadata, never such data). ``locate``
(there) finds them on the block device under the filesystem (``rp2.Flash``, the esp32's
``vfs`` partition) by their markers, the nonce read through the file itself.

During play ``Ring.write`` programs each entry into erased bytes of those
blocks with ``writeblocks(block, buf, offset)``, which programs without
erasing: one page program per entry (at most 3 ms, interrupts off on the rp2),
no erase. The first page of every block is left alone (littlefs's skip-list
pointers and the marker); pages 1 to 15 hold 3 slots each, ``SLOTS`` in all,
filled in order. A page is programmed whole (the rp2 programs whole pages),
0xFF everywhere but the new entry: a 1 bit programs nothing, so the entries
before it stay as they are. A power cut in a program leaves a torn entry whose
checksum boot refuses; the one before it is whole. Finding the ring, reading it back at
boot and adding its blocks is ``hal.journal_ring_setup``, loaded for that
and let go after: only ``Ring`` stays on the heap in play.

A full ring (or none yet: a game started at once on a flash that never held
one) hands the entries back to the two littlefs slot files
(``hal.journal_store``), which erase; the next setup prepares a fresh ring.
"""

from micropython import const

_BLOCK = const(4096)
_PAGE = const(256)
_ENTRY = const(68)  # firmware.journal.RECORD_SIZE
_PER_PAGE = const(3)
_PER_BLOCK = const(45)  # 15 pages of 3 slots: the first page is littlefs's and the marker's
SLOTS_PER_BLOCK = const(_PER_BLOCK)


class Ring:
    """The located ring: ``write`` programs slot ``next``, the slots filled in order."""

    def __init__(self, device, blocks, nonce):
        self.device = device
        self.blocks = blocks  # the device blocks of the file's blocks, in order
        self.nonce = nonce
        self.capacity = len(blocks) * _PER_BLOCK
        self.next = 0
        self.complete = False  # True: no block is to be added (one could not be found)
        self.page = bytearray(b"\xff" * _PAGE)

    def grow(self, block):
        """The file's next block is ``block`` on the device."""
        self.blocks.append(block)
        self.capacity = len(self.blocks) * _PER_BLOCK

    def write(self, buf):
        """Program ``buf`` (one entry) into the next slot (allocates nothing)."""
        slot = self.next
        self.next = slot + 1  # a failed program leaves the slot torn: never programmed again
        block = self.blocks[slot // _PER_BLOCK]
        within = slot % _PER_BLOCK
        page_at = (1 + within // _PER_PAGE) * _PAGE
        at = (within % _PER_PAGE) * _ENTRY
        page = self.page
        index = 0
        while index < _ENTRY:
            page[at + index] = buf[index]
            index += 1
        try:
            self.device.writeblocks(block, page, page_at)
        finally:
            index = 0
            while index < _ENTRY:
                page[at + index] = 0xFF
                index += 1
