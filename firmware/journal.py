"""The game journal: the state of a game in progress as a fixed 68-byte record.

``Journal.tick(now)`` runs at the end of every main-loop step. It writes an
entry when anything in the game changed (a move, a pause or resume, a flag,
any arbiter action, a claim, a ruling, a G.6 record, a new game) and, while
a clock runs, every ``period_ms`` of running time counted from the previous
entry (5 s less one tick: the entry is written on the first tick at or
after its instant, so the newest entry is never more than 5 s old). A
periodic entry records the state at its own instant, whichever step writes
it, so where the display was looked at never changes what is journalled.

An entry holds the turn's running time at its instant, never a tick (ticks
start again at every boot); at boot ``firmware.boot.journal_read`` puts the game
back **paused** with that turn time: the side to move loses at most the
time since the newest entry, the other side nothing. Writing an entry
allocates nothing: the record is a preallocated bytearray, filled with small
integers and a Fletcher checksum, and handed to ``store.write_record``
(hal.journal_store). What the store does only while the clock stands (a
new game's header, an event-log line, a block of its ring) are its methods
``begin_game``, ``append_event`` and ``prepare``, each loading the code it
needs for the call and letting it go after.

The record's layout is described once, below: each field's offset
(``_*_AT``) and size in bytes (``_*_SIZE``; a field without one is a single
byte), little-endian. ``encode`` writes it; ``fields`` and ``side_fields``
read it back for ``firmware.boot.journal_read``, which checks and restores what
they give and never sees an offset. The names are private constants:
compiled into this module, they take no room on the heap (public names
would, about 20 bytes each, on a board with little to spare).

The change test is one comparison: the engine and the claims bump a counter
at every change (``Clock.changes``, ``Claims.changes``), and the journal
compares their sum with the one its newest entry saw.
"""

from micropython import const

from firmware import engine
from firmware.tickmath import ticks_add, ticks_diff

ENTRY_MS = const(5000)  # the newest entry is never older than this while a clock runs
VERSION = const(1)
AWARDED = const(0x80)  # in the claim state byte: the claim's two minutes were given
MODE_MS = const(5000)  # the G.4 mode's increment or delay
CLAIM_STATES = ("none", "open", "postponed", "recorded")

# The record, field by field (the format on flash: never move a field). Times
# and ids are signed; a side is stored + 1 (0: nobody).
_MAGIC_AT = const(0)  # "CJ"
_MAGIC_SIZE = const(2)
_MAGIC = const(0x4A43)
_VERSION_AT = const(2)
_SIZE_AT = const(3)  # holds RECORD_SIZE
_SEQ_AT = const(4)  # the entry's sequence number
_SEQ_SIZE = const(4)
_GAME_AT = const(8)  # the game id of the header the entry belongs to
_GAME_SIZE = const(4)
_STATE_AT = const(12)  # engine.SETUP, RUNNING, PAUSED, OVER
_MOVER_AT = const(13)  # the side to move
_WHITE_AT = const(14)
_FIRST_FLAG_AT = const(15)  # the side whose flag fell first
_TURN_AT = const(16)  # the turn's running time at the entry's instant, ms
_TURN_SIZE = const(4)
SIDE_AT = (20, 34)  # each side's fields, at these offsets plus:
_TIME_AT = const(0)  # remaining ms (main time for byo-yomi)
_TIME_SIZE = const(4)
_PERIOD_AT = const(4)
_FLAGS_AT = const(5)  # flagged, can flag, final, in byo-yomi: bits 0 to 3 (Side.restore)
_MOVES_AT = const(6)
_MOVES_SIZE = const(2)
_BYO_LEFT_AT = const(8)  # Japanese periods, Canadian moves left in the block
_BYO_LEFT_SIZE = const(2)
_BLOCK_AT = const(10)  # Canadian block ms left
_BLOCK_SIZE = const(4)
_CLAIM_AT = const(48)  # the index in CLAIM_STATES, | AWARDED
_CLAIMANT_AT = const(49)
_RESULT_AT = const(50)  # 1: a draw
_MODE_AT = const(51)  # a G.4 grant's mode over the header's controls: 0 none, 1 0+5, 2 0d5
_LOG_AT = const(52)  # the game's event-log length
_LOG_SIZE = const(2)
_RECORD_MOVES_AT = const(54)  # the G.6 record's moves
_RECORD_MOVES_SIZE = const(2)
_RECORD_LEFT_AT = const(56)  # the G.6 record's times, ms
_RECORD_RIGHT_AT = const(60)
_RECORD_MS_SIZE = const(4)
CHECKED = const(64)  # the Fletcher-16 checksum of the bytes before it
_CHECKSUM_SIZE = const(4)
RECORD_SIZE = const(68)


