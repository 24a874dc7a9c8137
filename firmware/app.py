"""The clock application: turns input events into clock actions and frames.

``step(now)`` is one pass of the main loop: it drains the input events that
the interrupt handlers stored (each with the tick of its first contact
edge), lets a flag fall when its time has come, and redraws both displays.
It allocates nothing.
"""

from firmware import engine, frames
from firmware.inputs import KEY_PLAY, LEVER_LEFT, LEVER_RIGHT


class App:
    """The clock as a board runs it: engine, inputs and displays."""

    def __init__(self, hardware, left_control, right_control=None):
        self.hardware = hardware
        self.clock = engine.Clock(left_control, right_control)
        self.frame = bytearray(frames.FRAME_SIZE)

    def step(self, now):
        """One pass of the main loop at tick ``now``."""
        inputs = self.hardware.inputs
        inputs.rearm(now)
        index = inputs.pop()
        while index >= 0:
            self.on_input(index, inputs.popped_tick)
            index = inputs.pop()
        self.clock.update(now)
        self.refresh(now)

    def on_input(self, index, tick):
        """Act on input ``index`` pressed at ``tick``."""
        clock = self.clock
        if index == LEVER_LEFT or index == LEVER_RIGHT:
            clock.press(index, tick)
        elif index == KEY_PLAY:
            if clock.state == engine.RUNNING:
                clock.pause(tick)
            else:
                clock.resume(tick)

    def refresh(self, now):
        """Redraw both displays for ``now``."""
        displays = self.hardware.displays
        frame = self.frame
        frames.render_side(frame, self.clock, 0, now)
        displays[0].show_frame(frame)
        frames.render_side(frame, self.clock, 1, now)
        displays[1].show_frame(frame)
