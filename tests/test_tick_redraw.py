"""The times are drawn only when what they show can change, and always show the truth.

The main loop skips drawing the times while they still hold (``App.times_hold``,
``frames.steady_ms``). Whatever it skips, after every step each display
must hold exactly the frame a full redraw at that tick would give, for every
kind of control, with flags, pauses and the tenths setting; and most steps of
a running game must draw nothing. The app steps at every tick here; that the
ticks it rests at change nothing is tests/test_resting.py's.
"""

import random

import pytest

from firmware import frames
from tests.hardware_helpers import TICK_MS, Booted

CONTROLS = [
    "10+2",  # Fischer: flags fall during the game
    "60d5",  # simple delay: the delay mark and a standing time
    "60b10",  # Bronstein
    "*30",  # hourglass: the other side gains time
    "0j5x2",  # Japanese byo-yomi: the time jumps back at each period
    "30c2/20",  # Canadian byo-yomi
    "2/60+5:30+10",  # periods: a passed control's mark, a flag before the last period
    "left=300 right=240+2",  # asymmetric
    "5400+30",  # H:MM: the digits turn once a minute, the mark twice a second
    "3620",  # H:MM turning to M.SS at 59:59
    "*3590",  # hourglass: the other side's M.SS turning to H:MM past 59:59
]


RENDER_SIDE = frames.render_side


def full_redraw(app, index, now):
    """The frame side ``index`` shows if drawn afresh at ``now``."""
    frame = bytearray(frames.FRAME_SIZE)
    settings = app.settings
    RENDER_SIDE(frame, app.clock, index, now, settings is not None and settings.tenths)
    if app.claims.claimant == index:
        frame[2] |= frames.DOT
    return bytes(frame)


def play(control, tenths, seed):
    """A game of random moves, a pause and a resume; every step checked. Returns
    (steps, steps that drew the times)."""
    booted = Booted(control, rests=False)  # every tick a step, each one checked
    app = booted.app
    app.settings.tenths = tenths
    app.apply_settings(app.settings)  # as the menu that set it does
    displays = app.hardware.displays
    counts = {"steps": 0, "drawn": 0, "checked": 0}
    step = app.step
    render = frames.render_side

    def counting_render(*arguments):
        counts["drawn"] += 1
        return render(*arguments)

    def checked_step(now):
        step(now)
        counts["steps"] += 1
        if app.drawn == app.clock.changes:  # the times are on the displays (no screen up)
            counts["checked"] += 1
            for index in (0, 1):
                assert bytes(displays[index].last) == full_redraw(app, index, now), (
                    control,
                    tenths,
                    now,
                    index,
                )

    frames.render_side = counting_render
    app.step = checked_step
    rng = random.Random(seed)
    try:
        now = 100
        booted.run_to(now)
        booted.press("lever_right")  # left is White, left's clock runs
        mover = "lever_left"
        for move in range(24):
            now += rng.randint(150, 4500)
            booted.run_to(now)
            if move == 9:  # a pause and a resume in the middle of a turn
                booted.press("play")
                now += 2000
                booted.run_to(now)
                booted.press("play")
                now += rng.randint(100, 900)
                booted.run_to(now)
            booted.press(mover)
            mover = "lever_right" if mover == "lever_left" else "lever_left"
        booted.run_to(now + 15_000)  # long enough for a flag
    finally:
        frames.render_side = render
        booted.close()
    assert counts["checked"] > counts["steps"] // 2
    return counts["steps"], counts["drawn"] // 2


@pytest.mark.parametrize("control", CONTROLS)
@pytest.mark.parametrize("tenths", [False, True])
def test_displays_always_show_a_full_redraw(control, tenths):
    steps, drawn = play(control, tenths, seed=sum(map(ord, control)) + tenths)
    assert steps > 1000
    if not control.startswith("*"):  # an hourglass draws on every tick
        # A running side's times change at most 3 times a second (the mark on and
        # off, the seconds), 10 times in tenths: with 50 ticks a second, at most
        # 3 or 10 draws in 50 steps, and one for each press.
        most = steps * 10 // 50 if tenths else steps * 3 // 50
        assert drawn <= most + 30, (steps, drawn)


def test_above_an_hour_the_times_are_drawn_once_a_minute_and_the_mark_alone_turns():
    booted = Booted("5400+30")
    try:
        app = booted.app
        booted.run_to(100)
        booted.press("lever_right")  # left runs: 1:30:30 (H:MM)
        booted.run_to(1000)
        calls = []
        marks = set()
        render = frames.render_side
        frames.render_side = lambda *arguments: (calls.append(arguments[3]), render(*arguments))
        try:
            now = 1000
            while now < 61_000:
                now += TICK_MS
                booted.run_to(now)
                marks.add(app.hardware.displays[0].last[3] & frames.DOT)
        finally:
            frames.render_side = render
        # left reads 1:31 until 1:30:00.000, 30 s into its turn (at 30.1 s): both sides drawn
        assert len(calls) == 2, calls
        assert marks == {0, frames.DOT}  # its mark blinks all the while
    finally:
        booted.close()


def test_a_quiet_tick_draws_nothing_and_sends_nothing():
    booted = Booted("300")
    try:
        app = booted.app
        booted.run_to(100)
        booted.press("lever_right")
        booted.run_to(1000)
        calls = []
        render = frames.render_side
        frames.render_side = lambda *arguments: calls.append(arguments[3])
        try:
            # left runs from 0.1 s with 5:00: at 1.0 s it shows 4:59.1 as "5.00",
            # its mark lit since 0.6 s; both change at 1.1 s, a second into its turn.
            booted.run_to(1000 + TICK_MS * 4)
            assert calls == []
        finally:
            frames.render_side = render
        assert app.drawn == app.clock.changes
    finally:
        booted.close()
