"""A pass an input's edge wakes on the Pico's model reads its tick after the wake's cost,
as the image does on the port (boards/chips/rp2040.py: ``KEY_WAKE_US``,
``CAPTURED_WAKE_US``, measured with the real-port lane): the contact's chatter, then the
wake. The engine charges from the edges' stamps, so only what the step draws moves; the
ideal board's pass runs at the edge."""

import os

import pytest

from boards.chips import rp2040
from firmware.tickmath import ticks_diff
from sim import vclock
from sim.runner import Game, run_files
from sim.script import parse
from tests.test_ready_board import SCENARIOS, _end_line

# An hourglass: left stops at exactly 50 s (60 - 10), and its time rises while right's runs.
HOURGLASS = "control *60\nat 0 press right\nat 10 press left\nat 10 expect moves=1\n"


def test_the_hourglass_shows_the_stopped_sides_time_at_the_woken_steps_tick():
    """The ready Pico draws the press's pass a few ms after the edge (the port's ` 1.41`
    of arbiter/refuse-hourglass): left has 50.00x s then, rounded up to 0.51; the charge
    is the edge's on both boards, and the ideal board draws 0.50 at the edge."""
    status, line = _end_line(HOURGLASS, latency="typical", ready=True)
    assert status == 0 and "left=0:00:50.000" in line and "running=right" in line
    assert 'display=" 0.51|' in line
    status, ideal = _end_line(HOURGLASS)
    assert status == 0 and "left=0:00:50.000" in ideal
    assert 'display=" 0.50|' in ideal


def test_refuse_hourglass_ends_on_the_ready_pico_as_on_the_port():
    """arbiter/refuse-hourglass's last press stops left at exactly 100 s: the image on
    rp2040js ends on the ideal board's line but for left's display, ` 1.41` (docs/port.md,
    "What the scripts show"), and so does the ready Pico."""
    path = os.path.join(SCENARIOS, "arbiter", "refuse-hourglass.clock")
    ideal, chip = [], []
    assert run_files([path], out=ideal.append) == 0
    assert run_files([path], out=chip.append, latency="typical", ready=True) == 0
    assert 'display=" 1.40|28.20"' in ideal[-1]
    assert chip[-1] == ideal[-1].replace('display=" 1.40|', 'display=" 1.41|')


def _steps_after_press(name, bounce_ms, latency="typical"):
    """The tick the first step after a press of ``name`` reads, less the press's tick, on
    the Pico standing (ready: ``latency``; else the ideal Pico, its clock the same)."""
    text = "control 300\nbounce %d\nat 1 expect state=setup\n" % bounce_ms
    game = Game(parse(text.encode()), "pico", latency=latency, ready=latency is not None)
    try:
        game.run_to(1000)
        app = game.board.app
        ticks = []
        step = app.step

        def recording(now):
            ticks.append(now)
            return step(now)

        app.step = recording
        pressed_at = vclock.ticks_ms()
        game.board.press(name)
        game.board.run_due(vclock.now_ms() + 50)
        return ticks_diff(ticks[0], pressed_at)
    finally:
        game.close()


@pytest.mark.parametrize(
    "name, bounce_ms, late_ms",
    [
        # the chatter (the bounce), then the wake: 2.9 ms after a stamped input's, 1.2 a key's
        ("lever_right", 3, 5),
        ("play", 3, 5),
        ("plus", 3, 4),
        ("lever_left", 0, 2),
        ("minus", 0, 1),
    ],
)
def test_the_step_an_edge_wakes_reads_its_tick_after_the_chatter_and_the_wake(
    name, bounce_ms, late_ms
):
    assert _steps_after_press(name, bounce_ms) == late_ms
    assert _steps_after_press(name, bounce_ms, latency=None) == 0  # the ideal board: at once


@pytest.mark.parametrize("wake_us, late_ms", [(2_000, 5), (1_999, 4)])
def test_the_wakes_cost_moves_the_tick_once_it_reaches_a_whole_ms(monkeypatch, wake_us, late_ms):
    """The tick is the chip's timer's ms after the cost: 3 ms of chatter and 2 ms of wake
    read 5 ms on, 1 us less still 4."""
    monkeypatch.setattr(rp2040, "CAPTURED_WAKE_US", wake_us)
    assert _steps_after_press("lever_right", 3) == late_ms
