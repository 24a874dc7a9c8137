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
instead (``hal.journal_ring``): flash erased at the game's setup and only
programmed in play, so that no erase holds a press back while a clock runs.
The slots take the entries again if the ring is full or cannot be found.

Reading them back at boot is ``firmware.boot.journal_read`` (and ``ring_entries``).
"""

import json

from firmware import lifetime
from firmware.files import EVENTS, JOURNAL_HEADER, JOURNAL_SLOTS, OLD_EVENTS


class JournalStore:
    """The journal's files in ``storage`` (which boot reads the journal back from)."""

    def __init__(self, storage, ring_blocks=0, feed=None):
        self.storage = storage
        self.handles = [None, None]
        self.header = None  # the decoded header in force
        self.ring_blocks = ring_blocks  # the board's JOURNAL_RING_BLOCKS (0: no ring)
        self.ring = None  # the located ring (hal.journal_ring.Ring), or None
        self.feed = feed  # the watchdog's feed, while a ring is prepared

    def ring_entries(self):
        """Find the ring (boot): its last two used slots, newest first ([] if none)."""
        if not self.ring_blocks:
            return []
        return _ring_setup("entries", self)

    def preparing(self):
        """True while the ring lacks blocks the clock may add while it stands."""
        ring = self.ring
        if ring is None:
            return self.ring_blocks > 0
        return not ring.complete and len(ring.blocks) < self.ring_blocks

    def prepare(self):
        """Add one block to the ring, or start one (the clock stands)."""
        _ring_setup("prepare", self)

    def open_slots(self, header):
        """Take ``header`` (the decoded header read at boot, or None) as the one in
        force, and open both slot files for writing in place (creating a missing one)."""
        self.header = header
        files = self.storage.files
        for index, name in enumerate(JOURNAL_SLOTS):
            path = self.storage.path(name)
            mode = "r+b" if files.exists(path) else "wb"
            self.handles[index] = files.open(path, mode)

    # --- during a game ---------------------------------------------------

    def write_record(self, buf, seq):
        """Write entry ``seq`` into the ring, or its slot (flushed); allocates nothing."""
        ring = self.ring
        if ring is not None and ring.next < ring.capacity:
            ring.write(buf)
            return
        handle = self.handles[seq & 1]
        if handle is None:
            raise OSError(5)  # EIO: the slot could not be opened at boot
        handle.seek(0)
        handle.write(buf)
        handle.flush()

    def append_event(self, game, entry, clock):
        """Add one event-log entry, with the move counter and both times at that moment."""
        tick, what, detail = entry
        shown = (clock.shown_ms(0, tick), clock.shown_ms(1, tick))
        line = json.dumps([game, tick, what, detail, clock.moves(), shown[0], shown[1]])
        self.storage.append_line(EVENTS, line)

    # --- a new game --------------------------------------------------------

    def begin_game(self, clock, claims, game):
        """Make the header describe a game with ``clock``'s controls; return its id.

        The header is rewritten (with the next id) only if what it says differs:
        a clock switched on and off again writes nothing. The previous game's
        event log becomes ``events.old``.
        """
        wanted = {
            "control_left": clock.sides[0].control.text,
            "control_right": clock.sides[1].control.text,
            "quickplay": claims.quickplay,
            "edition": claims.edition,
        }
        header = self.header
        same = header is not None and header.get("game") == game
        for key in wanted:
            if header is None or header.get(key) != wanted[key]:
                same = False
        if self.storage.exists(EVENTS):
            self.storage.remove(OLD_EVENTS)
            self.storage.files.rename(self.storage.path(EVENTS), self.storage.path(OLD_EVENTS))
        if not same:
            game += 1
            wanted["game"] = game
            self.storage.write_json(JOURNAL_HEADER, wanted)
            self.header = wanted
        if self.ring is not None and self.ring.next > 0:
            self.ring = None  # a used ring: the next ``prepare`` starts a fresh one
        return game

    def close(self):
        for index in (0, 1):
            if self.handles[index] is not None:
                self.handles[index].close()
                self.handles[index] = None


def _ring_setup(name, store):
    """``hal.journal_ring_setup.<name>(store)``, the module loaded for it and let go."""
    import hal
    from hal import journal_ring_setup

    try:
        return getattr(journal_ring_setup, name)(store)
    finally:
        lifetime.let_go(hal, "journal_ring_setup")
