"""The clock application: turns input events into clock actions and frames.

``step(now)`` is one pass of the main loop: it drains the input events that
the interrupt handlers stored (each with the tick of its first contact
edge), lets a flag fall when its time has come, and redraws both displays.
During a game it allocates nothing. Levers and the play/pause key act on
their first edge; ``set``, ``plus`` and ``minus`` act on release (a short
press) or after being held for 2 s (a long press), and only for the
arbiter's procedures while the clock is paused (``firmware.arbiter``).
"""

from firmware import arbiter as arbiter_module
from firmware import claims as claims_module
from firmware import engine, frames
from firmware.inputs import KEY_MINUS, KEY_PLAY, KEY_SET, LEVER_LEFT, LEVER_RIGHT
from firmware.ticks import ticks_diff

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
        self.key_down = [0] * (_LAST_KEY + 1)  # tick of each key's closing edge
        self.key_held = bytearray(_LAST_KEY + 1)  # 1 while a key is down, 2 once held long

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
            self.key_down[index] = tick
            self.key_held[index] = 1
            return
        if self.arbiter.on_press(index, tick):
            return
        if index == LEVER_LEFT or index == LEVER_RIGHT:
            clock.press(index, tick)
        elif index == KEY_PLAY:
            if clock.state == engine.RUNNING:
                clock.pause(tick)
            else:
                clock.resume(tick)

    def watch_keys(self, now):
        """Short presses on release, long presses after 2 s held."""
        inputs = self.hardware.inputs
        held = self.key_held
        index = _FIRST_KEY
        while index <= _LAST_KEY:
            if held[index]:
                if inputs.armed[index]:  # open and quiet again: released
                    if held[index] == 1:
                        self.arbiter.on_press(index, now)
                    held[index] = 0
                elif held[index] == 1 and (
                    ticks_diff(now, self.key_down[index]) >= arbiter_module.HOLD_MS
                ):
                    held[index] = 2
                    self.arbiter.on_long_press(index, now)
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
