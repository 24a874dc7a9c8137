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


# --- the edge ring's capacity (hal/edges.py, ``_RING``) ---------------------------
#
# The ring has ``_RING`` slots and keeps one free: the handler never writes the slot the
# main loop popped last (``EdgeRing.pop``: "the ring counts as full before it"), so
# ``_RING - 1`` presses wait unread; the next is dropped and counted, never written
# over an unread one.


def presses(inputs, count, first_ms=100):
    """``count`` presses of key 0, 100 ms apart, each released and re-armed, none read."""
    from hal.edges import QUIET_MS

    ticks = []
    for number in range(count):
        ms = first_ms + 100 * number
        vclock.set_now(ms)
        sim_machine.drive(17, 0)
        vclock.set_now(ms + 10)
        sim_machine.drive(17, 1)
        inputs.rearm(ms + 10 + QUIET_MS)
        ticks.append(ms)
    return ticks


def unread(inputs):
    found = []
    while inputs.pop() >= 0:
        found.append(inputs.popped_tick())
    return found


def test_the_edge_ring_holds_exactly_its_capacity_unread():
    from hal import edges

    inputs = edge_inputs_on((17,))
    ticks = presses(inputs, edges._RING - 1)
    assert inputs.dropped == 0
    assert unread(inputs) == ticks  # every one, in order, with its own tick


def test_one_press_past_the_edge_rings_capacity_is_dropped_and_counted():
    from hal import edges

    inputs = edge_inputs_on((17,))
    ticks = presses(inputs, edges._RING)
    assert inputs.dropped == 1
    assert unread(inputs) == ticks[:-1]  # the last is lost, none written over


def test_a_press_read_from_a_full_ring_makes_room_for_one_more():
    from hal import edges

    inputs = edge_inputs_on((17,))
    ticks = presses(inputs, edges._RING - 1)
    assert inputs.pop() == 0 and inputs.popped_tick() == ticks[0]
    ticks += presses(inputs, 2, first_ms=ticks[-1] + 100)
    assert inputs.dropped == 1
    assert unread(inputs) == ticks[1:-1]
