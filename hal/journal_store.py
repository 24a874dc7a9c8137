"""The game journal on flash while the clock runs: the slots, the header, the event log.

- ``game.json`` (the header): the game's id, both controls and the event's
  claim settings, written by ``Storage.write_json`` (a new file, then a
  rename) while the clock is set up, never during a game.
- ``game.j0`` and ``game.j1`` (the slots): entry N goes to slot N % 2, so a
  power cut in the middle of a write spoils at most that slot and the other
  still holds the entry before. Both files are opened once, at boot, and
  each entry is written in place (seek, write, flush): no allocation, and
  on littlefs the flush commits the file atomically as well. The newest
  slot with a good checksum and the header's game id is the game.
- ``events.log``: one JSON line per event-log entry (arbiter actions, which
  happen while the clock is paused), appended before the entry that counts
  it, so a cut leaves at most a partial last line, which is not counted.
  A new game moves it to ``events.old``.

On a board with ``JOURNAL_RING_BLOCKS`` the entries go to the journal's ring
instead (programmed by ``write_record``, found and prepared by ``hal.journal_setup``): flash
erased while the clock stands and only programmed in play, so that no erase
holds a press back while a clock runs.
The slots take the entries again if the ring is full or cannot be found.

On a board whose levers are not stamped during an erase (``prepare_first``:
the esp32, ``LEVERS_STAMPED_IN_ERASE`` in boards/*.py) a press inside an erase
would be charged late, so no erase may fall where a game can start: the ring is
sized to what the new game's controls can need (``hal.journal_setup.ring_need``)
and its blocks are added back to back, one a main-loop pass, while the app
shows the preparation and refuses a start (``start_wait``).

Reading them back at boot is ``firmware.boot.journal_read`` (and
``setup("ring_entry")``). What the store does only at boot or while the
clock stands (opening the slots, a new game's header, the event log, the
ring's finding and preparation) is ``hal.journal_setup``, which ``setup``
loads for it and lets go after.
"""

from micropython import const

from firmware import lifetime
from firmware.tickmath import ticks_add, ticks_diff
from hal.tick_source import ticks_ms

_PAGE = const(256)
_ENTRY = const(68)  # firmware.journal.RECORD_SIZE
_PER_PAGE = const(3)
_PER_BLOCK = const(45)  # 15 pages of 3 slots: the first page is littlefs's and the marker's
_PREPARE_MS = const(500)  # from a block's end to the next (time, not steps: looking adds steps)


class JournalStore:
    """The journal's files in ``storage`` (which boot reads the journal back from).

    The journal asks ``is_preparing()`` (the ring still has blocks to add while
    the clock stands)."""

    def __init__(self, storage, ring_blocks=0, whole_pages=True, prepare_first=False):
        self.storage = storage
        # The levers are not stamped during an erase (hal.boot, from the board): the ring
        # is prepared whole, back to back, before a game may start, to ``wanted`` blocks.
        self.prepare_first = prepare_first
        self.whole_pages = whole_pages  # an entry is programmed as its page (rp2), or alone
        self.handles = [None, None]
        self.header = None  # the decoded header in force
        self.ring_blocks = ring_blocks  # the board's JOURNAL_RING_BLOCKS (0: no ring)
        self.wanted = ring_blocks  # the blocks the ring is prepared to (at most ring_blocks)
        self.preparing = ring_blocks > 0  # the ring lacks blocks to add while the clock stands
        self.prepare_at = None  # the tick from which the next block is added (None: now)
        # The tick read once a block is added: the erase's end (it holds the main loop).
        # ``time.ticks_ms`` on a board; the simulated chip's model gives its own.
        self.ticks = ticks_ms
        # The located ring (hal.journal_setup.locate_ring): the block device, the device
        # blocks of the file's blocks in order, its nonce, its slots (0: no ring), the
        # next slot to program, and a page of 0xFF but the entry being programmed
        # (boards whose flash programs whole pages only).
        self.device = None
        self.blocks = None
        self.nonce = 0
        self.capacity = 0
        self.next = 0
        self.page = None

    def read_ticks_from(self, ticks):
        """Read the tick after a block is added from ``ticks()`` (a simulated chip's model,
        which holds the main loop without moving the clock's virtual time)."""
        self.ticks = ticks

    def prepare(self, now):
        """Add one block to the ring, or start one, at the step at tick ``now`` if
        ``_PREPARE_MS`` have passed since the last one ended while the clock stands: one
        erase (0.4 s at most) holds the main loop, then it runs free for 0.5 s (the keys,
        the display, a lever's press wait for one erase at most, never a train of them).
        With ``prepare_first`` the blocks follow each other at once: no game can start
        meanwhile, and the sooner the ring is whole the sooner one can."""
        if self.prepare_wait(now) == 0:
            try:
                self.setup("prepare")
            finally:
                pause = 0 if self.prepare_first else _PREPARE_MS
                self.prepare_at = ticks_add(self.ticks(), pause)

    def prepare_wait(self, now):
        """The ms from tick ``now`` before ``prepare`` adds a block (0: at this step)."""
        due = self.prepare_at
        if due is None:
            return 0
        left = ticks_diff(due, now)
        return left if 0 < left <= _PREPARE_MS else 0  # (a tick from days ago: due)

    # --- during a game ---------------------------------------------------

    def write_record(self, buf, seq):
        """Write entry ``seq`` into the ring, or its slot (flushed); allocates nothing."""
        slot = self.next
        if slot < self.capacity:
            self.next = slot + 1  # a failed program leaves the slot torn: never again
            block = self.blocks[slot // _PER_BLOCK]
            slot %= _PER_BLOCK
            page_at = (1 + slot // _PER_PAGE) * _PAGE
            at = (slot % _PER_PAGE) * _ENTRY
            if not self.whole_pages:  # the entry's bytes alone (esp32.Partition)
                self.device.writeblocks(block, buf, page_at + at)
                return
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
            return
        handle = self.handles[seq & 1]
        if handle is None:
            raise OSError(5)  # EIO: the slot could not be opened at boot
        handle.seek(0)
        handle.write(buf)
        handle.flush()

    # --- at boot and while the clock stands (hal.journal_setup) ------------------

    def is_preparing(self):
        """Whether the ring still has blocks to add while the clock stands (``prepare``)."""
        return self.preparing

    def start_wait(self):
        """The blocks the ring still lacks before a game may start (0: it may start):
        with ``prepare_first`` only."""
        if not (self.prepare_first and self.preparing):
            return 0
        return self.wanted - self.capacity // _PER_BLOCK

    def setup(self, name, *args):
        """``hal.journal_setup.<name>(self, *args)``, the module loaded for it and let go:
        ``begin_game`` (clock, claims, game id: the header of a new game, the event log
        set aside; returns the game's id; and whether the game before was played),
        ``append_event`` (game id, entry, clock),
        ``ring_entry`` (whole: a test of an entry), ``open_slots`` (header) and
        ``drop_ring`` at boot, ``prepare``."""
        import hal
        from hal import journal_setup

        try:
            return getattr(journal_setup, name)(self, *args)
        finally:
            lifetime.let_go(hal, "journal_setup")
