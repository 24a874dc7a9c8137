"""The watchdog: ``machine.WDT``, fed by every step of the app (``hal.runtime``).

The app steps at least once every ``firmware.deadlines.REST_MAX_MS`` (1 s) however
long it rests, so the watchdog guards the app's steps, not only a loop that
turns: if the main loop hangs, the tick stops, or the app stops stepping (a
rest that never ends), the watchdog resets the board; the boot path then
brings a game in progress back paused, as after a power cut. The timeout must
be valid on both chips (the RP2040's watchdog counts at most 8388 ms, the
ESP32's has no such limit) and leave a step late by a whole rest in time:
at least ``MIN_MS``, twice the longest rest.
"""

from micropython import const

TIMEOUT_MS = const(5000)
MIN_MS = const(2000)  # twice firmware.deadlines.REST_MAX_MS
RP2040_MAX_MS = const(8388)


class Watchdog:
    """Starts the chip's watchdog (``wdt_class``, i.e. ``machine.WDT``) with ``timeout_ms``."""

    def __init__(self, wdt_class, timeout_ms=TIMEOUT_MS):
        if not isinstance(timeout_ms, int) or not MIN_MS <= timeout_ms <= RP2040_MAX_MS:
            raise ValueError(
                "watchdog timeout %r ms: it must be %d..%d ms" % (timeout_ms, MIN_MS, RP2040_MAX_MS)
            )
        self.wdt_class = wdt_class
        self.timeout_ms = timeout_ms
        self.wdt = None

    def start(self):
        """Start the watchdog; from now on a missed feed resets the board. It cannot be stopped."""
        if self.wdt is None:
            self.wdt = self.wdt_class(timeout=self.timeout_ms)

    def feed(self):
        wdt = self.wdt
        if wdt is not None:
            wdt.feed()
