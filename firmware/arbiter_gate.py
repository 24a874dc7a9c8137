"""The arbiter's procedures' gate: the part of them the app holds at all times.

The procedures themselves (``firmware.arbiter``, about 6 KB of heap as
``.mpy``) are loaded when the arbiter first uses them: a key held while the
clock is paused, or a lever moved then (``App.key_handler``, ``App.on_input``).
The clock is paused then, so loading them charges no one. Once no screen is
up and the clock runs, or a new game is set up, they are let go (dropped from
``sys.modules``, without allocating) for a garbage collection to reclaim.
While they are not loaded, nothing here allocates. Screens and sequences:
docs/arbiter.md.
"""

from micropython import const

import firmware
from firmware import engine, lifetime

IDLE = const(0)  # firmware.arbiter.IDLE: no screen up


class ArbiterGate:
    """The procedures as the app sees them: ``active()``, ``changed``, keys, ``tick``,
    ``draw``, ``new_game_wanted``; ``screen`` is the procedure's (``IDLE`` when none)."""

    def __init__(self, clock, claims):
        self.clock = clock
        self.claims = claims
        self.procedures = None  # a firmware.arbiter.Arbiter while loaded

    def _load(self):
        procedures = self.procedures
        if procedures is None:
            from firmware.arbiter import Arbiter

            procedures = Arbiter(self.clock, self.claims)
            self.procedures = procedures
        return procedures

    def release(self):
        """Let the procedures go; their module is freed at the next garbage
        collection. Allocates nothing."""
        self.procedures = None
        lifetime.let_go(firmware, "arbiter")
        lifetime.let_go(firmware, "move_count")

    def reset(self):
        """No screen up and nothing chosen (a new game): the procedures go."""
        self.release()

    @property
    def screen(self):
        procedures = self.procedures
        return IDLE if procedures is None else procedures.screen

    def active(self):
        procedures = self.procedures
        return procedures is not None and procedures.screen != IDLE

    @property
    def changed(self):
        return self.procedures is not None and self.procedures.changed

    @changed.setter
    def changed(self, value):
        if self.procedures is not None:
            self.procedures.changed = value

    @property
    def new_game_wanted(self):
        return self.procedures is not None and self.procedures.new_game_wanted

    def on_press(self, key, now):
        """A short press (or a lever) while a screen is up; True if it was used."""
        procedures = self.procedures
        return procedures is not None and procedures.on_press(key, now)

    def on_long_press(self, key, now):
        """A key held: a procedure starts only while the clock is paused."""
        if self.procedures is None and self.clock.state != engine.PAUSED:
            return
        self._load().on_long_press(key, now)

    def lever_while_paused(self, index, now):
        self._load().lever_while_paused(index, now)

    def tick(self, now):
        procedures = self.procedures
        if procedures is None:
            return
        if self.clock.state == engine.RUNNING and procedures.screen == IDLE:
            self.release()
            return
        procedures.tick(now)

    def draw(self, frame, index):
        self.procedures.draw(frame, index)
