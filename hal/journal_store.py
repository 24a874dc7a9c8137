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
  it, so a cut leaves at most a partial last line, which is not counted;
  only the lines the ring has no room for. A new game moves the game's
  lines, the ring's and the file's, to ``events.old``.

On a board with ``JOURNAL_RING_BLOCKS`` the entries, and the event log's
lines, go to the journal's ring instead (programmed by ``write_record`` and
``append_event``, found and prepared by ``hal.journal_setup``, addressed by
``hal.journal_ring``): flash erased before the start and only programmed in
the game, so that no erase holds the main loop or a press back in a game.
The slots take the entries again if the ring is full or cannot be found.

No erase falls while a game is in progress (running or paused), on any board:
an erase holds the main loop (on the rp2 the whole core: no display, no key),
and on a board whose levers are not stamped during one (the esp32,
``LEVERS_STAMPED_IN_ERASE`` in boards/*.py) a press inside it would be
charged late. So the ring is prepared before a game may start, while the
clock is set up: sized to what the new game's controls can need
(``hal.journal_setup.ring_need``), its blocks added back to back (``prepare``),
the first at boot, while the app shows the preparation and refuses a start
(``start_wait``). A game in progress never prepares.

Reading them back at boot is ``firmware.boot.journal_read`` (and the store's
``ring_entry``). What the store does only at boot or while the clock stands
is a method of its own (``open_slots``, ``ring_entry``, ``drop_ring``,
``begin_game``, ``append_event``, ``prepare_block``); the work on the files
and the ring's flash is ``hal.journal_setup``, which each such method loads
for its call and lets go after (``prepare_block`` once the ring is whole).
"""

from firmware import lifetime
from firmware.tickmath import ticks_diff
from hal.journal_ring import ENTRY_BYTES, PAGE_BYTES, Ring
from hal.tick_source import ticks_ms

_BLANK_ENTRY = b"\xff" * ENTRY_BYTES  # an entry's place in a page, as erased


class JournalStore:
    """The journal's files in ``storage`` (which boot reads the journal back from).

    The journal asks ``is_preparing()`` (the ring still has blocks to add before
    a start) and ``start_wait()`` (how many)."""

    def __init__(self, storage, ring_blocks=0, whole_pages=True):
        self.storage = storage
        self.whole_pages = whole_pages  # an entry is programmed as its page (rp2), or alone
        self.handles = [None, None]
        self.header = None  # the decoded header in force
        self.ring_blocks = ring_blocks  # the board's JOURNAL_RING_BLOCKS (0: no ring)
        self.wanted = ring_blocks  # the blocks the ring is prepared to (at most ring_blocks)
        self.preparing = ring_blocks > 0  # the ring lacks blocks to add before a start
        # The preparation under way: the blocks appended to the ring's file since the
        # ring was last located (``add_ring_block``: it is located once they are all
        # there), and whether the stale copies of the ring's nonce were erased yet.
        self.added = 0
        self.cleared = False
        # The tick read once a block is added: the erase's end (it holds the main loop).
        # ``time.ticks_ms`` on a board; the simulated chip's model gives its own.
        self.ticks = ticks_ms
        # The located ring (``hal.journal_ring``: its blocks and its slots' addresses),
        # and a page of 0xFF but the entry being programmed (boards whose flash
        # programs whole pages only).
        self.ring = Ring()
        self.page = bytearray(b"\xff" * PAGE_BYTES) if whole_pages and ring_blocks else None
        self.filled_at = 0  # where the page holds the last entry written (``_write_page``)

    def read_ticks_from(self, ticks):
        """Read the tick after a block is added from ``ticks()`` (a simulated chip's model,
        which holds the main loop without moving the clock's virtual time)."""
        self.ticks = ticks

    def prepare(self, now):
        """Add the ring's missing blocks back to back, from the step at tick ``now`` (the
        clock set up for a new game: ``firmware.journal``): until the ring is whole, or
        a block took time (an erase held the main loop: the next step draws the blocks
        left, reads the keys and feeds the watchdog, then this goes on). A board whose
        flash takes no time (the ideal simulated one) prepares it whole at once."""
        while self.preparing:
            self.prepare_block()
            if ticks_diff(self.ticks(), now) > 0:
                return

    # --- during a game ---------------------------------------------------

    def write_record(self, buf, seq):
        """Write entry ``seq`` into the ring, or its slot file if the ring is full or
        missing (flushed); allocates nothing."""
        slot = self.ring.take_slot()
        if slot < 0:
            self.write_slot(buf, seq)
        elif not self.whole_pages:  # the entry's bytes alone (esp32.Partition)
            self.ring.program_entry(slot, buf)
        else:
            self._write_page(buf, slot)

    def _write_page(self, buf, slot):
        """Program the page of ring ``slot`` with the entry ``buf`` in its place and the
        rest blank (a page program only clears bits)."""
        if len(buf) != ENTRY_BYTES:  # (a slice of another length would resize the page)
            raise ValueError("a journal entry is %d bytes" % ENTRY_BYTES)
        at = self.filled_at  # the last entry's place, blank again: a page program only
        self.page[at : at + ENTRY_BYTES] = _BLANK_ENTRY  # clears bits, the rest stays erased
        at = self.ring.entry_at(slot)
        self.page[at : at + ENTRY_BYTES] = buf  # no allocation: same length, slice on the stack
        self.filled_at = at
        self.ring.program_page(slot, self.page)

    def write_slot(self, buf, seq):
        """Write entry ``seq`` into its slot file (flushed): an entry the ring does not
        take (full or missing, or the clock set up: the ring is the game's)."""
        handle = self.handles[seq & 1]
        if handle is None:
            raise OSError(5)  # EIO: the slot could not be opened at boot
        handle.seek(0)
        handle.write(buf)
        handle.flush()

    # --- at boot and while the clock stands -------------------------------------
    # Each step that reads or writes the flash loads hal.journal_setup for its call and
    # lets it go after (``_setup``, ``_let_go_setup``).

    def is_preparing(self):
        """Whether the ring still has blocks to add before a start (``prepare``)."""
        return self.preparing

    def start_wait(self):
        """The blocks the ring still lacks before a game may start (0: it may start)."""
        if not self.preparing:
            return 0
        left = self.wanted - self.ring.block_count() - self.added
        return left if left > 0 else 1  # (all there: the ring is located at the next step)

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
            self.ring.take(*found)
            self.ring.next = setup.first_unused(self.ring)
            setup.find_events(self.ring)
            # A game that comes back goes on with the ring it has (no erase in a game);
            # a new game's ``begin_game`` sizes the ring again.
            self.preparing = False
            return setup.newest_entry(self.ring, whole)
        finally:
            _let_go_setup()

    def event_text(self):
        """The event-log lines the ring holds, as programmed (boot restores a game's
        events from them and the event log file)."""
        setup = _setup()
        try:
            return setup.event_text(self.ring)
        finally:
            _let_go_setup()

    def drop_ring(self):
        """Forget the ring found at boot (the journal was set aside, ring and all): the
        entries go to the slot files until a fresh ring is prepared."""
        self.ring.forget()
        self.added = 0
        self.preparing = self.ring_blocks > 0

    def prepare_block(self):
        """Add one block to the ring (littlefs erases it), or start a new ring with one if
        there is none; once the ring has the blocks wanted, keep it only if a boot
        would find it as the store holds it (invariants 1 and 2, hal.journal_setup).
        hal.journal_setup stays loaded from block to block (they come a step apart, and
        loading it again at each cost the port a tenth of a block's time) and is let go
        once the ring is whole, or on an error."""
        try:
            self._add_or_locate(_setup())
        finally:
            if not self.preparing:
                _let_go_setup()

    def _add_or_locate(self, setup):
        self.preparing = False  # unless the block is added (and the ring found as it is)
        ring = self.ring
        have = ring.block_count()
        count = have + self.added
        if count < self.wanted:
            if count == 0:
                ring.renew(setup.new_nonce())
                self.cleared = True  # a new nonce: no stale copy can hold it
            elif not self.cleared:  # a ring found at boot: a cut append may have left copies
                setup.clear_stale_of(self.storage, ring, count)
                self.cleared = True
            setup.add_ring_block(self.storage, ring.nonce, count)
            self.added += 1
            if count + 1 < self.wanted:
                self.preparing = True
                return
        found = setup.locate_ring(self.storage)  # as a boot would, once a preparation
        self.added = 0
        ring.adopt(found, have)

    def begin_game(self, clock, claims, game, played):
        """A new game with ``clock``'s controls and ``claims``' settings: return its id.

        ``game`` is the id of the game before (at boot, the highest id found on
        flash), ``played`` whether that game left setup. The header describes the
        new game and the event log is set aside (``hal.journal_setup.begin_game``,
        invariant 6); a ring that holds any entry is replaced by a fresh one at the
        next ``prepare`` (invariant 5), sized to the game."""
        setup = _setup()
        try:
            game, self.header = setup.begin_game(self, clock, claims, game, played)
            self.wanted = setup.ring_need(clock, self.ring_blocks)
        finally:
            _let_go_setup()
        ring = self.ring
        if ring.next > 0 or ring.has_events():
            ring.forget()  # a used ring: the next ``prepare`` starts a fresh one
            self.added = 0
        have = ring.block_count() + self.added
        self.preparing = self.ring_blocks > 0 and (have < self.wanted or self.added > 0)
        return game

    def append_event(self, game, entry, clock):
        """Add one event-log entry of game ``game`` (an arbiter's action: the clock is
        paused), with ``clock``'s move counter and both times at that moment: into the
        ring's event block, programmed (no erase in a game), or the event log file if
        the ring has no room (``hal.journal_setup.append_event``)."""
        setup = _setup()
        try:
            setup.append_event(self, game, entry, clock)
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
