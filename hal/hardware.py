"""The board's hardware as the app drives it: built at boot by ``hal.board_io.build``.

``inputs`` (the lever and key edges), ``keys``, ``bus``, ``displays``,
``ticker``, ``storage``, ``buzzer``, ``battery``, ``leds``, ``board``;
``watchdog`` is fed by the main loop.
"""

import machine


class Hardware:
    """What the app drives: ``inputs``, ``keys``, ``displays``, ``ticker``, ``storage``,
    ``buzzer``, ``battery``, ``leds``; ``watchdog`` is fed by the main loop."""

    def start(self):
        """Enable the interrupts (the lever and key edges, then the tick) and the watchdog."""
        self.inputs.enable(machine.Pin)
        self.ticker.start(machine.Timer)
        self.watchdog.start()

    def stop(self):
        """Interrupts off, buzzer and LEDs off (the watchdog, once started, cannot stop)."""
        self.ticker.stop()
        self.inputs.disable()
        self.buzzer.stop()
        self.leds.show(-1)
