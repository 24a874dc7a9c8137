"""The main loop sleeps until it has work: its wake-ups a second, per state, on the model.

The simulated board's loop sleeps as the rp2 port does (``sim.wakes``, ``hal.sleep``)
and each wake is counted (``bench.wakeups``). Goals (the issue's, at 48 MHz): a clock
running at most 12 a second, 25 in the last 10 s where tenths show; standing (before
the start, or paused, a menu up or not) at most 3. The same count on the old loop, which idled with
``machine.idle()`` (a wake every millisecond on the port), is far past them.
"""

import pytest

from bench import goals, wakeups
from hal import sleep as hal_sleep

BOARDS = ("sim", "esp32", "pico")
JUDGED = ("preparing", "standing", "paused", "running", "last_10s", "menus")


def within_goal(state, wakes):
    """True if ``wakes`` a second meets ``state``'s goal (``bench.wakeups.GOALS``)."""
    return goals.judge(wakes, "<= %d" % wakeups.GOALS[state]) == goals.MET


@pytest.mark.parametrize("board_name", BOARDS)
@pytest.mark.parametrize("state", JUDGED)
def test_the_loop_wakes_within_its_goal(board_name, state):
    wakes = wakeups.wakes_per_second(state, board_name)
    assert wakes > 0  # it wakes at all: the battery's reading, the display's seconds
    assert within_goal(state, wakes), (board_name, state, wakes)


@pytest.mark.parametrize("state", JUDGED)
def test_each_goal_holds_at_its_limit_and_not_past_it(state):
    limit = wakeups.GOALS[state]
    assert within_goal(state, limit)
    assert not within_goal(state, limit + 0.01)


def test_the_goals_are_the_issues():
    assert wakeups.GOALS == {
        "preparing": 3,
        "standing": 3,
        "paused": 3,
        "running": 12,
        "last_10s": 25,
        "menus": 3,  # standing, a menu up
    }


def test_a_running_clock_wakes_for_its_seconds_and_the_battery():
    # 300+2, left's clock running from a press 237 ms past a second of the board's
    # clock: the running mark's turns, twice a second, and the battery's readings, once
    # a second from the boot, apart from them; the journal's entry every 5 s rides on a
    # turn or adds one: 3 to 3.2 a second
    assert 3 <= wakeups.wakes_per_second("running", "sim") <= 3.2


def test_the_last_ten_seconds_wake_for_each_tenth():
    # tenths on the display: a change every 100 ms, with the beeps and the battery
    assert 10 <= wakeups.wakes_per_second("last_10s", "sim") <= 25


def test_the_old_loop_idling_wakes_every_millisecond(monkeypatch):
    """The model counts machine.idle()'s wakes: the old loop, per state, far past."""
    import machine

    monkeypatch.setattr(hal_sleep.Sleep, "wait", lambda self, app, until=None: machine.idle())
    for state in JUDGED:
        wakes = wakeups.wakes_per_second(state, "sim")
        assert wakes >= 900, (state, wakes)
        assert not within_goal(state, wakes)


def test_a_bounce_edge_of_a_disarmed_input_does_not_wake_the_loop():
    """The port's poll sleeps on after an interrupt that left no input (``sim.wakes``)."""
    from sim import machine as sim_machine
    from sim import wakes as sim_wakes

    class Stream:
        ready = False

        def ioctl(self, request, argument):
            return argument if self.ready else 0

    waits = sim_wakes.Waits()
    stream = Stream()
    waits.sleep(1_000, 500, stream)
    assert waits.deadline() == 1_500
    assert waits.interrupt(1_100) is False and waits.count == 0  # nothing came
    stream.ready = True
    assert waits.interrupt(1_200) is True and waits.count == 1  # an input
    waits.sleep(1_200, 300, stream)
    stream.ready = False
    assert waits.interrupt(1_500) is True and waits.count == 2  # the timeout
    waits.idle(2_000)
    assert waits.deadline() == 2_001
    assert waits.interrupt(2_010) is True and waits.count == 12  # 10 ms of idling
    assert sim_machine.waits() is not waits  # the board's own are kept apart


def test_the_sleep_on_micropythons_own_poll():
    """hal.sleep on the interpreter's select.poll and io.IOBase (sim/sleep_probe.py):
    the timeout when nothing is ready, at once for an input or a due step, and no
    allocation after the first wait."""
    import json
    import os
    import shutil
    import subprocess

    from tests.scripting import ROOT

    if shutil.which("node") is None:
        pytest.skip("no node: make setup installs the MicroPython lane")
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    done = subprocess.run(
        ["node", runner, "sim.sleep_probe"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    asked = figures["asked_ms"]
    assert figures["slept_ms"] >= asked
    assert figures["input_ms"] < asked and figures["due_ms"] < asked
    assert figures["waits_under_heap_lock"] is True
