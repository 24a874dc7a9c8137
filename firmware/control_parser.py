"""Reading a time control's text: the parser behind ``timecontrol.parse``.

A module of its own, loaded when a control is first read (at boot and in the
setup menus).
"""

from firmware.timecontrol import (
    BRONSTEIN,
    CANADIAN,
    DELAY,
    FISCHER,
    HOURGLASS,
    JAPANESE,
    MAX_BONUS_MS,
    MAX_MOVES,
    MAX_PERIODS,
    MAX_SECONDS,
    MAX_START_MS,
    NONE,
    STAGES,
    TimeControl,
)

_ALLOWED = "0123456789+dbjcx/:*"


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
    if value > MAX_SECONDS:
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
        periods = _number(count, "period count", "byo-yomi", MAX_MOVES)
        if period_ms == 0 or periods == 0:
            raise ValueError("byo-yomi %r: needs at least one period of at least 1 s" % text)
        return TimeControl(text, JAPANESE, ((0, main_ms, NONE, 0),), period_ms, periods)
    main, rest = text.split("c", 1)
    if "/" not in rest:
        raise ValueError("Canadian byo-yomi %r: expected ScM/P (M moves in P seconds)" % text)
    moves, block = rest.split("/", 1)
    main_ms = _seconds(main, "main time", "Canadian byo-yomi")
    count = _number(moves, "move count", "Canadian byo-yomi", MAX_MOVES)
    block_ms = _seconds(block, "block time", "Canadian byo-yomi")
    if count == 0 or block_ms == 0:
        raise ValueError("Canadian byo-yomi %r: needs at least 1 move in at least 1 s" % text)
    return TimeControl(text, CANADIAN, ((0, main_ms, NONE, 0),), block_ms, count)


def parse(text):
    """Parse a time control, or raise ValueError naming what is wrong."""
    if not isinstance(text, str):
        raise ValueError("time control must be text")
    text = text.strip(" \t\r\n")  # ASCII white space only: the same on every lane
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
    if len(parts) > MAX_PERIODS:
        raise ValueError("%r: more than %d periods" % (text, MAX_PERIODS))
    periods = []
    last = len(parts) - 1
    for index, part in enumerate(parts):
        where = "period %d" % (index + 1)
        if not part:
            raise ValueError("%s of %r is empty" % (where, text))
        if "/" in part:
            count_text, body = part.split("/", 1)
            moves = _number(count_text, "move count", where, MAX_MOVES)
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
    start = control.start_ms()  # a first period of 0 s starts with its increment, if any
    if start == 0:
        raise ValueError("%r: no time at the start" % text)
    if start > MAX_START_MS:
        raise ValueError("%r: more than 9:59:59 on a side at the start" % text)
    return control
