"""The buzzer: a passive piezo on a PWM pin, playing tone patterns without blocking.

A pattern is a flat tuple of (frequency in Hz, duration in ms) pairs; a
frequency of 0 is a rest. ``play(pattern, now)`` starts one; ``step(now)``,
called on every tick of the main loop, moves on when a pair's time is up.
Each pair starts where the previous one ended, so a pattern keeps its
rhythm whatever the tick. Nothing here allocates after construction.
"""

from micropython import const

from firmware.tickmath import ticks_add, ticks_diff

_DUTY_ON = const(32768)  # a square wave: the loudest a piezo gets from one pin
_IDLE_FREQ = const(2000)  # set at construction, with the output silent


class Buzzer:
    """A piezo on ``pin``, through ``pwm_class`` (``machine.PWM``)."""

    def __init__(self, pin, pwm_class):
        self.pwm = pwm_class(pin, freq=_IDLE_FREQ, duty_u16=0)
        self.pattern = None
        self.index = 0
        self.step_end = 0
        self.started = 0  # how many patterns were started (for tests and the self-test)

    def busy(self):
        """True while a pattern is playing."""
        return self.pattern is not None

    def play(self, pattern, now):
        """Start ``pattern`` at tick ``now``, replacing any pattern still playing."""
        self.pattern = pattern
        self.index = 0
        self.started += 1
        self._sound(pattern[0])
        self.step_end = ticks_add(now, pattern[1])

    def step(self, now):
        """Move the pattern on to tick ``now``; silence at its end."""
        pattern = self.pattern
        if pattern is None:
            return
        while ticks_diff(now, self.step_end) >= 0:
            index = self.index + 2
            if index >= len(pattern):
                self.stop()
                return
            self.index = index
            self._sound(pattern[index])
            self.step_end = ticks_add(self.step_end, pattern[index + 1])

    def stop(self):
        """Silence now and forget the pattern."""
        self.pwm.duty_u16(0)
        self.pattern = None

    def _sound(self, frequency):
        pwm = self.pwm
        if frequency:
            pwm.freq(frequency)
            pwm.duty_u16(_DUTY_ON)
        else:
            pwm.duty_u16(0)

    def deinit(self):
        self.stop()
        self.pwm.deinit()
