"""Display frames: what one 4-digit 7-segment display shows, as segment bytes.

A frame is a ``bytearray(5)``: the segment byte of digits 1–4 (bit 7 is the
decimal point after the digit) and the colon byte. Times follow the DGT
convention of docs/spec/timing.md, rounded up: ``H:MM`` from one hour, ``M.SS`` below.
The marks use the decimal points the format leaves free (docs/display.md):
digit 4's point blinks on the running side, digit 3's point is lit during a
simple delay, ``F`` in digit 1 is a fallen flag at zero, digit 1's point
marks the first flag, and digit 4's point lit steady on a side that is not
running marks a time control passed (``passed_control``). With the tenths
setting on, a time under 20 s reads in seconds and tenths without any
format mark (``render_tenths``). ``times_ms`` tells how long the times
drawn hold but for the running mark, ``mark_ms`` how long the mark does, so
the main loop draws the times only when they change and the mark alone when
only it turns (``turn_mark``). Nothing here
allocates.
"""

from micropython import const

from firmware import engine

FRAME_SIZE = const(5)
COLON = const(0x02)
DOT = const(0x80)
SEG_F = const(0x71)
BLANK = const(0x00)
_BLINK_MS = const(1000)
_BLINK_ON_MS = const(500)
TENTHS_BELOW = const(200)  # tenths of a second: 20 s
_NO_DOT = const(0x7F)
_HOUR_MS = const(3_600_000)
_MINUTE_MS = const(60_000)
_HOLD_MS = const(60_000)  # the longest the times are said to hold (early is safe)

# Segments a..g of the digits 0-9.
DIGITS = b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f"


