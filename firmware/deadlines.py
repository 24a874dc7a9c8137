"""When the app steps next: the earliest of its parts' deadlines.

Each part of the clock says when it next needs a step: a tick, ``None`` for
never, or a tick at or before ``now`` for the board's next tick (the part is
busy: a key held, a screen up, the buzzer sounding). ``App`` asks its parts
(``App._full_deadline`` and ``App._light_deadline``) and hands the answers here;
``Deadlines`` keeps the two times the board rests by and tells the board's
ticker (``hal.ticker``) the first, so that the main loop sleeps until it
(``hal.runtime``):

- ``step_at``: the first tick of any step, the earliest deadline of all, and at
  most ``REST_MAX_MS`` on (the watchdog is fed by steps: ``hal.watchdog``);
- ``full_at``: the first tick of a full step. A step before it (``light``) only
  turns the running mark and takes the battery's reading, the parts whose
  deadlines come often and change nothing else.

With resting off (``allow(False)``: the simulator's every-tick lane, the bench)
every tick is a full step. No method allocates: a step runs them all.
"""

from micropython import const

from firmware.tickmath import ticks_add

REST_MAX_MS = const(1000)  # the longest rest: a step at least once a second (hal.watchdog)
_TICKS_MAX = const((1 << 30) - 1)  # firmware.tickmath's
_TICKS_HALF = const(1 << 29)


def earlier(tick, other):
    """The earlier of two deadlines, each a tick or None (never)."""
    if other is None:
        return tick
    # ticks_diff(other, tick) < 0, without its call: a step runs this for every part
    if tick is None or (other - tick) & _TICKS_MAX >= _TICKS_HALF:
        return other
    return tick


def reached(now, tick):
    """True if deadline ``tick`` (not None) is at or before ``now``."""
    return (now - tick) & _TICKS_MAX < _TICKS_HALF


class Deadlines:
    """The board's next step and next full step; ``ticker`` wakes the board at a tick
    (``wake_at``)."""

    def __init__(self, ticker):
        self.ticker = ticker
        self.step_at = None  # None: a step at the next tick
        self.full_at = None  # None: the next step is a full one
        self.allowed = True

    def allow(self, allowed):
        """Whether the app may rest over the ticks that change nothing."""
        self.allowed = allowed
        self.at_once()

    def at_once(self):
        """A full step at the next tick: settings put in force, a message from outside
        a step, anything that changes what the parts would answer."""
        self.step_at = None
        self.full_at = None
        self.ticker.wake_at(None)

    def resting_until(self):
        """The tick the board rests until, or None: a step at its next tick."""
        return self.step_at if self.allowed else None

    def light(self, now):
        """True if a step at ``now`` may be a light one (before ``full_at``)."""
        full = self.full_at
        return full is not None and not reached(now, full)

    def plan(self, now, full, light):
        """After a step at ``now``: the next full step is due at ``full`` (the parts'
        earliest deadline but the light ones), the next light one at ``light``."""
        if not self.allowed:
            self.ticker.wake_at(None)  # every tick a step
            return
        if full is not None and reached(now, full):
            self.at_once()  # a part is busy: the next tick
            return
        self.full_at = full
        wake = earlier(earlier(ticks_add(now, REST_MAX_MS), full), light)
        self.step_at = wake
        self.ticker.wake_at(wake)

    def rest_light(self, now, light):
        """After a light step at ``now``: the full step stays where it was due, the
        next light one is due at ``light``."""
        self.plan(now, self.full_at, light)
