"""The board's hardware as the app drives it: built at boot by ``hal.board_io.build``.

``inputs`` (the lever and key edges), ``keys``, ``displays`` and their
``display_restore`` (hal.display_restore), ``ticker``, ``storage``, ``buzzer``,
``battery``, ``leds``; ``watchdog`` is fed by the main loop, which sleeps in
``sleep`` between passes; ``network``, whether the board has one (its ``NETWORK``).
"""

import machine

from hal.display_restore import DisplayRestore


class Hardware:
    """What the app drives: ``inputs``, ``keys``, ``displays``, ``display_restore``,
    ``ticker``, ``storage``, ``buzzer``, ``battery``, ``leds``; ``watchdog`` is fed by
    the main loop, which sleeps in ``sleep``; ``network`` is True on a board with a
    network."""

    def __init__(
        self,
        inputs,
        keys,
        displays,
        ticker,
        storage,
        buzzer,
        battery,
        leds,
        watchdog,
        network,
        sleep,
    ):
        self.inputs = inputs
        self.keys = keys
        self.displays = displays
        self.display_restore = DisplayRestore(displays)  # their schedule of restores
        self.ticker = ticker
        self.storage = storage
        self.buzzer = buzzer
        self.battery = battery
        self.leds = leds
        self.watchdog = watchdog
        self.network = network
        self.sleep = sleep

    def start(self):
        """Enable the lever and key edges' interrupts, start the tick grid and the
        watchdog."""
        self.inputs.enable(machine.Pin)
        self.ticker.start()
        self.watchdog.start()

    def stop(self):
        """Interrupts off, buzzer and LEDs off (the watchdog, once started, cannot stop)."""
        self.ticker.stop()
        self.inputs.disable()
        self.buzzer.stop()
        self.leds.show(-1)
