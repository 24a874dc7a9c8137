"""The low-battery mark: ``bAtt`` / `` Lo `` on the two displays while the clock stands.

Every point and the colon already mean something on a running clock's
displays (docs/display.md), so the mark is a text screen, shown only while
the clock stands before the start or paused (never after the end, whose
flags must stay in view): for 2 s when the clock stops or the battery turns
low, then for 1 s in every 6 s, the times in between. A game never outlasts the 10 hours of play the
mark is set to leave (docs/boards.md), so the screen before each game and
at each pause is warning enough. Pure logic with time passed in; the two
frames are drawn once, so showing them allocates nothing.
"""

from micropython import const

from firmware import frames
from firmware.tickmath import ticks_add, ticks_diff

FIRST_MS = const(2000)
CYCLE_MS = const(6000)
SHOW_MS = const(1000)
TEXTS = ("bAtt", " Lo ")


class BatteryMark:
    """When to show the low-battery screen, and its two frames (left, right)."""

    def __init__(self):
        self.frames = (bytearray(frames.FRAME_SIZE), bytearray(frames.FRAME_SIZE))
        frames.render_text(self.frames[0], TEXTS[0])
        frames.render_text(self.frames[1], TEXTS[1])
        self.active = False  # the clock stands and the battery is low
        self.anchor = 0  # tick the current cycle is counted from

    def showing(self, standing, low, now):
        """True if the screen is up at ``now``; ``standing``: before the start or paused."""
        if not (standing and low):
            self.active = False
            return False
        if not self.active:
            self.active = True
            self.anchor = now
            return True
        phase = ticks_diff(now, self.anchor)
        if phase < FIRST_MS:
            return True
        phase -= FIRST_MS
        while phase >= CYCLE_MS:  # keep the anchor near: wrap-safe through any pause
            self.anchor = ticks_add(self.anchor, CYCLE_MS)
            phase -= CYCLE_MS
        return phase >= CYCLE_MS - SHOW_MS