def render_time(frame, ms):
    """Write the remaining time ``ms`` into ``frame``, rounded up to the unit shown."""
    seconds = (ms + 999) // 1000
    if seconds >= 3600:
        minutes = (ms + 59_999) // 60_000
        high = minutes // 60
        low = minutes % 60
        colon = COLON
        dot = 0
    else:
        high = seconds // 60
        low = seconds % 60
        colon = 0
        dot = DOT
    if high > 99:
        high = 99
        low = 59
    frame[0] = DIGITS[high // 10] if high >= 10 else BLANK
    frame[1] = DIGITS[high % 10] | dot
    frame[2] = DIGITS[low // 10]
    frame[3] = DIGITS[low % 10]
    frame[4] = colon


def render_tenths(frame, ms):
    """Below 20 s with the tenths setting on: seconds in digits 2-3, tenths in
    digit 4, rounded up, with neither the colon nor the point after digit 2,
    so the reading cannot be taken for ``M.SS``: 19.7 s reads `` 197``,
    9.05 s reads ``  91``. True if it was drawn (the time is under 20 s)."""
    tenths = (ms + 99) // 100
    if ms <= 0 or tenths >= TENTHS_BELOW:
        return False
    seconds = tenths // 10
    frame[0] = BLANK
    frame[1] = DIGITS[seconds // 10] if seconds >= 10 else BLANK
    frame[2] = DIGITS[seconds % 10]
    frame[3] = DIGITS[tenths % 10]
    frame[4] = 0
    return True


def render_side(frame, clock, index, now, tenths=False):
    """Write side ``index`` of ``clock`` at ``now`` into ``frame``, marks included;
    with ``tenths``, times under 20 s in seconds and tenths (``render_tenths``)."""
    shown = clock.shown_ms(index, now)
    if not (tenths and render_tenths(frame, shown)):
        render_time(frame, shown)
    side = clock.sides[index]
    if side.flagged and shown == 0:
        frame[0] = SEG_F
    if clock.first_flag == index:
        frame[0] |= DOT
    if clock.state == engine.RUNNING and clock.mover == index:
        if clock.in_delay(now):
            frame[2] |= DOT
        if clock.elapsed(now) % _BLINK_MS >= _BLINK_ON_MS:
            frame[3] |= DOT
    elif passed_control(clock, index) and not (side.flagged and shown == 0):
        frame[3] |= DOT  # a side showing F: the flag says more


def steady_ms(clock, now, tenths=False):
    """How long from ``now`` both sides' frames stay as ``render_side`` draws them
    if nothing but time passes: -1 for as long as the clock does not run. The
    sooner of ``times_ms`` and ``mark_ms``."""
    wait = times_ms(clock, now, tenths)
    if wait < 0:
        return wait
    mark = mark_ms(clock, now)
    return mark if mark < wait else wait


def times_ms(clock, now, tenths=False):
    """How long from ``now`` both sides' frames stay as ``render_side`` draws them,
    the running mark aside (``mark_ms``), if nothing but time passes: -1 for as
    long as the clock does not run.

    Early is safe, late is not: the running side's time falls at most 1 ms per
    ms and jumps only where it would reach zero, so its digits hold until it
    reaches the next lower multiple of the unit shown (a minute in ``H:MM``
    above one hour, 1 s below; 0.1 s under 20 s with ``tenths``): every format
    change lies on such a multiple (``H:MM`` turns to ``M.SS`` at 59:59.000, a
    multiple of the second), as does the flag. An hourglass's other side gains
    1 ms per ms, so its digits turn 1 ms past each multiple of its unit (``H:MM``
    from 59:59.001). The delay mark goes out at the delay's end."""
    if clock.state != engine.RUNNING:
        return -1
    mover = clock.mover
    wait = _running_hold_ms(clock.shown_ms(mover, now), tenths)
    if clock.sides[1 - mover].SHARES_TIME:
        mover = _gaining_hold_ms(clock.shown_ms(1 - mover, now), tenths)
        if mover < wait:
            wait = mover
    mover = clock.delay_left(now)  # (names reused: each function's frame stays small)
    if 0 < mover < wait:
        wait = mover
    return wait


def _running_hold_ms(shown, tenths):
    """How long a running side's ``shown`` ms keep their digits (at most ``_HOLD_MS``)."""
    if shown <= 0:
        return _HOLD_MS
    if shown > _HOUR_MS:
        unit = _MINUTE_MS
    else:
        unit = 100 if tenths and shown <= 20_000 else 1000
    return min(_HOLD_MS, (shown - 1) % unit + 1)


def _gaining_hold_ms(gained, tenths):
    """How long an hourglass's other side, ``gained`` ms shown rounded up, keeps its
    digits: it turns 1 ms past a multiple of its unit."""
    if gained > _HOUR_MS - 1000:
        unit = _MINUTE_MS
    else:
        unit = 100 if tenths and gained < 20_000 else 1000
    return (unit - gained % unit) % unit + 1


def mark_ms(clock, now):
    """How long from ``now`` the running mark (digit 4's point, blinking) stays as
    ``render_side`` draws it: it turns every 500 ms of the turn. -1 for as long
    as the clock does not run."""
    if clock.state != engine.RUNNING:
        return -1
    return _BLINK_ON_MS - clock.elapsed(now) % _BLINK_ON_MS


def turn_mark(frame, clock, now):
    """Put the running mark in ``frame``, the running side's frame as drawn last
    (its digits holding: ``times_ms``), as ``render_side`` would draw it at ``now``;
    the ms it then holds (``mark_ms``)."""
    elapsed = clock.elapsed(now)
    if elapsed % _BLINK_MS >= _BLINK_ON_MS:
        frame[3] |= DOT
    else:
        frame[3] &= _NO_DOT
    return _BLINK_ON_MS - elapsed % _BLINK_ON_MS


def passed_control(clock, index):
    """True if side ``index`` shows the control-passed mark: it has completed a
    period with a move count, and either the other side has not completed as
    many (it passed first) or its last move was the period's last (it has just
    passed). Only read while the side's clock does not run."""
    return clock.sides[index].passed_control(clock.sides[1 - index])


# Characters a 7-segment digit can show, and their segments, for text screens.
TEXT_CHARS = " 0123456789AbCdEFGHIJLnoPqrStUvy-cYz"
TEXT_SEGMENTS = (
    b"\x00\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f\x77\x7c\x39\x5e\x79\x71\x3d"
    b"\x76\x30\x1e\x38\x54\x5c\x73\x67\x50\x6d\x78\x3e\x1c\x6e\x40\x58\x6e\x5b"
)


def render_text(frame, text):
    """Write up to 4 characters of ``text`` into ``frame`` (menu screens, drawn on change)."""
    index = 0
    while index < 4:
        char = text[index] if index < len(text) else " "
        position = TEXT_CHARS.find(char)
        frame[index] = TEXT_SEGMENTS[position] if position >= 0 else BLANK
        index += 1
    frame[4] = 0


def render_fraction(frame, ms):
    """The last second of ``ms`` and its milliseconds, ``S.mmm`` (an arbiter's
    correction in tenths, hundredths or milliseconds): 1234 reads ``1.234``."""
    frame[0] = DIGITS[ms // 1000 % 10] | DOT
    frame[1] = DIGITS[ms // 100 % 10]
    frame[2] = DIGITS[ms // 10 % 10]
    frame[3] = DIGITS[ms % 10]
    frame[4] = 0


def render_number(frame, number):
    """A whole number 0–9999, right-aligned."""
    digit = 3
    value = number if number < 10_000 else 9999
    while digit >= 0:
        frame[digit] = DIGITS[value % 10] if (value or digit == 3) else BLANK
        value //= 10
        digit -= 1
    frame[4] = 0
