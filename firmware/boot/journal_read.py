"""Reading the game journal back at boot: its records and its files.

The other half of ``firmware.journal`` (which writes): a record's fields,
whether it is whole (magic, version, size, checksum), the header, the newest
good slot, the event log. Used once, at boot, by ``firmware.boot.resume``.
"""

import json

from firmware import claims as claims_module
from firmware import engine, files, journal, timecontrol
from firmware.boot import documents


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


def valid(buf):
    """True if ``buf`` holds a whole record of this version with a good checksum."""
    if buf is None or len(buf) < journal.RECORD_SIZE:
        return False
    if (
        buf[0] != 0x43
        or buf[1] != 0x4A
        or buf[2] != journal.VERSION
        or buf[3] != journal.RECORD_SIZE
    ):
        return False
    return get(buf, journal.CHECKED, 4) == journal.checksum(buf, journal.CHECKED)


def sequence(buf):
    return get(buf, 4, 4, True)


def game_id(buf):
    return get(buf, 8, 4, True)


def state(buf):
    return buf[12]


def log_count(buf):
    return get(buf, 52, 2)


_MAX_MS = 0x3FFFFFFF  # a time the clock can hold: a small integer on a 32-bit board
_MAX_GAME = 0x7FFFFFFE  # a game id: the next one still fits the record's 32 bits


def _check(ok, what):
    if not ok:
        raise ValueError("journal entry: %s" % what)


def _check_ms(value, what):
    _check(0 <= value <= _MAX_MS, "%s %d ms is no time" % (what, value))


def check(buf, controls):
    """Raise ValueError unless every field of the whole record ``buf`` is one the
    clock can use with ``controls`` (left, right): a record sealed with a good
    checksum can still hold a period that does not exist, a negative time, an
    unknown side."""
    state = buf[12]
    _check(state <= engine.OVER, "state %d" % state)
    playing = state != engine.SETUP
    for at, what in ((13, "side to move"), (14, "White"), (15, "first flag")):
        _check(
            buf[at] <= 2 and (buf[at] != 0 or not playing or at == 15), "%s %d" % (what, buf[at])
        )
    _check_ms(get(buf, 16, 4, True), "turn time")
    claim_state = buf[48] & ~journal.AWARDED
    _check(claim_state < len(journal.CLAIM_STATES), "claim state %d" % buf[48])
    _check(buf[49] <= 2 and (buf[49] == 0) == (claim_state == 0), "claimant %d" % buf[49])
    _check(buf[50] <= 1 and buf[51] <= 2, "result or mode")  # mode: none, 0+5, 0d5
    for index in (0, 1):
        control = controls[index]  # a G.4 mode is added over them, keeping the periods
        at = journal.SIDE_AT[index]
        _check_ms(get(buf, at, 4, True), "time")
        _check(buf[at + 4] < len(control.periods), "period %d" % (buf[at + 4] + 1))
        _check(buf[at + 5] < 16, "flag bits %d" % buf[at + 5])
        _check(get(buf, at + 8, 2) <= control.byo_count, "byo-yomi count")
        _check(0 <= get(buf, at + 10, 4, True) <= control.byo_ms, "byo-yomi time")
    _check_ms(get(buf, 56, 4, True), "recorded time")
    _check_ms(get(buf, 60, 4, True), "recorded time")


