"""The periodic tick: a ``machine.Timer`` whose handler only counts.

The main loop wakes on the count, lets flags fall and redraws the displays.
"""


class Ticker:
    """A periodic timer that raises ``due`` every ``period_ms``."""

    def __init__(self, timer, period_ms):
        self.timer = timer
        self.period_ms = period_ms
        self.due = 0
        self.handler = self.on_tick  # bound once: the handler allocates nothing

    def start(self, timer_class):
        self.timer.init(mode=timer_class.PERIODIC, period=self.period_ms, callback=self.handler)

    def on_tick(self, timer):
        """Timer interrupt handler."""
        self.due += 1

    def take(self):
        """True (and clear) if a tick came since the last call."""
        if self.due:
            self.due = 0
            return True
        return False

    def stop(self):
        self.timer.deinit()
