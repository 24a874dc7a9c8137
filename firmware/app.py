"""The clock application: turns input events into clock actions and frames.

``step(now)`` is one pass of the main loop: it drains the input events that
the interrupt handlers stored (each with the tick of its first contact
edge), lets a flag fall when its time has come, and redraws both displays.
During a game it allocates nothing. Levers and the play/pause key act on
their first edge; ``set``, ``plus`` and ``minus`` act as short presses
(after release) or long presses (held 2 s), as ``hardware.keys`` reports
them, and only for the arbiter's procedures while the clock is paused
(``firmware.arbiter``).
"""

from firmware import arbiter as arbiter_module
from firmware import claims as claims_module
from firmware import engine, frames
from firmware.inputs import KEY_MINUS, KEY_PLAY, KEY_SET, LEVER_LEFT, LEVER_RIGHT

_FIRST_KEY = KEY_SET
_LAST_KEY = KEY_MINUS


class App:
    """The clock as a board runs it: engine, claims, keys and displays."""

    def __init__(
        self, hardware, left_control, right_control=None, quickplay="off", edition="appendix-g"
    ):
        self.hardware = hardware
        self.clock = engine.Clock(left_control, right_control)
        self.claims = claims_module.Claims(self.clock, quickplay, edition)
        self.arbiter = arbiter_module.Arbiter(self.clock, self.claims)
        self.frame = bytearray(frames.FRAME_SIZE)

    def step(self, now):
        """One pass of the main loop at tick ``now``."""
        inputs = self.hardware.inputs
        inputs.rearm(now)
        index = inputs.pop()
        while index >= 0:
            self.on_input(index, inputs.popped_tick)
            index = inputs.pop()
        self.watch_keys(now)
        self.clock.update(now)
        self.arbiter.tick(now)
        self.refresh(now)

    def on_input(self, index, tick):
        """Act on input ``index`` whose contact closed at ``tick``."""
        clock = self.clock
        if index >= _FIRST_KEY:
            return  # the menu keys act through hardware.keys
        if self.arbiter.on_press(index, tick):
            return
        if index == LEVER_LEFT or index == LEVER_RIGHT:
            if clock.state == engine.PAUSED:
                self.arbiter.lever_while_paused(index, tick)
            else:
                clock.press(index, tick)
        elif index == KEY_PLAY:
            if clock.state == engine.RUNNING:
                clock.pause(tick)
            else:
                clock.resume(tick)

    def watch_keys(self, now):
        """Hand the menu keys' short and long presses to the arbiter's procedures."""
        keys = self.hardware.keys
        keys.update()
        index = _FIRST_KEY
        while index <= _LAST_KEY:
            if keys.long[index]:
                self.arbiter.on_long_press(index, now)
            count = keys.short[index]
            while count > 0:
                self.arbiter.on_press(index, now)
                count -= 1
            index += 1

    def refresh(self, now):
        """Redraw both displays for ``now``."""
        displays = self.hardware.displays
        frame = self.frame
        arbiter = self.arbiter
        if arbiter.active():
            if not arbiter.changed:
                return
            arbiter.changed = False
            arbiter.draw(frame, 0)
            displays[0].show_frame(frame)
            arbiter.draw(frame, 1)
            displays[1].show_frame(frame)
            return
        claimant = self.claims.claimant  # an open or postponed claim: digit 3's point
        frames.render_side(frame, self.clock, 0, now)
        if claimant == 0:
            frame[2] |= frames.DOT
        displays[0].show_frame(frame)
        frames.render_side(frame, self.clock, 1, now)
        if claimant == 1:
            frame[2] |= frames.DOT
        displays[1].show_frame(frame)
