"""Time controls: the PGN TimeControl syntax extended for delays and byo-yomi.

``parse(text)`` returns a ``TimeControl`` or raises ``ValueError`` with a
message that names the problem. Every duration is integer milliseconds.

Forms (seconds): ``S``, ``S+I`` (Fischer), ``SdD`` (simple delay), ``SbD``
(Bronstein), ``M/S...`` (M moves, then the next period, joined by ``:``),
``*S`` (hourglass), ``SjPxN`` (Japanese byo-yomi), ``ScM/P`` (Canadian).
"""

from micropython import const

# Period modes.
NONE = const(0)
FISCHER = const(1)
DELAY = const(2)
BRONSTEIN = const(3)

# Control kinds.
STAGES = const(0)
HOURGLASS = const(1)
JAPANESE = const(2)
CANADIAN = const(3)

MAX_START_MS = const(35_999_000)  # 9:59:59 on a side at the start
MAX_BONUS_MS = const(60_000)  # increment or delay
_MAX_SECONDS = const(35_999)
_MAX_MOVES = const(999)  # a period's moves, byo-yomi periods, Canadian moves a block
_MAX_PERIODS = const(9)

_ALLOWED = "0123456789+dbjcx/:*"


class TimeControl:
    """A parsed control. ``periods`` holds ``(moves, time_ms, mode, bonus_ms)``
    tuples (``moves`` 0 for the last period); ``cumulative`` the running move
    totals. Byo-yomi controls keep their main time in ``periods[0]`` and the
    byo-yomi in ``byo_ms`` and ``byo_count``."""

    def __init__(self, text, kind, periods, byo_ms=0, byo_count=0):
        self.text = text
        self.kind = kind
        self.periods = periods
        self.byo_ms = byo_ms
        self.byo_count = byo_count
        total = 0
        cumulative = []
        for period in periods:
            total += period[0]
            cumulative.append(total)
        self.cumulative = tuple(cumulative)

    def start_ms(self):
        """Remaining time of a side before its first move (Fischer before move 1)."""
        moves, time_ms, mode, bonus_ms = self.periods[0]
        if mode == FISCHER:
            return time_ms + bonus_ms
        return time_ms

    def period_of_move(self, k):
        """Index of the period that move ``k`` (1-based) belongs to."""
        last = len(self.periods) - 1
        index = 0
        while index < last and self.cumulative[index] < k:
            index += 1
        return index

    def has_bonus(self):
        """True when any period has an increment or a delay."""
        for period in self.periods:
            if period[2] != NONE:
                return True
        return False

    def last_has_bonus(self):
        """True when the last period has an increment or a delay."""
        return self.periods[-1][2] != NONE

    def __repr__(self):
        return "TimeControl(%r)" % self.text


def _number(text, what, where, most=999_999):
    if not text:
        raise ValueError("%s: missing %s" % (where, what))
    for char in text:
        if char < "0" or char > "9":
            raise ValueError("%s: %s %r is not a whole number" % (where, what, text))
    if len(text) > 6 or int(text) > most:
        raise ValueError("%s: %s %s is more than %d" % (where, what, text, most))
    return int(text)


def _seconds(text, what, where):
    value = _number(text, what, where)
    if value > _MAX_SECONDS:
        raise ValueError("%s: %s %s s is more than 9:59:59" % (where, what, text))
    return value * 1000


def _bonus(text, what, where):
    value = _number(text, what, where) * 1000
    if value > MAX_BONUS_MS:
        raise ValueError("%s: %s of %s s is over 60 s" % (where, what, text))
    return value


def _simple_period(body, where):
    """Parse ``S``, ``S+I``, ``SdD`` or ``SbD`` into ``(time_ms, mode, bonus_ms)``."""
    for mark, mode, what in (
        ("+", FISCHER, "increment"),
        ("d", DELAY, "delay"),
        ("b", BRONSTEIN, "Bronstein delay"),
    ):
        if mark in body:
            head, tail = body.split(mark, 1)
            return _seconds(head, "time", where), mode, _bonus(tail, what, where)
    return _seconds(body, "time", where), NONE, 0


