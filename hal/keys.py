"""Short and long presses of the menu keys, from the edges' own ticks.

The keys' contacts go through the same edge interrupts as the levers
(``hal.edges``): each press is a ring slot with the tick of its first
closing edge and, once the contact has been open and quiet again, the tick
of its release; the ring gives that record through ``press_into`` into an
array allocated here once. ``classify`` turns one press into a short press
(released before ``long_ms``: at its release's tick) or a long press (held
``long_ms``: at its first edge's tick + ``long_ms``, while still held). The
decision reads only the press's ticks, never the time of the main-loop
pass, so a press is classified the same however often the loop runs, and
at a tick that depends only on the contact.

Why not ``adafruit_debouncer``, which the clock used before: the edges are
debounced already (``hal.edges``: the first edge counts, the contact then
settles for ``QUIET_MS``), so its ``Button`` had only to agree with the
long/short decision made here from the same ticks; and it reads the time
from its module's ``ticks_ms``, with no way to be given a sample's instant,
so the clock had to patch that module at run time. Reading the ticks is the
whole decision, it allocates nothing, and the library's 6 KB of heap while
the menus are up are gone.
"""

from array import array

from micropython import const

from firmware.input_codes import LONG, PENDING, SHORT
from firmware.tickmath import ticks_add, ticks_diff
from hal.edges import PRESS_FIELDS, PRESS_HELD, PRESS_RELEASE, PRESS_RELEASING, PRESS_START

_UNSETTLED_MS = const(500)


class KeyButtons:
    """The short and long presses of the inputs ``first``..``last`` of an ``EdgeRing``.

    The app asks ``classify`` and ``classified_tick()``."""

    def __init__(self, inputs, first, last, long_ms):
        self.inputs = inputs
        self.first = first
        self.count = last + 1 - first
        self.long_ms = long_ms
        self.press = array("i", [0] * PRESS_FIELDS)  # the press being classified
        self.tick = 0  # when the press last classified became short or long

    def classified_tick(self):
        """The instant the press ``classify`` decided last became short or long."""
        return self.tick

    def classify(self, key, slot, now):
        """``SHORT``, ``LONG`` or ``PENDING`` for the press of ``key`` stored in ring
        ``slot`` of the inputs, as it stands at ``now``; the instant it became short
        or long in ``tick``."""
        press = self.press
        self.inputs.press_into(slot, now, press)
        if press[PRESS_HELD]:  # still held, or its release not settled yet
            return self._held(ticks_diff(now, press[PRESS_START]), press[PRESS_RELEASING])
        return self._released(press[PRESS_START], press[PRESS_RELEASE])

    def _held(self, held, releasing):
        """A press held ``held`` ms so far, its release under way or not."""
        if held < self.long_ms:
            return PENDING
        if held < self.long_ms + _UNSETTLED_MS and releasing:
            return PENDING  # a release under way: wait for its tick (a contact
            # that never settles is taken as held, so it cannot hold up the rest)
        self.tick = ticks_add(self.press[PRESS_START], self.long_ms)
        return LONG

    def _released(self, start, release):
        """A press from ``start`` released at ``release``."""
        if ticks_diff(release, start) >= self.long_ms:
            self.tick = ticks_add(start, self.long_ms)
            return LONG
        self.tick = release
        return SHORT
