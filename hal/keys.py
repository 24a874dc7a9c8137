"""Short and long presses of the menu keys, through ``adafruit_debouncer``.

The keys' contacts go through the same edge interrupts as the levers
(``hal.edges``): each press is a ring slot with the tick of its first
closing edge and, once the contact has been open and quiet again, the tick
of its release. ``classify`` turns one press into a short press (released
before ``long_ms``) or a long press (held ``long_ms``) by feeding the key's
``Button`` that press's edges as samples stamped with their own ticks: the
Button's clock reads the sample's tick, never the time of the main-loop
pass. So a press is classified the same however often the loop runs, and
at a tick that depends only on the contact: a short press at its release,
a long press ``long_ms`` after its first edge (while still held).

Nothing here allocates once the library is loaded. ``adafruit_debouncer``
(about 6 KB of heap as ``.mpy``, measured with ``bench.boot_heap``) is loaded
with the first press to classify, which comes only while no clock runs (the
setup menus, the arbiter's procedures), and let go with the setup menus when
a game starts (``release``); a board boots without it.

The one place the library is reached behind its public interface: a
``Button`` reads the time from its module's ``ticks_ms`` (taken from
``adafruit_ticks`` at import) and has no parameter for it. Its public
``update`` would stamp a sample with the time of the main-loop pass, which
rests for up to a second at a time; so ``KeyButtons`` points that name at
``_sample_ms``, the tick of the sample being fed, each time it is loaded.
Its ``ticks_diff`` is the library's own: its 2**29 period divides the
board's 2**30, so differences of the board's ticks come out the same.
"""

from micropython import const

from firmware.input_codes import LONG, PENDING, SHORT
from firmware.tickmath import ticks_add, ticks_diff
from hal.edges import QUIET_MS

_UNSETTLED_MS = const(500)
_SAMPLE = [0]  # the tick of the sample a Button is being fed


def _sample_ms():
    return _SAMPLE[0]


def _released():
    return False


class KeyButtons:
    """A ``Button`` for each of the inputs ``first``..``last`` of an ``EdgeRing``.

    The app asks ``classify`` and ``classified_tick()``."""

    def __init__(self, inputs, first, last, long_ms):
        self.inputs = inputs
        self.first = first
        self.count = last + 1 - first
        self.long_ms = long_ms
        self.buttons = None  # the Buttons, while the library is loaded (``_load``)
        self.tick = 0  # when the press last classified became short or long

    def _load(self):
        """The keys' Buttons, loading ``adafruit_debouncer`` if it is not loaded."""
        buttons = self.buttons
        if buttons is None:
            import adafruit_debouncer

            adafruit_debouncer.ticks_ms = _sample_ms  # the Buttons run on the edges' ticks
            buttons = []
            for _ in range(self.count):
                buttons.append(
                    adafruit_debouncer.Button(
                        _released,
                        short_duration_ms=0,  # each press on its own: no double clicks
                        long_duration_ms=self.long_ms - 1,  # reported by a sample at long_ms
                        value_when_pressed=True,
                        interval=0,  # the edges are debounced already (hal.edges)
                    )
                )
            self.buttons = buttons
        return buttons

    def release(self):
        """Drop the Buttons (a game has started: while a clock runs no key is
        classified); the next ``classify`` makes fresh ones. The library stays
        loaded. Allocates nothing."""
        self.buttons = None

    def classified_tick(self):
        """The instant the press ``classify`` decided last became short or long."""
        return self.tick

    def classify(self, key, slot, now):
        """``SHORT``, ``LONG`` or ``PENDING`` for the press of ``key`` stored in ring
        ``slot`` of the inputs, as it stands at ``now``; the instant it became short
        or long in ``tick``."""
        inputs = self.inputs
        start = inputs.ring_tick[slot]
        if inputs.ring_open[slot]:  # still held, or its release not settled yet
            held = ticks_diff(now, start)
            if held < self.long_ms:
                return PENDING
            if held < self.long_ms + _UNSETTLED_MS and (
                inputs.pins[key].value() != inputs.active[key]
                or ticks_diff(now, inputs.last_edge[key]) < QUIET_MS
            ):
                return PENDING  # a release under way: wait for its tick (a contact
                # that never settles is taken as held, so it cannot hold up the rest)
        else:
            held = ticks_diff(inputs.ring_release[slot], start)
        button = self._load()[key - self.first]
        if button.value:  # the last press was long: let it go before this one
            _feed(button, start, 0)
        _feed(button, start, 1)
        if held >= self.long_ms:
            _SAMPLE[0] = ticks_add(start, self.long_ms)
            button.update(1)
            self.tick = _SAMPLE[0]
            return LONG if button.long_press else SHORT
        release = inputs.ring_release[slot]
        _feed(button, release, 0)
        _SAMPLE[0] = ticks_add(release, 1)
        button.update(0)
        self.tick = release
        return SHORT if button.short_count else LONG


def _feed(button, tick, level):
    """Give ``button`` the contact's level at ``tick`` (twice: a Button debounces)."""
    _SAMPLE[0] = tick
    button.update(level)
    button.update(level)