def put(buf, at, value, size):
    """Store ``value`` little-endian in ``size`` bytes (small integers: no allocation)."""
    index = 0
    while index < size:
        buf[at + index] = (value >> (8 * index)) & 0xFF
        index += 1


def get(buf, at, size, signed=False):
    """The integer ``put`` stored."""
    value = 0
    index = size - 1
    while index >= 0:
        value = (value << 8) | buf[at + index]
        index -= 1
    if signed and buf[at + size - 1] & 0x80:
        value -= 1 << (8 * size)
    return value


def checksum(buf, count):
    """The Fletcher-16 sums of ``buf[:count]`` as one number (``first << 8 | second``).

    Each sum is reduced modulo 255 once, at the end: reducing at every byte gives the
    same remainders, and over a record the sums stay small integers (``second`` at
    most 255 * count * (count + 1) / 2: 590,070 for 68 bytes, far below 2**30)."""
    first = 0
    second = 0
    index = 0
    while index < count:
        first += buf[index]
        second += first
        index += 1
    return (first % 255) << 8 | second % 255


def seal(buf):
    put(buf, CHECKED, checksum(buf, CHECKED), _CHECKSUM_SIZE)


# A record is filled in parts (``Journal._encode``), each function's frame small enough
# for MicroPython's C stack (tools/heap_frames.py): a record is written at every move.
def encode_head(buf, seq, game, clock, turn_ms):
    """The record's header and the game's state, the turn having run ``turn_ms``."""
    put(buf, _MAGIC_AT, _MAGIC, _MAGIC_SIZE)
    buf[_VERSION_AT] = VERSION
    buf[_SIZE_AT] = RECORD_SIZE
    put(buf, _SEQ_AT, seq, _SEQ_SIZE)
    put(buf, _GAME_AT, game, _GAME_SIZE)
    buf[_STATE_AT] = clock.state
    buf[_MOVER_AT] = clock.mover + 1
    buf[_WHITE_AT] = clock.white + 1
    buf[_FIRST_FLAG_AT] = clock.first_flag + 1
    put(buf, _TURN_AT, turn_ms, _TURN_SIZE)
    buf[_MODE_AT] = clock.sides[0].added_mode  # tc.NONE 0, FISCHER 1, DELAY 2: the byte's codes


def encode_side(buf, side, at):
    """One side's clock at ``at`` (``SIDE_AT``)."""
    put(buf, at + _TIME_AT, side.remaining_ms, _TIME_SIZE)
    buf[at + _PERIOD_AT] = side.period
    flags = side.flagged | side.can_flag << 1 | side.final << 2 | side.in_byo << 3
    buf[at + _FLAGS_AT] = flags
    put(buf, at + _MOVES_AT, side.moves, _MOVES_SIZE)
    put(buf, at + _BYO_LEFT_AT, side.byo_left, _BYO_LEFT_SIZE)
    put(buf, at + _BLOCK_AT, side.block_ms, _BLOCK_SIZE)


