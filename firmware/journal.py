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
allocates nothing: the
record is a preallocated bytearray, filled with small integers and a
Fletcher checksum, and handed to ``store.write_record`` (hal.journal_store).

Layout (little-endian): 0 ``CJ``, 2 version, 3 size, 4 sequence (i32),
8 game id (i32), 12 state, mover+1, white+1, first flag+1, 16 turn time at
the entry (i32), 20 and 34 each side: remaining ms (i32), period, flag bits
(flagged, can flag, final, in byo-yomi), moves (u16), byo-yomi count (u16),
Canadian block ms (i32); 48 claim state, claimant+1, result, five-second
mode (0 none, 1 ``0+5``, 2 ``0d5``; a G.4 grant's, over the header's controls);
byte 48 has bit 7 set when the claim's two minutes were given; 52 event-log length (u16), G.6 record
moves (u16); 56 G.6 record left and right ms (i32 each); 64 the Fletcher-16
checksum of bytes 0-63 (i32).
"""

from micropython import const

from firmware import engine
from firmware import timecontrol as tc
from firmware.tickmath import ticks_add, ticks_diff

ENTRY_MS = const(5000)  # the newest entry is never older than this while a clock runs
RECORD_SIZE = const(68)
VERSION = const(1)
CHECKED = const(64)  # the checksum covers the bytes before it
SIDE_AT = (20, 34)

CLAIM_STATES = ("none", "open", "postponed", "recorded")
AWARDED = const(0x80)  # in the claim state byte: the claim's two minutes were given
MODE_MS = const(5000)  # the G.4 mode's increment or delay


def put(buf, at, value, size):
    """Store ``value`` little-endian in ``size`` bytes (small integers: no allocation)."""
    index = 0
    while index < size:
        buf[at + index] = (value >> (8 * index)) & 0xFF
        index += 1


def checksum(buf, count):
    """The Fletcher-16 sums of ``buf[:count]`` as one number (``first << 8 | second``)."""
    first = 0
    second = 0
    index = 0
    while index < count:
        first = (first + buf[index]) % 255
        second = (second + first) % 255
        index += 1
    return first << 8 | second


def seal(buf):
    put(buf, CHECKED, checksum(buf, CHECKED), 4)


def encode(buf, seq, game, clock, claims, turn_ms, log_count):
    """Fill ``buf`` with the game as it stands, the turn having run ``turn_ms``."""
    buf[0] = 0x43  # C
    buf[1] = 0x4A  # J
    buf[2] = VERSION
    buf[3] = RECORD_SIZE
    put(buf, 4, seq, 4)
    put(buf, 8, game, 4)
    buf[12] = clock.state
    buf[13] = clock.mover + 1
    buf[14] = clock.white + 1
    buf[15] = clock.first_flag + 1
    put(buf, 16, turn_ms, 4)
    index = 0
    while index < 2:
        side = clock.sides[index]
        at = SIDE_AT[index]
        put(buf, at, side.remaining_ms, 4)
        buf[at + 4] = side.period
        buf[at + 5] = side.flagged | side.can_flag << 1 | side.final << 2 | side.in_byo << 3
        put(buf, at + 6, side.moves, 2)
        put(buf, at + 8, side.byo_left, 2)
        put(buf, at + 10, side.block_ms, 4)
        index += 1
    claim_state = claims.state
    buf[48] = CLAIM_STATES.index(claim_state) if claim_state != "none" else 0
    if claims.awarded:
        buf[48] |= AWARDED
    buf[49] = claims.claimant + 1
    buf[50] = 1 if claims.result == "draw" else 0
    added = clock.sides[0].added_mode
    buf[51] = 1 if added == tc.FISCHER else 2 if added == tc.DELAY else 0
    put(buf, 52, log_count, 2)
    record = claims.record
    if record is None:
        put(buf, 54, 0, 2)
        put(buf, 56, 0, 4)
        put(buf, 60, 0, 4)
    else:
        put(buf, 54, record["moves"], 2)
        put(buf, 56, record["left_ms"], 4)
        put(buf, 60, record["right_ms"], 4)
    seal(buf)


class Journal:
    """Decides when the game is journalled, and writes entries through ``store``."""

    def __init__(self, app, store, tick_ms, game, seq, logged):
        self.app = app
        self.store = store
        self.period_ms = ENTRY_MS - tick_ms
        self.game = game  # the id of the header the entries belong to
        self.seq = seq  # the sequence number of the newest entry on flash
        self.logged = logged  # event-log entries of this game already on flash
        self.log_base = 0  # where this game's entries start in ``claims.log``
        self.buf = bytearray(RECORD_SIZE)
        self.last_entry = 0  # the instant of the newest entry (a tick)
        self.writes = 0
        self.failures = 0  # writes the flash refused (the clock goes on regardless)
        self.note = None  # an event to log at the first step (a restored game)
        self.seen = [0] * 8
        self.remember()

    def remember(self):
        """Note what the change test compares (allocates nothing)."""
        app = self.app
        clock = app.clock
        seen = self.seen
        seen[0] = clock.state
        seen[1] = clock.mover
        seen[2] = clock.sides[0].remaining_ms
        seen[3] = clock.sides[1].remaining_ms
        seen[4] = clock.sides[0].flagged | clock.sides[1].flagged << 1
        seen[5] = len(app.claims.log)
        seen[6] = clock.sides[0].moves + clock.sides[1].moves
        seen[7] = clock.first_flag
        self.clock_seen = clock
        self.claims_seen = app.claims
        self.claim_state_seen = app.claims.state
        self.mode_seen = clock.sides[0].added_mode
        self.awarded_seen = app.claims.awarded
        self.claimant_seen = app.claims.claimant

    def changed(self):
        app = self.app
        clock = app.clock
        seen = self.seen
        return (
            clock is not self.clock_seen
            or app.claims is not self.claims_seen
            or seen[0] != clock.state
            or seen[1] != clock.mover
            or seen[2] != clock.sides[0].remaining_ms
            or seen[3] != clock.sides[1].remaining_ms
            or seen[4] != clock.sides[0].flagged | clock.sides[1].flagged << 1
            or seen[5] != len(app.claims.log)
            or seen[6] != clock.sides[0].moves + clock.sides[1].moves
            or seen[7] != clock.first_flag
            or app.claims.state is not self.claim_state_seen
            or clock.sides[0].added_mode != self.mode_seen
            or app.claims.awarded != self.awarded_seen
            or app.claims.claimant != self.claimant_seen
        )

    def tick(self, now):
        """Journal the game at the end of a main-loop step at ``now``.

        A flash that refuses a write never stops the clock: the failure is
        counted and the next change or period tries again.
        """
        try:
            self.step(now)
        except OSError:
            self.failures += 1

    def step(self, now):
        clock = self.app.clock
        if self.note is not None:
            self.app.claims.log.append((now, self.note, self.seq))
            self.note = None
        if self.changed():
            if clock.state == engine.SETUP:
                self.new_game()
            self.log_events()
            self.write(now, 0)
        elif clock.state == engine.RUNNING:
            late = ticks_diff(now, self.last_entry) - self.period_ms
            if late >= 0:
                self.write(now, late)

    def write(self, now, late):
        """Write an entry for the instant ``late`` ms before ``now``."""
        app = self.app
        clock = app.clock
        self.remember()
        turn_ms = clock.elapsed(now) - late if clock.state == engine.RUNNING else clock.turn_used
        self.seq += 1
        count = len(app.claims.log) - self.log_base
        encode(self.buf, self.seq, self.game, clock, app.claims, turn_ms, count)
        self.last_entry = ticks_add(now, -late)
        self.writes += 1
        self.store.write_record(self.buf, self.seq)

    def new_game(self):
        """The clock is set up for a new game: a header for its controls, a fresh event log."""
        app = self.app
        self.log_base = len(app.claims.log)
        self.logged = 0
        self.game = self.store.begin_game(app.clock, app.claims, self.game)

    def log_events(self):
        """Append the event-log entries not yet on flash (arbiter actions: clock paused)."""
        app = self.app
        log = app.claims.log
        clock = app.clock
        while self.log_base + self.logged < len(log):
            entry = log[self.log_base + self.logged]
            self.store.append_event(self.game, entry, clock)
            self.logged += 1
