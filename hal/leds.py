"""The running-side indicators: one LED per side (10 mm, beside its lever, switched
by a transistor), lit steady while that side's clock runs, so the hall sees from
10 m which clock is running (FIDE C.02 (d); docs/boards.md).

Either LED may be absent (a board without them passes None). ``show(side)``
runs on every tick and touches the pins only when the running side changes,
so it allocates nothing.
"""

from micropython import const

_NOBODY = const(-1)
_UNKNOWN = const(-2)


class StatusLeds:
    """The LEDs on ``pins`` (left, right; None where there is none)."""

    def __init__(self, pins, active_high=True):
        self.pins = pins
        self.on_level = 1 if active_high else 0
        self.lit = _UNKNOWN
        self.show(_NOBODY)

    def show(self, running):
        """Light the LED of side ``running`` (0 left, 1 right), none for -1."""
        if running == self.lit:
            return
        self.lit = running
        index = 0
        while index < 2:
            pin = self.pins[index]
            if pin is not None:
                pin.value(self.on_level if index == running else 1 - self.on_level)
            index += 1