def encode_claims(buf, claims, log_count):
    """The claim's state, its claimant, the result, the event log's length."""
    claim = claims.state
    claim = CLAIM_STATES.index(claim) if claim != "none" else 0
    buf[_CLAIM_AT] = claim | AWARDED if claims.awarded else claim
    buf[_CLAIMANT_AT] = claims.claimant + 1
    buf[_RESULT_AT] = 1 if claims.result == "draw" else 0
    put(buf, _LOG_AT, log_count, _LOG_SIZE)
    record = claims.record
    if record is None:
        put(buf, _RECORD_MOVES_AT, 0, _RECORD_MOVES_SIZE)
        put(buf, _RECORD_LEFT_AT, 0, _RECORD_MS_SIZE)
        put(buf, _RECORD_RIGHT_AT, 0, _RECORD_MS_SIZE)
        return
    put(buf, _RECORD_MOVES_AT, record["moves"], _RECORD_MOVES_SIZE)
    put(buf, _RECORD_LEFT_AT, record["left_ms"], _RECORD_MS_SIZE)
    put(buf, _RECORD_RIGHT_AT, record["right_ms"], _RECORD_MS_SIZE)


MAGIC = const(_MAGIC)  # "CJ", as ``fields`` reads it


def fields(buf):
    """The record's fields as stored, in the order of the layout: ``(magic, version,
    size, sequence, game id, state, mover + 1, white + 1, first flag + 1, turn ms,
    claim byte, claimant + 1, result, mode, event-log length, G.6 record moves,
    left ms, right ms, checksum)`` (``buf`` holds at least ``RECORD_SIZE`` bytes)."""
    return (
        get(buf, _MAGIC_AT, _MAGIC_SIZE),
        buf[_VERSION_AT],
        buf[_SIZE_AT],
        get(buf, _SEQ_AT, _SEQ_SIZE, True),
        get(buf, _GAME_AT, _GAME_SIZE, True),
        buf[_STATE_AT],
        buf[_MOVER_AT],
        buf[_WHITE_AT],
        buf[_FIRST_FLAG_AT],
        get(buf, _TURN_AT, _TURN_SIZE, True),
        buf[_CLAIM_AT],
        buf[_CLAIMANT_AT],
        buf[_RESULT_AT],
        buf[_MODE_AT],
        get(buf, _LOG_AT, _LOG_SIZE),
        get(buf, _RECORD_MOVES_AT, _RECORD_MOVES_SIZE),
        get(buf, _RECORD_LEFT_AT, _RECORD_MS_SIZE, True),
        get(buf, _RECORD_RIGHT_AT, _RECORD_MS_SIZE, True),
        get(buf, CHECKED, _CHECKSUM_SIZE),
    )


def side_fields(buf, index):
    """Side ``index``'s fields as stored: ``(remaining ms, period, flag bits, moves,
    byo-yomi count, block ms)``, what ``Side.restore`` takes."""
    at = SIDE_AT[index]
    return (
        get(buf, at + _TIME_AT, _TIME_SIZE, True),
        buf[at + _PERIOD_AT],
        buf[at + _FLAGS_AT],
        get(buf, at + _MOVES_AT, _MOVES_SIZE),
        get(buf, at + _BYO_LEFT_AT, _BYO_LEFT_SIZE),
        get(buf, at + _BLOCK_AT, _BLOCK_SIZE, True),
    )


