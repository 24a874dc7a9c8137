"""The long press's 2 s (firmware/input_codes.py) at the limit and one ms short of it,
for a press the main loop reads only after its release: held exactly 2000 ms is
long, 1999 ms short, decided by the edges' ticks alone (hal/keys.py)."""

import pytest

from firmware.input_codes import LONG, SHORT
from sim import machine as sim_machine
from sim import vclock
from tests.scripting import edge_inputs_on


def read_after_release(held_ms):
    """A press of key 0 from 100 held ``held_ms``, first looked at 1 s after it."""
    from hal.keys import KeyButtons

    inputs = edge_inputs_on((17,))
    keys = KeyButtons(inputs, 0, 0, 2000)
    for ms, level in ((100, 0), (100 + held_ms, 1)):
        vclock.set_now(ms)
        sim_machine.drive(17, level)
    now = 100 + held_ms + 1000
    vclock.set_now(now)
    inputs.rearm(now)  # the release settled: the slot holds its tick
    assert inputs.pop() == 0
    return keys.classify(0, inputs.popped_slot(), now), keys.classified_tick()


@pytest.mark.parametrize(
    "held_ms, expected",
    [(1999, (SHORT, 2099)), (2000, (LONG, 2100)), (2001, (LONG, 2100))],
)
def test_a_press_read_after_its_release_at_the_long_press_limit(held_ms, expected):
    assert read_after_release(held_ms) == expected
