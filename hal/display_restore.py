"""The displays set up again on a schedule, so a backpack that lost power comes back.

An HT16K33 whose supply drops and comes back (a loose 5 V wire, a connector
that shakes) restarts as its datasheet says at power-on: standby, display
off, RAM clear. It answers on the bus as before, so no write fails and the
firmware learns nothing of it; while the clock stands nothing is written to
the chip, and it would stay dark for the rest of the game. So both displays
are sent their whole setup and the frame they hold (``SegmentDisplay.restore``)
at most ``RESTORE_LATEST_MS`` after the last time: a chip that lost power shows
its frame again within 800 ms and a tick (20 ms) of its power's return.

The schedule rides on the steps the app takes anyway: a step that comes at
least ``RESTORE_EARLIEST_MS`` after the last restore restores them, and the
app rests no later than ``next_due`` (``firmware.app``). A running clock steps
at every turn of its mark (every 500 ms), so its restores cost it no wake
(132 steps in a minute of play, as without them); a standing one steps twice
a second instead of once (121 steps a minute against 61: its battery reading
each second and a restore between), a light step each. Each restore is
48 bytes on the bus (per chip three setup commands and the 17-byte frame
write, with their address bytes: about 1.2 ms at 400 kHz, inside a 20 ms
tick), at most one every 300 ms when the app steps at every tick (a menu, a
running clock with tenths). A restore that fails (the display stopped
answering) leaves that display untaken, so the app draws it afresh at its
next tick.
"""

from micropython import const

from firmware.tickmath import ticks_add

RESTORE_LATEST_MS = const(800)  # the longest a chip that lost power stays dark, less a tick
RESTORE_EARLIEST_MS = const(300)  # the shortest between two restores
_TICKS_MAX = const((1 << 30) - 1)  # firmware.tickmath's period, less one


class DisplayRestore:
    """Restores ``displays`` (hal.displays.SegmentDisplay) together, between
    ``RESTORE_EARLIEST_MS`` and ``RESTORE_LATEST_MS`` after the last time. The app
    asks ``next_due`` and calls ``update`` at its steps."""

    def __init__(self, displays):
        self.displays = displays
        self.last = None  # the tick of the last restore (None: none yet)

    def next_due(self, now):
        """The tick the next restore is due at, at the latest (``now``: before the first)."""
        last = self.last
        return now if last is None else ticks_add(last, RESTORE_LATEST_MS)

    def update(self, now):
        """Restore the displays if ``RESTORE_EARLIEST_MS`` have passed since the last time.
        False if a display is found not holding its frame (the app draws it afresh)."""
        last = self.last
        # ticks_diff(now, last) < RESTORE_EARLIEST_MS, without its call: at every step
        if last is not None and (now - last) & _TICKS_MAX < RESTORE_EARLIEST_MS:
            return True
        self.last = now
        displays = self.displays
        held = displays[0].restore()
        return displays[1].restore() and held
