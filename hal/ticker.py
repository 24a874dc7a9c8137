"""The board's tick grid and the tick of the app's next step.

The app steps on a grid of ticks ``period_ms`` apart (20 ms), as a periodic
timer would give them, but no timer runs: after each step the app says until
when it rests (``wake_at``: the earliest of its parts' deadlines,
``firmware.deadlines``), and the ticker keeps the first tick of the grid at or
after it. The main loop sleeps until that tick or an input (``ms_left``,
``hal.sleep``) and steps when it has come (``take``). Keeping the grid makes a
resting board step at the very instants the every-tick reference does (the
simulator's every-tick lane), so resting changes nothing the clock shows.

Nothing here allocates: every value is a small int.
"""

from firmware.tickmath import ticks_add, ticks_diff
from hal import tick_source
from hal.tick_source import ticks_ms


class Ticker:
    """The grid of ticks every ``period_ms`` and the one the app next steps at."""

    def __init__(self, period_ms):
        self.period_ms = period_ms
        self.grid = 0  # a tick of the grid at or before the last call
        self.due_at = None  # the tick of the next step (None: stopped, or taken)

    def start(self):
        """The grid starts now; the first step is at its next tick."""
        self.grid = ticks_ms()
        self.wake_at(None)

    def wake_at(self, tick):
        """The app's next step is due at the first tick of the grid at or after
        ``tick`` and after now; None: at the next tick of the grid."""
        now = tick_source.source.ticks_ms()  # ``tick_source.ticks_ms``, without its call
        period = self.period_ms
        last = ticks_add(now, -(ticks_diff(now, self.grid) % period))  # the grid's, <= now
        self.grid = last  # kept recent: within a rest of now, far inside the ticks' range
        ahead = period if tick is None else ticks_diff(tick, last)
        if ahead <= 0:
            ahead = period  # a deadline come already: the next tick
        else:
            ahead = (ahead + period - 1) // period * period
        self.due_at = ticks_add(last, ahead)

    def next_step(self):
        """The tick of the app's next step, or None (stopped)."""
        return self.due_at

    def ms_left(self):
        """The milliseconds from now to the step's tick (0: it has come), or -1: none
        is due (the main loop sleeps until an input)."""
        due = self.due_at
        if due is None:
            return -1
        left = ticks_diff(due, tick_source.source.ticks_ms())
        return left if left > 0 else 0

    def take(self):
        """True (and taken) if the step's tick has come: the app steps, and says again
        when it rests (``wake_at``)."""
        due = self.due_at
        if due is None or ticks_diff(tick_source.source.ticks_ms(), due) < 0:
            return False
        self.due_at = None
        return True

    def stop(self):
        """No more steps (the hardware stops)."""
        self.due_at = None
