"""Menu keys: each press is short (released before 2 s) or long (held 2 s), classified
from its own edges' ticks, however often and however late the main loop looks."""

import pytest

from firmware.input_codes import LONG, PENDING, SHORT
from sim import machine as sim_machine
from sim import vclock
from tests.scripting import edge_inputs_on

TICK = 20


@pytest.fixture
def keys():
    from hal.keys import KeyButtons

    inputs = edge_inputs_on((17, 18))
    return inputs, KeyButtons(inputs, 0, 1, 2000), []  # the press waiting, if any


def at(ms, pin, level):
    vclock.set_now(ms)
    sim_machine.drive(pin, level)


def classify_all(keys, until, every_ms):
    """Run a main loop every ``every_ms`` up to ``until``: pop each press and classify
    it before the next; the log of (key, kind, tick, classified at)."""
    inputs, buttons, waiting = keys
    log = []
    while vclock.now_ms() + every_ms <= until:
        vclock.set_now(vclock.now_ms() + every_ms)
        now = vclock.ticks_ms()
        inputs.rearm(now)
        while True:
            if waiting:
                kind = buttons.classify(waiting[0], waiting[1], now)
                if kind == PENDING:
                    break
                log.append((waiting[0], kind, buttons.tick))
                waiting.clear()
            key = inputs.pop()
            if key < 0:
                break
            waiting[:] = [key, inputs.popped_slot()]
    return log


def play(keys, presses, until, every_ms):
    """Schedule ``presses`` (pin, down ms, up ms) by driving pins between loop passes."""
    edges = []
    for pin, down, up in presses:
        edges += [(down, pin, 0), (up, pin, 1)]
    edges.sort()
    log = []
    for ms, pin, level in edges:
        log += classify_all(keys, ms, every_ms)
        at(ms, pin, level)
    log += classify_all(keys, until, every_ms)
    return log


@pytest.mark.parametrize("every_ms", (1, 7, 20))
def test_short_press_at_its_release(keys, every_ms):
    # pressed at 100, released at 180: short, at its release (the tick of the edge)
    assert play(keys, [(17, 100, 180)], 1000, every_ms) == [(0, SHORT, 180)]


@pytest.mark.parametrize("every_ms", (1, 7, 20))
def test_long_press_two_seconds_after_its_first_edge(keys, every_ms):
    # pressed at 100 and held 3 s: long at 100 + 2000, once, and no short press after
    assert play(keys, [(18, 100, 3100)], 4000, every_ms) == [(1, LONG, 2100)]


def test_the_two_second_boundary(keys):
    # released 1999 ms after the first edge: short; 2000 ms: long
    log = play(keys, [(17, 100, 2099), (17, 3000, 5000)], 6000, 20)
    assert log == [(0, SHORT, 2099), (0, LONG, 5000)]


@pytest.mark.parametrize("every_ms", (1, 20))
def test_presses_every_0_15_s_each_count_once(keys, every_ms):
    presses = [(17, 100 + 150 * n, 180 + 150 * n) for n in range(5)]
    log = play(keys, presses, 2000, every_ms)
    assert log == [(0, SHORT, 180 + 150 * n) for n in range(5)]


def test_a_press_read_late_is_classified_by_its_edges(keys):
    # The loop does not look for 3 s: the short press of key 0 and the long one of
    # key 1 (held 2.5 s) are still told apart by their edges, in their order.
    at(100, 17, 0)
    at(180, 17, 1)
    at(300, 18, 0)
    at(2800, 18, 1)
    log = classify_all(keys, 5800, 3000)  # the first look at 5800
    assert log == [(0, SHORT, 180), (1, LONG, 2300)]


def test_a_long_press_then_a_short_one_of_the_same_key(keys):
    log = play(keys, [(17, 100, 2500), (17, 2700, 2780)], 4000, 20)
    assert log == [(0, LONG, 2100), (0, SHORT, 2780)]


def test_a_contact_that_never_settles_is_taken_as_held(keys):
    # A worn key chatters every 10 ms from 100 on: it cannot hold up the inputs behind
    # it for ever; 0.5 s past the long press it counts as held, long at 2100.
    inputs, buttons, _ = keys
    ms = 100
    while ms < 3000:
        at(ms, 17, 0 if ms // 10 % 2 == 0 else 1)
        ms += 10
    assert inputs.pop() == 0
    slot = inputs.popped_slot()
    assert buttons.classify(0, slot, 2590) == PENDING
    assert buttons.classify(0, slot, 2600) == LONG and buttons.tick == 2100


def test_presses_are_classified_without_a_library(keys):
    # hal/keys.py says why adafruit_debouncer went: the ticks alone decide, and no
    # other project's module is patched (tests/test_ownership.py, FOREIGN_ALLOWED)
    import sys

    sys.modules.pop("adafruit_debouncer", None)
    assert play(keys, [(17, 100, 180), (18, 1100, 3400)], 4000, 20) == [
        (0, SHORT, 180),
        (1, LONG, 3100),
    ]
    assert "adafruit_debouncer" not in sys.modules
