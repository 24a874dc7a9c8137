"""Messages the clock shows at boot on both displays, one after another.

Error codes of files it could not use (``firmware.boot.documents``: ``Err1``…),
then ``rESt`` when a journalled game came back. Each shows for 3 s from the
first step of the main loop; any lever or key press clears them all (and
acts as usual). Loaded only when boot has a message (``App.notice``); the
Notices are dropped once they are over.
"""

from micropython import const

from firmware import frames
from firmware.screen import Screen
from firmware.tickmath import ticks_add, ticks_diff

SHOW_MS = const(3000)


class Notices(Screen):
    """The queue of boot messages; ``active`` while one is on the displays."""

    def __init__(self):
        self.texts = []
        self.active = False
        self.started = False
        self.until = 0
        self.changed = False

    def add(self, text):
        if not self.active:
            self.started = False  # a message after the others ended shows its full 3 s
        self.texts.append(text)
        self.active = True

    def tick(self, now):
        """Start the first message, or move on when its time is up."""
        if not self.active:
            return
        if not self.started:
            self.started = True
            self.until = ticks_add(now, SHOW_MS)
            self.changed = True
        elif ticks_diff(now, self.until) >= 0:
            self.texts.pop(0)
            self.until = ticks_add(self.until, SHOW_MS)  # from the last one's end
            self.changed = True
            if not self.texts:
                self.active = False

    def dismiss(self):
        """A press clears the messages."""
        if self.active:
            self.texts = []
            self.active = False
            self.changed = True

    def draw_again(self):
        """Draw the message up again at the next refresh (a display missed it)."""
        if self.active:
            self.changed = True

    def draw(self, frame):
        frames.render_text(frame, self.texts[0])
