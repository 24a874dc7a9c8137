"""The journal's ring on the flash: its blocks, and where each of its slots lies.

The ring is a littlefs file's blocks (``hal.journal_setup`` prepares and finds
them) into which the store programs one journal entry a slot, in order,
without erasing. This object is the one place that knows where a slot is:

- a block holds ``SLOTS_PER_BLOCK`` slots: its first page is left to
  littlefs's skip-list pointers and the ring's marker, pages 1 to 15 hold
  ``SLOTS_PER_PAGE`` entries of ``ENTRY_BYTES`` each;
- slot ``s`` is in the ring's block ``s // SLOTS_PER_BLOCK`` (the device
  block ``blocks[...]``), in the page at ``page_at(s)`` of that block, at
  ``entry_at(s)`` within the page: byte ``slot_at(s)`` of the block;
- the ring does not wrap: once every slot is used (``is_full``) the entries
  go to the slot files, and the next setup prepares a fresh ring (programming
  a used slot again would need an erase, and no erase falls in a game);
- a ring of two blocks or more keeps its last block for the game's event log
  (the arbiter's actions, one JSON line each, ``hal.journal_setup``): its
  pages 1 to 15, ``EVENT_BYTES``, take the lines one after the other from
  ``event_at``, programmed as the entries are, never erased in a game.

Each address is a small integer from integer arithmetic: nothing here
allocates, so the store programs an entry from it while a clock runs.
"""

from micropython import const

BLOCK_BYTES = const(4096)  # littlefs's block on both ports: the flash's sector
PAGE_BYTES = const(256)  # a program's unit on the rp2 (whole pages at an offset)
ENTRY_BYTES = const(68)  # firmware.journal.RECORD_SIZE
SLOTS_PER_PAGE = const(3)  # 3 x 68 = 204 of a page's 256 bytes
SLOTS_PER_BLOCK = const(45)  # pages 1 to 15 of 3 slots: page 0 is littlefs's and the marker's
EVENT_BYTES = const(3840)  # pages 1 to 15 of the last block: the event log's lines


class Ring:
    """The located ring: the block device, the device blocks of the file's blocks in
    order, its nonce, and the next slot to program (the used ones come first)."""

    def __init__(self):
        self.device = None
        self.blocks = ()
        self.nonce = 0
        self.capacity = 0  # slots (0: no ring; the entries go to the slot files)
        self.next = 0
        self.event_block = -1  # the device block of the event log's lines (-1: none)
        self.event_at = 0  # the bytes of its area used (a torn line's too)
        self.event_torn = False  # the last line was cut short: the next starts a line

    def take(self, device, blocks, nonce):
        """Take ``blocks`` of ``device``, marked with ``nonce``, as the ring, no slot used
        and no event line: its last block is the event log's if it has two or more."""
        self.device = device
        self.blocks = blocks
        self.nonce = nonce
        count = len(blocks)
        self.event_block = blocks[count - 1] if count >= 2 else -1
        self.capacity = (count - 1 if count >= 2 else count) * SLOTS_PER_BLOCK
        self.next = 0
        self.event_at = 0
        self.event_torn = False

    def renew(self, nonce):
        """A fresh ring's ``nonce``, its blocks to come (none located yet)."""
        self.forget()
        self.nonce = nonce

    def adopt(self, found, have):
        """Take ``found`` (``(device, blocks, nonce)``, as a boot finds the ring) as this
        ring grown by its new blocks, the slots used kept, if it is: the same nonce,
        the ``have`` blocks located before first, and more. Else forget the ring (the
        entries go to the slot files) and return False."""
        if (
            found is None
            or found[2] != self.nonce
            or len(found[1]) <= have
            or tuple(found[1][:have]) != tuple(self.blocks)
        ):
            self.forget()
            return False
        used = self.next
        self.take(*found)
        self.next = used
        return True

    def forget(self):
        """No ring any more: the entries go to the slot files until one is prepared."""
        self.device = None
        self.blocks = ()
        self.capacity = 0
        self.next = 0
        self.event_block = -1
        self.event_at = 0

    def block_count(self):
        """How many blocks the ring has (0: none)."""
        return len(self.blocks)

    def has_events(self):
        """Whether event-log lines were programmed into the ring."""
        return self.event_block >= 0 and self.event_at > 0

    def event_room(self, size):
        """Whether ``size`` more bytes of event lines fit in the ring's event block."""
        return self.event_block >= 0 and self.event_at + size <= EVENT_BYTES

    def take_event(self, size):
        """The byte, within the event block, at which ``size`` bytes of event lines go,
        now counted used (a program cut short leaves them torn), or -1: no room."""
        if not self.event_room(size):
            return -1
        at = PAGE_BYTES + self.event_at
        self.event_at += size
        self.event_torn = False
        return at

    def found_events(self, size, torn):
        """Boot found ``size`` bytes of event lines, the last one cut short if ``torn``."""
        self.event_at = size
        self.event_torn = torn

    def is_full(self):
        """Whether every slot is used (or there is no ring): the next entry has no slot."""
        return self.next >= self.capacity

    def device_block(self, slot):
        """The device block that holds ``slot``."""
        return self.blocks[slot // SLOTS_PER_BLOCK]

    @staticmethod
    def page_at(slot):
        """The byte offset, within its block, of the page that holds ``slot``."""
        return (1 + slot % SLOTS_PER_BLOCK // SLOTS_PER_PAGE) * PAGE_BYTES

    @staticmethod
    def entry_at(slot):
        """The byte offset of ``slot``'s entry within its page."""
        return slot % SLOTS_PER_BLOCK % SLOTS_PER_PAGE * ENTRY_BYTES

    @staticmethod
    def slot_at(slot):
        """The byte offset of ``slot``'s entry within its block."""
        within = slot % SLOTS_PER_BLOCK
        return (1 + within // SLOTS_PER_PAGE) * PAGE_BYTES + within % SLOTS_PER_PAGE * ENTRY_BYTES

    def program_entry(self, slot, buf):
        """Program ``slot``'s entry alone (a device that writes any bytes)."""
        self.device.writeblocks(self.device_block(slot), buf, self.slot_at(slot))

    def program_page(self, slot, page):
        """Program the whole page that holds ``slot`` (``page``: its bytes)."""
        self.device.writeblocks(self.device_block(slot), page, self.page_at(slot))

    def take_slot(self):
        """The next slot to program, now counted used (a failed program leaves it torn:
        never programmed again), or -1 if the ring is full."""
        slot = self.next
        if slot >= self.capacity:
            return -1
        self.next = slot + 1
        return slot
