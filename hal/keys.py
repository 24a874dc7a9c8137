"""Short, long and repeated presses of the menu keys, through ``adafruit_debouncer``.

The keys' contacts go through the same edge interrupts as the levers
(``hal.inputs``): a key counts as down from its first closing edge until
its contact has been open and quiet again. A ``Button`` per key turns that
state into short presses (counted, reported 0.2 s after the release) and
long presses (reported while still held). ``update()`` runs on every pass
of the main loop and allocates nothing.
"""

from adafruit_debouncer import Button
from micropython import const

_SHORT_MS = const(200)


def _released():
    return False


class KeyButtons:
    """Buttons for the inputs ``first``..``last`` of an ``EdgeInputs``."""

    def __init__(self, inputs, first, last, long_ms):
        self.inputs = inputs
        self.first = first
        self.last = last
        self.buttons = []
        for _ in range(first, last + 1):
            self.buttons.append(
                Button(
                    _released,
                    short_duration_ms=_SHORT_MS,
                    long_duration_ms=long_ms,
                    value_when_pressed=True,
                    interval=0,
                )
            )
        self.short = bytearray(last + 1)  # short presses completed at the last update
        self.long = bytearray(last + 1)  # 1 if a long press began at the last update
        self.idle = bytearray(b"\x01" * (last + 1))  # released and nothing left to report

    def update(self):
        """Read every key's state once; fill ``short`` and ``long``."""
        inputs = self.inputs
        index = self.first
        while index <= self.last:
            released = inputs.armed[index]
            if released and self.idle[index]:
                self.short[index] = 0  # an untouched key costs nothing on the tick
                self.long[index] = 0
                index += 1
                continue
            button = self.buttons[index - self.first]
            button.update(0 if released else 1)
            self.short[index] = button.short_count
            self.long[index] = 1 if button.long_press else 0
            self.idle[index] = (
                1 if released and not button.value and button.short_counter == 0 else 0
            )
            index += 1
