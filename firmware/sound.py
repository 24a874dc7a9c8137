"""What the buzzer says, and when: a flag falling, and the last ten seconds.

Pure logic with time passed in. ``update(clock, settings, now, buzzer)``
runs on every tick: a flag that has just fallen starts ``FIRST_FLAG`` (the
first flag of the game) or ``LATER_FLAG`` (any flag after it); with the
setting ``warn_last10`` a short ``WARNING`` beep marks each second the
running side's display counts down from ``0.10`` to ``0.01``; a move that
completes a period of the control plays the short ``PASSED`` tone (the
announcement of docs/display.md's control-passed mark). Nothing sounds
while the setting ``sound`` is off, and switching it off silences a pattern
already playing. Flags already down when the clock starts (a game restored
after a power cut) do not sound again. The buzzer is any object with
``play(pattern, now)``, ``busy()``, ``stop()`` and ``step(now)``
(``hal.buzzer.Buzzer``). Nothing here allocates.
"""

from micropython import const

# (frequency Hz, duration ms) pairs; 0 Hz is a rest.
FIRST_FLAG = (2000, 500, 0, 150, 2000, 500, 0, 150, 2000, 500)
LATER_FLAG = (2000, 500, 0, 150, 2000, 500)
WARNING = (3000, 60)
PASSED = (1500, 200)

_WARN_FROM_S = const(10)
_NOBODY = const(-1)
_RUNNING = const(1)  # engine.RUNNING
_PASSED = const(3)  # ``_fell``: a control passed, no flag fell


class Sound:
    """Watches the clock for flags and the last seconds, and plays the buzzer."""

    def __init__(self):
        self.flagged = bytearray(2)  # each side's flag as last seen
        self.periods = [0, 0]  # each side's periods completed, as last seen
        self.primed = False  # the first update only takes note of the flags
        self.warn_side = _NOBODY  # the running side whose seconds are being counted
        self.warn_seconds = 0  # its display's seconds, rounded up, at the last update
        self.warned = False  # that display has just reached one of its last ten seconds

    def update(self, clock, settings, now, buzzer):
        """Start whatever the clock calls for at ``now``, then step ``buzzer``.

        The settings are read as two attributes (no settings: sound on, no
        warning beeps), and the flags and periods are looked at closer only
        when one of them differs from the last update: a tick on which nothing
        changed only steps the buzzer."""
        enabled = settings is None or settings.sound
        fell = self._fell(clock)  # (1 or 2 a flag fell, 3 a control passed, 0 neither)
        if not enabled:
            if buzzer.busy():
                buzzer.stop()
        elif fell == _PASSED:
            if not buzzer.busy():
                buzzer.play(PASSED, now)
        elif fell:
            buzzer.play(FIRST_FLAG if fell == 1 else LATER_FLAG, now)
        if settings is not None and settings.warn_last10:
            self._count_down(clock, now)
            if enabled and self.warned and not buzzer.busy():
                buzzer.play(WARNING, now)
        else:
            self.warn_side = _NOBODY
        buzzer.step(now)

    def _fell(self, clock):
        """1 if the game's first flag fell since the last update, 2 a later one, else
        ``_PASSED`` if a side passed a control, else 0. The flags and periods are looked
        at closer only when one of them differs from the last update."""
        left = clock.sides[0]
        right = clock.sides[1]
        if (
            left.flagged == self.flagged[0]
            and right.flagged == self.flagged[1]
            and left.period == self.periods[0]
            and right.period == self.periods[1]
            and self.primed
        ):
            return 0
        fell = self._flags_fallen(clock)
        if self._control_passed(clock) and not fell:
            return _PASSED
        return fell

    def quiet_ms(self, clock, settings, now, wait):
        """``wait``, or less: the ms from ``now`` before which ``update`` cannot start
        anything by itself (the buzzer idle, no flag or period changing meanwhile).
        With the warning beeps on, the countdown's seconds (rounded up) of the
        running side can change no sooner than its time drops to the next whole
        second, 1 ms of display a ms at most; any jump up (a new byo-yomi period)
        comes where it would reach zero."""
        if settings is None or not settings.warn_last10:
            return wait
        mover = clock.running()
        if mover == _NOBODY:
            return wait
        mover = clock.shown_ms(mover, now)  # (the name reused: the frame stays small)
        if mover <= 0:
            return wait
        mover = (mover - 1) % 1000 + 1
        return mover if mover < wait else wait

    def _flags_fallen(self, clock):
        """0 if no flag fell since the last update; 1 the game's first; 2 a later one."""
        fell = 0
        flagged = self.flagged
        index = 0
        while index < 2:
            down = 1 if clock.sides[index].flagged else 0
            if down and not flagged[index] and self.primed:
                fell = 1 if clock.first_flag == index and not flagged[1 - index] else 2
            flagged[index] = down
            index += 1
        self.primed = True
        return fell

    def _control_passed(self, clock):
        """True if a move made while the clock ran completed a period since the
        last update (an arbiter's move-count correction, made paused, is silent)."""
        passed = False
        periods = self.periods
        running = clock.state == _RUNNING
        index = 0
        while index < 2:
            done = clock.sides[index].period
            if done > periods[index] and running:
                passed = True
            periods[index] = done
            index += 1
        return passed

    def _count_down(self, clock, now):
        """Set ``warned`` if the running side's display just reached a second from 10 to 1."""
        self.warned = False
        mover = clock.running()
        if mover == _NOBODY:
            self.warn_side = _NOBODY
            return
        seconds = (clock.shown_ms(mover, now) + 999) // 1000
        if mover != self.warn_side:
            self.warn_side = mover  # a new turn: count from here, no beep for the switch
        elif seconds < self.warn_seconds and 0 < seconds <= _WARN_FROM_S:
            self.warned = True
        self.warn_seconds = seconds
