"""Reading the game journal back at boot: its records and its files.

The other half of ``firmware.journal`` (which writes): a record's fields,
whether it is whole (magic, version, size, checksum), the header, the newest
good slot, the event log. Used once, at boot, by ``firmware.boot.resume``.
"""

from micropython import const

from firmware import claims as claims_module
from firmware import engine, files, journal, strict_json
from firmware.boot import documents


def valid(buf):
    """True if ``buf`` holds a whole record of this version with a good checksum."""
    if buf is None or len(buf) < journal.RECORD_SIZE:
        return False
    magic, version, size = journal.fields(buf)[:3]
    if magic != journal.MAGIC or version != journal.VERSION or size != journal.RECORD_SIZE:
        return False
    return journal.fields(buf)[-1] == journal.checksum(buf, journal.CHECKED)


# Where ``journal.fields`` gives what the boot reads first.
_SEQUENCE = const(3)
_GAME = const(4)
_STATE = const(5)
_LOG_COUNT = const(14)


def sequence(buf):
    return journal.fields(buf)[_SEQUENCE]


def game_id(buf):
    return journal.fields(buf)[_GAME]


def state(buf):
    return journal.fields(buf)[_STATE]


def log_count(buf):
    return journal.fields(buf)[_LOG_COUNT]


_MAX_MS = 0x3FFFFFFF  # a time the clock can hold: a small integer on a 32-bit board
_MAX_SHOWN_MS = 359_999_999  # 99:59:59.999: the most a correction leaves (firmware.claims)
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
    (_, _, _, _, _, state, mover, white, first_flag, turn_ms, claim, claimant, result, mode, _, _,
     left_ms, right_ms, _) = journal.fields(buf)  # fmt: skip
    _check(state <= engine.OVER, "state %d" % state)
    playing = state != engine.SETUP
    for side, what in ((mover, "side to move"), (white, "White")):
        _check(side <= 2 and (side != 0 or not playing), "%s %d" % (what, side))
    _check(first_flag <= 2, "first flag %d" % first_flag)
    _check_ms(turn_ms, "turn time")
    claim_state = claim & ~journal.AWARDED
    _check(claim_state < len(journal.CLAIM_STATES), "claim state %d" % claim)
    _check(claimant <= 2 and (claimant == 0) == (claim_state == 0), "claimant %d" % claimant)
    _check(result <= 1 and mode <= 2, "result or mode")  # mode: none, 0+5, 0d5
    for index in (0, 1):
        control = controls[index]  # a G.4 mode is added over them, keeping the periods
        remaining_ms, period, flags, _, byo_left, block_ms = journal.side_fields(buf, index)
        _check_ms(remaining_ms, "time")
        _check(period < len(control.periods), "period %d" % (period + 1))
        _check(flags < 16, "flag bits %d" % flags)
        _check(byo_left <= control.byo_count, "byo-yomi count")
        # a correction may make a period or block longer, up to what the display shows
        _check(0 <= block_ms <= _MAX_SHOWN_MS, "byo-yomi time %d ms" % block_ms)
    _check_ms(left_ms, "recorded time")
    _check_ms(right_ms, "recorded time")


def decode(buf, clock, claims):
    """Put the journalled game back on ``clock`` and ``claims``, paused if it was running.

    ``clock`` and ``claims`` are set up with the controls and the event
    settings of the journal's header; the event log is restored separately.
    Raises ValueError, changing nothing, for a record the clock cannot use.
    """
    check(buf, (clock.sides[0].control, clock.sides[1].control))
    (_, _, _, _, _, state, mover, white, first_flag, turn_ms, claim, claimant, result, mode, _,
     moves, left_ms, right_ms, _) = journal.fields(buf)  # fmt: skip
    added_mode = mode  # a G.4 grant's mode, the byte's codes tc's: NONE 0, FISCHER 1, DELAY 2
    added_ms = journal.MODE_MS if mode else 0
    for index in (0, 1):
        clock.sides[index].restore(journal.side_fields(buf, index), added_mode, added_ms)
    clock.restore(state, mover - 1, white - 1, first_flag - 1, turn_ms)
    claim_state = journal.CLAIM_STATES[claim & ~journal.AWARDED]
    record = None
    if claim_state == "recorded":
        record = {
            "claimant": claims_module.SIDE_NAMES[claimant - 1],
            "left_ms": left_ms,
            "right_ms": right_ms,
            "moves": moves,
            "control_left": clock.sides[0].control.text,
            "control_right": clock.sides[1].control.text,
            "edition": claims.edition,
            "setting": claims.quickplay,
        }
    result = "draw" if result else "none"
    claims.restore(claim_state, bool(claim & journal.AWARDED), claimant - 1, result, record)


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
    """``(the whole records of both slots, True if every slot holds something unusable)``.

    One spoiled slot beside a good one is a write the power cut short; both
    spoiled is no cut the journal can make. An empty slot is none.
    """
    whole = []
    spoiled = 0
    for name in files.JOURNAL_SLOTS:
        data = storage.read_bytes(name)
        if not data:
            continue
        if not valid(data):
            spoiled += 1
        else:
            whole.append(data)
    return whole, spoiled == len(files.JOURNAL_SLOTS)


def read_events(storage, game, count, ring_text=b""):
    """The first ``count`` event-log entries of game ``game`` as ``(tick, what, detail)``:
    those of ``ring_text`` (the lines the journal's ring holds), then the file's."""
    entries = []
    try:
        data = storage.read_bytes(files.EVENTS)
    except Exception:  # unreadable or too large for the heap: the game comes back without it
        data = b""
    for line in (ring_text + b"\n" + (data or b"")).split(b"\n"):
        if len(entries) >= count:
            break
        try:
            item = strict_json.loads(line)
        except Exception:  # the partial last line of a cut, or damage (even JSON nested too deep)
            continue
        if isinstance(item, list) and len(item) >= 4 and item[0] == game:
            entries.append((item[1], item[2], item[3]))
    return entries


def set_aside(storage):
    """Keep the journal's files for inspection (``NAME.bad``): the next game starts afresh.
    The header goes first: whatever a power cut leaves after it is an entry without
    its header, which is never restored; then the ring and the slots."""
    for name in (files.JOURNAL_HEADER, files.JOURNAL_RING) + files.JOURNAL_SLOTS:
        try:
            storage.set_aside(name)
        except OSError:
            pass
