"""The periodic tick: a ``machine.Timer`` whose handler only counts.

The main loop takes a tick (``take``) to run a step of the app: lets flags fall
and redraws the displays. The app says after each step until when it rests
(``rest_until``: nothing can change before that tick); the ticks before it are
passed over right here, each for one read of the tick counter, so a clock at
rest costs its main loop that read and nothing more (``hal.runtime``).
"""

from micropython import const

from hal import tick_source

_TICKS_MAX = const((1 << 30) - 1)  # firmware.tickmath's period, less one
_TICKS_HALF = const(1 << 29)


class Ticker:
    """A periodic timer that raises ``due`` every ``period_ms``."""

    def __init__(self, timer, period_ms):
        self.timer = timer
        self.period_ms = period_ms
        self.due = 0
        self.wake_at = None  # the app rests until this tick (None: a step at every tick)
        self.handler = self.on_tick  # bound once: the handler allocates nothing

    def start(self, timer_class):
        self.timer.init(mode=timer_class.PERIODIC, period=self.period_ms, callback=self.handler)

    def on_tick(self, timer):
        """Timer interrupt handler."""
        self.due += 1

    def rest_until(self, tick):
        """The app rests until ``tick`` (None: it does not rest): the ticks before it
        are passed over (``take``)."""
        self.wake_at = tick

    def resting_until(self):
        """The tick the app rests until, or None."""
        return self.wake_at

    def take(self):
        """True (and clear) if a tick came since the last call and the app does not
        rest at it: the ticks before ``wake_at`` are taken and passed over."""
        if not self.due:
            return False
        self.due = 0
        wake = self.wake_at
        if wake is None:
            return True
        # ticks_diff(now, wake) < 0, without its call: this runs at every tick at rest
        if (tick_source.source.ticks_ms() - wake) & _TICKS_MAX >= _TICKS_HALF:
            return False
        self.wake_at = None
        return True

    def stop(self):
        self.timer.deinit()