def _byo_yomi(text):
    if "j" in text:
        main, rest = text.split("j", 1)
        if "x" not in rest:
            raise ValueError("byo-yomi %r: expected SjPxN (N periods of P seconds)" % text)
        period, count = rest.split("x", 1)
        main_ms = _seconds(main, "main time", "byo-yomi")
        period_ms = _seconds(period, "period", "byo-yomi")
        periods = _number(count, "period count", "byo-yomi", _MAX_MOVES)
        if period_ms == 0 or periods == 0:
            raise ValueError("byo-yomi %r: needs at least one period of at least 1 s" % text)
        return TimeControl(text, JAPANESE, ((0, main_ms, NONE, 0),), period_ms, periods)
    main, rest = text.split("c", 1)
    if "/" not in rest:
        raise ValueError("Canadian byo-yomi %r: expected ScM/P (M moves in P seconds)" % text)
    moves, block = rest.split("/", 1)
    main_ms = _seconds(main, "main time", "Canadian byo-yomi")
    count = _number(moves, "move count", "Canadian byo-yomi", _MAX_MOVES)
    block_ms = _seconds(block, "block time", "Canadian byo-yomi")
    if count == 0 or block_ms == 0:
        raise ValueError("Canadian byo-yomi %r: needs at least 1 move in at least 1 s" % text)
    return TimeControl(text, CANADIAN, ((0, main_ms, NONE, 0),), block_ms, count)


def parse(text):
    """Parse a time control, or raise ValueError naming what is wrong."""
    if not isinstance(text, str):
        raise ValueError("time control must be text")
    text = text.strip()
    if not text:
        raise ValueError("empty time control")
    for char in text:
        if char not in _ALLOWED:
            raise ValueError("time control %r: unexpected character %r" % (text, char))
    parts = text.split(":")
    special = "*" in text or "j" in text or "c" in text
    if special:
        if len(parts) > 1:
            raise ValueError(
                "%r: hourglass and byo-yomi cannot be mixed into several periods" % text
            )
        if "*" in text:
            if text[0] != "*":
                raise ValueError("hourglass %r: expected *S" % text)
            time_ms = _seconds(text[1:], "time", "hourglass")
            if time_ms == 0:
                raise ValueError("hourglass %r: no time at the start" % text)
            return TimeControl(text, HOURGLASS, ((0, time_ms, NONE, 0),))
        control = _byo_yomi(text)
        if control.periods[0][1] > MAX_START_MS:
            raise ValueError("%r: more than 9:59:59 on a side at the start" % text)
        return control
    if len(parts) > _MAX_PERIODS:
        raise ValueError("%r: more than %d periods" % (text, _MAX_PERIODS))
    periods = []
    last = len(parts) - 1
    for index, part in enumerate(parts):
        where = "period %d" % (index + 1)
        if not part:
            raise ValueError("%s of %r is empty" % (where, text))
        if "/" in part:
            count_text, body = part.split("/", 1)
            moves = _number(count_text, "move count", where, _MAX_MOVES)
            if moves == 0:
                raise ValueError("%s: a move count of 0" % where)
            if index == last:
                raise ValueError(
                    "%s: the last period has a move count; "
                    "add the period that follows it (e.g. %s:1800)" % (where, part)
                )
        else:
            moves = 0
            body = part
            if index < last:
                raise ValueError("period %d follows a period without a move count" % (index + 2))
        time_ms, mode, bonus_ms = _simple_period(body, where)
        periods.append((moves, time_ms, mode, bonus_ms))
    control = TimeControl(text, STAGES, tuple(periods))
    start = control.start_ms()
    first_mode = periods[0][2]
    if periods[0][1] == 0 and first_mode != FISCHER:
        raise ValueError("%r: no time at the start" % text)
    if start == 0:
        raise ValueError("%r: no time at the start" % text)
    if start > MAX_START_MS:
        raise ValueError("%r: more than 9:59:59 on a side at the start" % text)
    return control


def check_pair(left, right):
    """Raise ValueError unless ``left`` and ``right`` can be one game's controls.

    An hourglass moves the time one side uses to the other, so it needs the
    hourglass on both sides (TIMING.md: the hourglass is one sand-glass).
    """
    if (left.kind == HOURGLASS) != (right.kind == HOURGLASS):
        raise ValueError(
            "%r against %r: an hourglass needs an hourglass on both sides" % (left.text, right.text)
        )


def describe_ms(ms):
    """Format milliseconds as ``H:MM:SS.mmm`` (the state line's form)."""
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return "%d:%02d:%02d.%03d" % (hours, minutes, seconds, millis)
