"""Virtual time: the tick counters the firmware reads, advanced by the simulator.

``install()`` puts these counters behind the one tick function the firmware
reads, ``hal.tick_source.ticks_ms``, on both interpreters. Virtual time is
integer milliseconds since the simulation began; the tick counters may
start just before their wrap.
"""

from firmware.tickmath import TICKS_PERIOD, ticks_diff

_MASK = TICKS_PERIOD - 1
NEAR_WRAP_MS = 10_000


class _Clock:
    def __init__(self):
        self.now_ms = 0
        self.offset = 0
        self.offset_us = 0


CLOCK = _Clock()


def reset(near_wrap=False, wrap_at_ms=0):
    """Start virtual time at 0; with ``near_wrap``, the counters 10 s before they wrap at
    virtual ms ``wrap_at_ms`` (a script's 0 on a board that boots before it)."""
    CLOCK.now_ms = 0
    CLOCK.offset = (TICKS_PERIOD - NEAR_WRAP_MS - wrap_at_ms) % TICKS_PERIOD if near_wrap else 0
    CLOCK.offset_us = (
        (TICKS_PERIOD - (NEAR_WRAP_MS + wrap_at_ms) * 1000) % TICKS_PERIOD if near_wrap else 0
    )


def restart_ticks(near_wrap=False):
    """A board boots again: its tick counters start over (10 s before the wrap with
    ``near_wrap``) while virtual time goes on."""
    start = TICKS_PERIOD - NEAR_WRAP_MS if near_wrap else 0
    CLOCK.offset = (start - CLOCK.now_ms) % TICKS_PERIOD
    start_us = TICKS_PERIOD - NEAR_WRAP_MS * 1000 if near_wrap else 0
    CLOCK.offset_us = (start_us - CLOCK.now_ms * 1000) % TICKS_PERIOD


def now_ms():
    """Virtual milliseconds since the simulation began."""
    return CLOCK.now_ms


def set_now(ms):
    if ms < CLOCK.now_ms:
        raise ValueError("virtual time cannot go backwards")
    CLOCK.now_ms = ms


def ticks_ms():
    return (CLOCK.offset + CLOCK.now_ms) & _MASK


def ticks_us():
    return (CLOCK.offset_us + CLOCK.now_ms * 1000) & _MASK


def ticks_cpu():
    return ticks_us()


def ticks_less(first, second):
    return ticks_diff(second, first) > 0


def install():
    """Put virtual time behind the firmware's tick counter (``hal.tick_source``)."""
    from hal import tick_source
    from sim import vclock

    tick_source.source = vclock
