"""Menu keys: a short press is reported once after release, a long press once while held."""

import pytest

from sim import machine as sim_machine
from sim import vclock
from tests.scripting import edge_inputs_on

TICK = 20


@pytest.fixture
def keys():
    from hal.keys import KeyButtons

    inputs = edge_inputs_on((17, 18))
    return inputs, KeyButtons(inputs, 0, 1, 2000)


def run(keys, until, log):
    """Tick every 20 ms up to ``until``, logging (ms, key, kind) of every report."""
    inputs, buttons = keys
    while vclock.now_ms() + TICK <= until:
        vclock.set_now(vclock.now_ms() + TICK)
        inputs.rearm(vclock.ticks_ms())
        while inputs.pop() >= 0:
            pass
        buttons.update()
        for key in (0, 1):
            if buttons.short[key]:
                log.append((vclock.now_ms(), key, "short", buttons.short[key]))
            if buttons.long[key]:
                log.append((vclock.now_ms(), key, "long"))


def press(pin, hold_ms, keys, log):
    start = vclock.now_ms()
    sim_machine.drive(pin, 0)
    run(keys, start + hold_ms, log)
    sim_machine.drive(pin, 1)


def test_short_press_reported_once_after_release(keys):
    log = []
    run(keys, 100, log)
    press(17, 80, keys, log)
    run(keys, 1000, log)
    assert len(log) == 1 and log[0][1:] == (0, "short", 1)
    assert 180 + 200 <= log[0][0] <= 180 + 200 + 4 * TICK  # 0.2 s after the release


def test_long_press_once_while_held_and_no_short_press(keys):
    log = []
    run(keys, 100, log)
    press(18, 3000, keys, log)
    run(keys, 4000, log)
    assert [entry[1:] for entry in log] == [(1, "long")]
    assert 100 + 2000 <= log[0][0] <= 100 + 2000 + 3 * TICK


def test_presses_every_0_4_s_each_count_once(keys):
    log = []
    run(keys, 100, log)
    for _ in range(5):
        start = vclock.now_ms()
        press(17, 80, keys, log)
        run(keys, start + 400, log)
    run(keys, vclock.now_ms() + 1000, log)
    assert [entry[1:] for entry in log] == [(0, "short", 1)] * 5
