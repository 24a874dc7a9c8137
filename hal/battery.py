"""The battery monitor: the pack's voltage in integer millivolts, and whether it is low.

An ADC reads the pack through a divider (the board's ``BATTERY_DIVIDER``:
the ADC sees numerator/denominator of the pack). ``update(now)`` takes one
reading a second from the tick and keeps the mean of the last eight, so
the display and buzzer's own load steps do not make the mark flicker.
``low`` turns on below ``low_mv`` (the board's ``BATTERY_LOW_MV``, derived in
docs/boards.md so that at least 10 hours of play remain) and off again only
above ``low_mv + HYSTERESIS_MV``, which a fresh pack reaches. A reading
under ``ABSENT_MV`` means no pack is connected (the board runs from USB):
never low. Integer arithmetic only; nothing allocates after construction.

The app asks ``is_low()`` and ``next_reading()`` (the tick of the next
reading; None on a board without battery sense).
"""

from micropython import const

from firmware.tickmath import ticks_add, ticks_diff

SAMPLES = const(8)
PERIOD_MS = const(1000)
HYSTERESIS_MV = const(150)
ABSENT_MV = const(1000)
_U16_FULL = const(65535)
_TICKS_MAX = const((1 << 30) - 1)  # firmware.tickmath's period, less one
_TICKS_HALF = const(1 << 29)


class Battery:
    """The pack behind ``adc`` (a ``machine.ADC``), read on the tick."""

    def __init__(self, adc, divider, full_scale_mv, low_mv, now=0, radio_low_mv=None):
        numerator, denominator = divider
        if not 0 < numerator <= denominator:
            raise ValueError("battery divider %r is not (numerator, denominator)" % (divider,))
        self.adc = adc
        # The ESP32's read_uv() applies the chip's own calibration; read_u16 elsewhere.
        self.calibrated = hasattr(adc, "read_uv")
        self.numerator = numerator
        self.denominator = denominator
        self.full_scale_mv = full_scale_mv
        self.low_mv = low_mv
        self.radio_low_mv = radio_low_mv  # the mark with the radio on (a hall), if any
        self.readings = [0] * SAMPLES
        self.next_index = 0
        first = self.read_mv()
        for index in range(SAMPLES):
            self.readings[index] = first
        self.total_mv = first * SAMPLES
        self.millivolts = first
        self.low = False
        self.judge()
        self.due = ticks_add(now, PERIOD_MS)

    def read_mv(self):
        """One reading of the pack's voltage, in millivolts."""
        if self.calibrated:
            at_pin = self.adc.read_uv() // 1000
        else:
            at_pin = self.adc.read_u16() * self.full_scale_mv // _U16_FULL
        return at_pin * self.denominator // self.numerator

    def update(self, now):
        """Take a reading if one is due at tick ``now``."""
        # ticks_diff(now, self.due) < 0, without its call: this runs at every step
        if (now - self.due) & _TICKS_MAX >= _TICKS_HALF:
            return
        self.due = ticks_add(self.due, PERIOD_MS)
        if ticks_diff(now, self.due) >= 0:  # the loop stood still: start counting afresh
            self.due = ticks_add(now, PERIOD_MS)
        reading = self.read_mv()
        index = self.next_index
        self.total_mv += reading - self.readings[index]
        self.readings[index] = reading
        self.next_index = (index + 1) % SAMPLES
        self.millivolts = self.total_mv // SAMPLES
        self.judge()

    def is_low(self):
        """Whether the pack is low (with the hysteresis of ``judge``)."""
        return self.low

    def next_reading(self):
        """The tick of the next reading."""
        return self.due

    def use_radio(self):
        """The radio joins the load (the board joined a hall): the mark comes earlier,
        at ``radio_low_mv`` (the board's ``BATTERY_LOW_HALL_MV``)."""
        if self.radio_low_mv is not None:
            self.low_mv = self.radio_low_mv
            self.judge()

    def judge(self):
        millivolts = self.millivolts
        if millivolts < ABSENT_MV:
            self.low = False
        elif self.low:
            self.low = millivolts < self.low_mv + HYSTERESIS_MV
        else:
            self.low = millivolts < self.low_mv


class NoBattery:
    """A board without battery sense: never low."""

    millivolts = 0
    low = False

    due = None  # no reading is ever due

    def update(self, now):
        pass

    def is_low(self):
        return False

    def next_reading(self):
        return None  # never: no battery sense