def decode(buf, clock, claims):
    """Put the journalled game back on ``clock`` and ``claims``, paused if it was running.

    ``clock`` and ``claims`` are new, built with the controls and the event
    settings of the journal's header; the event log is restored separately.
    Raises ValueError, changing nothing, for a record the clock cannot use.
    """
    check(buf, (clock.sides[0].control, clock.sides[1].control))
    recorded = buf[12]
    clock.state = engine.PAUSED if recorded == engine.RUNNING else recorded
    clock.mover = buf[13] - 1
    clock.white = buf[14] - 1
    clock.first_flag = buf[15] - 1
    clock.turn_used = get(buf, 16, 4, True)
    clock.turn_start = 0
    for index in (0, 1):
        side = clock.sides[index]
        at = journal.SIDE_AT[index]
        side.remaining_ms = get(buf, at, 4, True)
        side.period = buf[at + 4]
        bits = buf[at + 5]
        side.flagged = bool(bits & 1)
        side.can_flag = bool(bits & 2)
        side.final = bool(bits & 4)
        side.in_byo = bool(bits & 8)
        side.moves = get(buf, at + 6, 2)
        side.byo_left = get(buf, at + 8, 2)
        side.block_ms = get(buf, at + 10, 4, True)
        mode = buf[51]
        if mode:  # a G.4 grant's 5-second mode over the header's controls
            side.added_mode = timecontrol.FISCHER if mode == 1 else timecontrol.DELAY
            side.added_ms = journal.MODE_MS
    claims.state = journal.CLAIM_STATES[buf[48] & ~journal.AWARDED]
    claims.awarded = bool(buf[48] & journal.AWARDED)
    claims.claimant = buf[49] - 1
    claims.result = "draw" if buf[50] else "none"
    if claims.state == "recorded":
        claims.record = {
            "claimant": claims_module.SIDE_NAMES[claims.claimant],
            "left_ms": get(buf, 56, 4, True),
            "right_ms": get(buf, 60, 4, True),
            "moves": get(buf, 54, 2),
            "control_left": clock.sides[0].control.text,
            "control_right": clock.sides[1].control.text,
            "edition": claims.edition,
            "setting": claims.quickplay,
        }


def read_header(storage):
    """The header, or None if there is none. Raises documents.Unusable."""
    try:
        data = documents.read(storage, files.JOURNAL_HEADER)
    except OSError:
        raise
    except Exception as error:  # not JSON, too deep, too large: an unusable header
        raise documents.Unusable(documents.BAD, "game.json: %s" % error)
    if data is None:
        return None
    documents.check_version(data)
    for key in ("game", "control_left", "control_right", "quickplay", "edition"):
        if key not in data:
            raise documents.Unusable(documents.BAD, "game.json has no %s" % key)
    game = data["game"]
    if not isinstance(game, int) or isinstance(game, bool) or not 0 <= game <= _MAX_GAME:
        raise documents.Unusable(documents.BAD, "game.json: game id %r is no 32-bit id" % (game,))
    return data


def read_slots(storage):
    """``(newest whole record or None, True if every slot holds something unusable)``.

    One spoiled slot beside a good one is a write the power cut short; both
    spoiled is no cut the journal can make. An empty slot is none.
    """
    newest = None
    spoiled = 0
    for name in files.JOURNAL_SLOTS:
        data = storage.read_bytes(name)
        if not data:
            continue
        if not valid(data):
            spoiled += 1
        elif newest is None or sequence(data) > sequence(newest):
            newest = data
    return newest, spoiled == len(files.JOURNAL_SLOTS)


def read_events(storage, game, count):
    """The first ``count`` event-log entries of game ``game`` as ``(tick, what, detail)``."""
    entries = []
    try:
        data = storage.read_bytes(files.EVENTS)
    except Exception:  # unreadable or too large for the heap: the game comes back without it
        return entries
    for line in (data or b"").split(b"\n"):
        if len(entries) >= count:
            break
        try:
            item = json.loads(line.decode("utf-8"))
        except Exception:  # the partial last line of a cut, or damage (even JSON nested too deep)
            continue
        if isinstance(item, list) and len(item) >= 4 and item[0] == game:
            entries.append((item[1], item[2], item[3]))
    return entries


def set_aside(storage):
    """Keep the journal's files for inspection (``NAME.bad``): the next game starts afresh."""
    for name in files.JOURNAL_SLOTS + (files.JOURNAL_HEADER,):
        try:
            storage.set_aside(name)
        except OSError:
            pass