class Journal:
    """Decides when the game is journalled, and writes entries through ``store``."""

    def __init__(self, clock, claims, store, tick_ms, game, seq, logged):
        self.clock = clock
        self.claims = claims
        self.store = store
        self.period_ms = ENTRY_MS - tick_ms
        self.game = game  # the id of the header the entries belong to
        self.seq = seq  # the sequence number of the newest entry on flash
        self.logged = logged  # event-log entries of this game already on flash
        self.buf = bytearray(RECORD_SIZE)
        self.last_entry = 0  # the instant of the newest entry (a tick)
        self.writes = 0
        self.failures = 0  # writes the flash refused (the clock goes on regardless)
        self.note = None  # an event to log at the first step (a restored game)
        self.seen = clock.changes + claims.changes  # the changes the newest entry holds
        self.played = False  # whether an entry of this game left setup: its id is spent

    def open(self, restored):
        """Start journalling: a ``restored`` game logs its return at the first step;
        any other gets its header now (a flash that refuses is counted, and the
        clock goes on)."""
        if restored:
            self.note = "restored"
            self.played = True
            return
        try:
            self.new_game()
        except OSError:
            self.failures += 1

    def tick(self, now):
        """Journal the game at the end of a main-loop step at ``now``.

        A flash that refuses a write never stops the clock: the failure is
        counted and the next change or period tries again.
        """
        try:
            self._journal(now)
        except OSError:
            self.failures += 1

    def _journal(self, now):
        clock = self.clock
        if self.note is not None:
            self.claims.note(now, self.note, self.seq)
            self.note = None
        if clock.changes + self.claims.changes != self.seen:
            if clock.state == engine.SETUP:
                self.new_game()
            self.log_events()
            self.write(now, 0)
        elif clock.state == engine.RUNNING:
            late = ticks_diff(now, self.last_entry) - self.period_ms
            if late >= 0:
                self.write(now, late)
        # Before the start only (the same step as a new game's header): the ring's
        # blocks, which erase flash; a game in progress never prepares.
        if clock.state == engine.SETUP and self.store.is_preparing():
            self.store.prepare(now)

    def start_wait(self):
        """The ring's blocks still to prepare before a game may start (0: it may, or a
        game is in progress: it never prepares, ``hal.journal_store``)."""
        if self.clock.state != engine.SETUP:
            return 0
        return self.store.start_wait()

    def quiet_ms(self, now, wait):
        """``wait``, or less: the ms from ``now`` before which ``step`` writes nothing,
        if nothing changes meanwhile (0: something waits to be written)."""
        clock = self.clock
        if self.note is not None or clock.changes + self.claims.changes != self.seen:
            return 0
        if clock.state != engine.RUNNING:
            if clock.state == engine.SETUP and self.store.is_preparing():
                return 0  # the ring's next blocks, at the next step
            return wait
        left = self.period_ms - ticks_diff(now, self.last_entry)
        return left if left < wait else wait

    def write(self, now, late):
        """Write an entry for the instant ``late`` ms before ``now``."""
        clock = self.clock
        self.seen = clock.changes + self.claims.changes
        self.seq += 1
        self._encode(
            clock.elapsed(now) - late if clock.state == engine.RUNNING else clock.turn_used
        )
        self.last_entry = ticks_add(now, -late)
        self.writes += 1
        if clock.state == engine.SETUP:  # the ring is the game's, from its start
            self.store.write_slot(self.buf, self.seq)
            return
        self.played = True
        self.store.write_record(self.buf, self.seq)

    def _encode(self, turn_ms):
        """Fill the record with the game as it stands, the turn having run ``turn_ms``."""
        buf = self.buf
        clock = self.clock
        encode_head(buf, self.seq, self.game, clock, turn_ms)
        encode_side(buf, clock.sides[0], SIDE_AT[0])
        encode_side(buf, clock.sides[1], SIDE_AT[1])
        encode_claims(buf, self.claims, len(self.claims.log))
        seal(buf)

    def new_game(self):
        """The clock is set up for a new game: a header for its controls, a fresh event log.
        The last game's entries leave the heap (``clear`` gives the list's room
        back): those are on flash, and a day of games must not pile them up."""
        self.claims.log.clear()
        self.logged = 0
        self.game = self.store.begin_game(self.clock, self.claims, self.game, self.played)
        self.played = False

    def log_events(self):
        """Append the event-log entries not yet on flash (arbiter actions: clock paused)."""
        log = self.claims.log
        clock = self.clock
        while self.logged < len(log):
            entry = log[self.logged]
            self.store.append_event(self.game, entry, clock)
            self.logged += 1
