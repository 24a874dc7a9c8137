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

Reading them back at boot is ``firmware.boot.journal_read`` (and the store's
``ring_entry``). What the store does only at boot or while the clock stands
is a method of its own (``open_slots``, ``ring_entry``, ``drop_ring``,
``begin_game``, ``append_event``, ``prepare_block``); the work on the files
and the ring's flash is ``hal.journal_setup``, which each such method loads
for its call and lets go after.
"""

from micropython import const

from firmware import lifetime
from firmware.tickmath import ticks_add, ticks_diff
from hal.tick_source import ticks_ms

_PAGE = const(256)
_ENTRY = const(68)  # firmware.journal.RECORD_SIZE
_BLANK_ENTRY = b"\xff" * _ENTRY  # an entry's place in a page, as erased
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
        # The located ring (``locate_ring``): the block device, the device
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
                self.prepare_block()
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
            if len(buf) != _ENTRY:  # (a slice of another length would resize the page)
                raise ValueError("a journal entry is %d bytes" % _ENTRY)
            page = self.page
            page[at : at + _ENTRY] = buf  # no allocation: same length, slice on the stack
            try:
                self.device.writeblocks(block, page, page_at)
            finally:
                page[at : at + _ENTRY] = _BLANK_ENTRY
            return
        handle = self.handles[seq & 1]
        if handle is None:
            raise OSError(5)  # EIO: the slot could not be opened at boot
        handle.seek(0)
        handle.write(buf)
        handle.flush()

    # --- at boot and while the clock stands -------------------------------------
    # Each step that reads or writes the flash loads hal.journal_setup for its call and
    # lets it go after (``_setup``, ``_let_go_setup``): nothing of it stays in play.

    def is_preparing(self):
        """Whether the ring still has blocks to add while the clock stands (``prepare``)."""
        return self.preparing

    def start_wait(self):
        """The blocks the ring still lacks before a game may start (0: it may start):
        with ``prepare_first`` only."""
        if not (self.prepare_first and self.preparing):
            return 0
        return self.wanted - self.capacity // _PER_BLOCK

    def open_slots(self, header):
        """Take ``header`` (the decoded header read at boot, or None) as the one in force,
        and open both slot files for writing in place (creating a missing one): the ring
        may fill, and then an entry opens nothing in play."""
        self.header = header
        setup = _setup()
        try:
            for index in (0, 1):
                self.handles[index] = setup.open_slot(self.storage, index)
        finally:
            _let_go_setup()

    def ring_entry(self, whole):
        """Find the ring at boot; return its newest entry for which ``whole(entry)`` holds
        (read back from the last used slot past torn ones), or None."""
        if not self.ring_blocks:
            return None
        setup = _setup()
        try:
            found = setup.find_ring(self.storage)
            if found is None:
                return None
            self.locate_ring(found)
            self.next = setup.first_unused(self)
            # A game that comes back goes on with the ring it has where an erase would
            # hold a press back (``prepare_first``); a new game's ``begin_game`` sizes
            # the ring again.
            self.preparing = not self.prepare_first and len(self.blocks) < self.wanted
            return setup.newest_entry(self, whole)
        finally:
            _let_go_setup()

    def locate_ring(self, found):
        """Take ``found``, ``(device, blocks, nonce)`` as ``hal.journal_setup.locate``
        finds a ring, as the ring, no slot used."""
        self.device, self.blocks, self.nonce = found
        self.capacity = len(self.blocks) * _PER_BLOCK
        self.next = 0
        if self.page is None and self.whole_pages:
            self.page = bytearray(b"\xff" * _PAGE)

    def drop_ring(self):
        """Forget the ring found at boot (the journal was set aside, ring and all): the
        entries go to the slot files until a fresh ring is prepared."""
        self.device = None
        self.blocks = None
        self.capacity = 0
        self.next = 0
        self.preparing = self.ring_blocks > 0

    def prepare_block(self):
        """Add one block to the ring (littlefs erases it), or start a new ring with one if
        there is none; keep the ring only if a boot would find it as the store holds it
        (invariants 1 and 2, hal.journal_setup)."""
        self.preparing = False  # unless the block is added and the ring found as it is
        if not self.capacity:
            self.next = 0  # a new ring
        next_slot = self.next
        setup = _setup()
        try:
            found = setup.add_ring_block(self)
        finally:
            _let_go_setup()
        if found is None:
            self.capacity = 0  # not the ring the store knows: entries go to the slot files
            return
        self.locate_ring(found)
        self.next = next_slot
        self.preparing = len(self.blocks) < self.wanted

    def begin_game(self, clock, claims, game, played):
        """A new game with ``clock``'s controls and ``claims``' settings: return its id.

        ``game`` is the id of the game before (at boot, the highest id found on
        flash), ``played`` whether that game left setup. The header describes the
        new game and the event log is set aside (``hal.journal_setup.begin_game``,
        invariant 6); a ring that holds any entry is replaced by a fresh one at the
        next ``prepare`` (invariant 5), sized to the game with ``prepare_first``."""
        setup = _setup()
        try:
            game, self.header = setup.begin_game(self, clock, claims, game, played)
            if self.prepare_first:
                self.wanted = setup.ring_need(clock, self.ring_blocks)
        finally:
            _let_go_setup()
        if self.next > 0 or not self.capacity:
            self.capacity = 0  # a used ring, or none: the next ``prepare`` starts a fresh one
            self.next = 0
        self.preparing = self.ring_blocks > 0 and self.capacity // _PER_BLOCK < self.wanted
        return game

    def append_event(self, game, entry, clock):
        """Add one event-log entry of game ``game`` (an arbiter's action: the clock is
        paused), with ``clock``'s move counter and both times at that moment."""
        setup = _setup()
        try:
            setup.append_event(self.storage, game, entry, clock)
        finally:
            _let_go_setup()


def _setup():
    """``hal.journal_setup``, loaded for one step of the store (``_let_go_setup`` after)."""
    from hal import journal_setup

    return journal_setup


def _let_go_setup():
    """Drop ``hal.journal_setup``: nothing of it stays on the heap in play."""
    import hal

    lifetime.let_go(hal, "journal_setup")
