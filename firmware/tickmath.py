"""Wraparound-safe arithmetic on millisecond tick values.

The firmware never reads a clock: the hardware layer passes tick values in.
These are the same period and semantics as MicroPython's ``time.ticks_*``
(30-bit counters), done in integer arithmetic so the firmware runs unchanged
on CPython.
"""

from micropython import const

TICKS_PERIOD = const(1 << 30)
_TICKS_MAX = const((1 << 30) - 1)
_TICKS_HALF = const(1 << 29)


def ticks_add(ticks, delta):
    """Return ``ticks`` moved by ``delta`` milliseconds, wrapped to the period."""
    return (ticks + delta) & _TICKS_MAX


def ticks_diff(later, earlier):
    """Return the signed distance ``later - earlier`` in milliseconds, across a wrap."""
    return ((later - earlier + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF
