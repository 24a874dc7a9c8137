"""The game journal on flash: two alternating record slots, a header, an event log.

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
"""

import json

from firmware import documents
from firmware import journal as journal_module

HEADER = "game.json"
SLOTS = ("game.j0", "game.j1")
EVENTS = "events.log"
OLD_EVENTS = "events.old"


class JournalStore:
    """The journal's files in ``storage``."""

    def __init__(self, storage):
        self.storage = storage
        self.handles = [None, None]
        self.header = None  # the decoded header in force
        self.header_controls = None  # its parsed controls, once a game was restored

    # --- boot ------------------------------------------------------------

    def read_header(self):
        """The header, or None if there is none. Raises documents.Unusable."""
        try:
            data = self.storage.read_json(HEADER)
        except ValueError as error:
            raise documents.Unusable(documents.BAD, "game.json: %s" % error)
        if data is None:
            return None
        documents.check_version(data)
        for key in ("game", "control_left", "control_right", "quickplay", "edition"):
            if key not in data:
                raise documents.Unusable(documents.BAD, "game.json has no %s" % key)
        if not isinstance(data["game"], int):
            raise documents.Unusable(documents.BAD, "game.json: game id is not a number")
        return data

    def read_slots(self):
        """``(newest valid record or None, True if a slot holds something unusable)``."""
        newest = None
        spoiled = 0
        for name in SLOTS:
            data = self.storage.read_bytes(name)
            if not data:
                continue
            if journal_module.valid(data):
                if newest is None or journal_module.sequence(data) > journal_module.sequence(
                    newest
                ):
                    newest = data
            else:
                spoiled += 1
        # One spoiled slot beside a good one is a write the power cut short;
        # two spoiled slots are no cut the journal can make.
        return newest, spoiled == len(SLOTS)

    def set_aside(self):
        """Keep the journal's files for inspection (``NAME.bad``) and start afresh."""
        for name in SLOTS + (HEADER,):
            try:
                self.storage.set_aside(name)
            except OSError:
                pass

    def read_events(self, game, count):
        """The first ``count`` event-log entries of game ``game`` as ``(tick, what, detail)``."""
        entries = []
        try:
            data = self.storage.read_bytes(EVENTS)
        except OSError:
            return entries
        if not data:
            return entries
        for line in data.split(b"\n"):
            if len(entries) >= count:
                break
            try:
                item = json.loads(line.decode("utf-8"))
            except (ValueError, UnicodeError):
                continue  # the partial last line of a cut, or damage
            if isinstance(item, list) and len(item) >= 4 and item[0] == game:
                entries.append((item[1], item[2], item[3]))
        return entries

    def open_slots(self):
        """Open both slot files for writing in place (creating a missing one)."""
        files = self.storage.files
        for index, name in enumerate(SLOTS):
            path = self.storage.path(name)
            mode = "r+b" if files.exists(path) else "wb"
            self.handles[index] = files.open(path, mode)

    # --- during a game ---------------------------------------------------

    def write_record(self, buf, seq):
        """Write entry ``seq`` into its slot and flush it (allocates nothing)."""
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
        if same:
            return game
        game += 1
        wanted["game"] = game
        self.storage.write_json(HEADER, wanted)
        self.header = wanted
        return game

    def close(self):
        for index in (0, 1):
            if self.handles[index] is not None:
                self.handles[index].close()
                self.handles[index] = None
