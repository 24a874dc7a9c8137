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
MAX_SECONDS = const(35_999)
MAX_MOVES = const(999)
MAX_PERIODS = const(9)


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
        """Remaining time of a side before its first move (Fischer before move 1:
        ``firmware.timing.start_ms``)."""
        from firmware.timing import start_ms

        return start_ms(self)

    def period_of_move(self, k):
        """Index of the period that move ``k`` (1-based) belongs to."""
        last = len(self.periods) - 1
        index = 0
        while index < last and self.cumulative[index] < k:
            index += 1
        return index

    def __repr__(self):
        return "TimeControl(%r)" % self.text


def parse(text):
    """Parse a time control, or raise ValueError naming what is wrong.

    The parser is ``firmware.control_parser``, imported when a control is first read
    (at boot, or in the menus) and loaded from then on, as every module but the
    journal's setup (docs/architecture.md, "What the heap pays for").
    """
    from firmware import control_parser

    return control_parser.parse(text)


def check_pair(left, right):
    """Raise ValueError unless ``left`` and ``right`` can be one game's controls.

    An hourglass moves the time one side uses to the other, so it needs the
    hourglass on both sides (docs/spec/timing.md: the hourglass is one sand-glass).
    """
    from firmware.timing import method_of

    if method_of(left).SHARES_TIME != method_of(right).SHARES_TIME:
        raise ValueError(
            "%r against %r: an hourglass needs an hourglass on both sides" % (left.text, right.text)
        )


def describe_ms(ms):
    """Format milliseconds as ``H:MM:SS.mmm`` (the state line's form)."""
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return "%d:%02d:%02d.%03d" % (hours, minutes, seconds, millis)
