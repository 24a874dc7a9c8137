"""Lever and key edges: the first closing edge counts, bounce and release never do."""

import pytest

from sim import machine as sim_machine
from sim import vclock
from tests.scripting import edge_inputs_on


@pytest.fixture
def inputs():
    from hal.edges import QUIET_MS

    edge_inputs = edge_inputs_on((14, 15))
    edge_inputs.quiet_ms = QUIET_MS
    return edge_inputs


def at(ms, pin, level):
    vclock.set_now(ms)
    sim_machine.drive(pin, level)


def events(inputs):
    found = []
    index = inputs.pop()
    while index >= 0:
        found.append((index, inputs.popped_tick()))
        index = inputs.pop()
    return found


def test_first_closing_edge_is_stored_with_its_tick(inputs):
    at(1000, 14, 0)
    for ms, level in ((1001, 1), (1002, 0), (1003, 1), (1004, 0)):  # bounce
        at(ms, 14, level)
    assert events(inputs) == [(0, 1000)]


def test_release_chatter_never_counts(inputs):
    at(1000, 14, 0)
    inputs.rearm(1050)  # still closed: stays disarmed
    for ms, level in ((1080, 1), (1081, 0), (1082, 1), (1083, 0), (1084, 1)):
        at(ms, 14, level)
    inputs.rearm(1084 + inputs.quiet_ms - 1)  # not quiet long enough yet
    at(1084 + inputs.quiet_ms - 1, 14, 0)  # so this closing edge is still bounce
    assert events(inputs) == [(0, 1000)]


@pytest.mark.parametrize("quiet", [0, 1])
def test_a_press_after_a_quiet_release_counts_with_no_pass_between(inputs, quiet):
    """The main loop's passes may come a ring block apart: a contact left open and quiet
    for QUIET_MS is re-armed by the handler at its next closing edge, which is a press;
    one ms sooner it is the release's bounce. The first press's release is its last
    edge."""
    at(1000, 14, 0)
    at(1080, 14, 1)  # released; no pass of the main loop from here on
    closing = 1080 + inputs.quiet_ms - 1 + quiet
    at(closing, 14, 0)
    found = events(inputs)
    assert found == ([(0, 1000), (0, closing)] if quiet else [(0, 1000)])
    if quiet:
        assert inputs.ring_release[0] == 1080 and inputs.ring_open[0] == 0


def test_rearmed_after_quiet_open_contact(inputs):
    at(1000, 14, 0)
    at(1080, 14, 1)
    inputs.rearm(1080 + inputs.quiet_ms)
    at(1200, 14, 0)
    assert events(inputs) == [(0, 1000), (0, 1200)]


def test_two_levers_in_order(inputs):
    at(500, 15, 0)
    at(501, 14, 0)
    assert events(inputs) == [(1, 500), (0, 501)]


def test_a_full_ring_drops_and_counts(inputs):
    from hal import edges as edges_module

    ms = 0
    stored = 0
    for _ in range(edges_module._RING + 5):
        ms += 100
        at(ms, 14, 0)
        at(ms + 10, 14, 1)
        inputs.rearm(ms + 10 + inputs.quiet_ms)
        stored += 1
    assert inputs.dropped == stored - (edges_module._RING - 1)
    assert len(events(inputs)) == edges_module._RING - 1


def test_each_press_keeps_its_release_tick_in_its_slot(inputs):
    at(1000, 14, 0)
    at(1001, 14, 1)  # bounce
    at(1002, 14, 0)
    at(1080, 14, 1)
    at(1082, 14, 0)
    at(1083, 14, 1)  # the release settles at 1083
    inputs.rearm(1083 + inputs.quiet_ms - 1)
    assert inputs.ring_open[0] == 1  # not quiet yet: still held as far as anyone knows
    inputs.rearm(1083 + inputs.quiet_ms)
    at(1200, 15, 0)  # the other lever, still held
    assert inputs.pop() == 0 and inputs.popped_tick() == 1000
    slot = inputs.popped_slot()
    assert inputs.ring_open[slot] == 0 and inputs.ring_release[slot] == 1083
    assert inputs.pop() == 1 and inputs.ring_open[inputs.popped_slot()] == 1


def test_a_second_press_keeps_the_first_ones_release(inputs):
    # Two presses of one input before the main loop reads either: each slot has its own.
    at(1000, 14, 0)
    at(1080, 14, 1)
    inputs.rearm(1080 + inputs.quiet_ms)
    at(1300, 14, 0)
    at(3500, 14, 1)
    inputs.rearm(3500 + inputs.quiet_ms)
    assert inputs.pop() == 0
    assert inputs.ring_release[inputs.popped_slot()] == 1080
    assert inputs.pop() == 0 and inputs.popped_tick() == 1300
    assert inputs.ring_release[inputs.popped_slot()] == 3500


def test_events_are_taken_in_the_order_of_their_stamps_not_of_their_handlers(inputs):
    """A key whose pin handler ran when an erase ended (1380) is stored before two
    presses the chip stamped inside the erase (1001, 1200) and stored after it: they
    are taken oldest first; two equal stamps keep the order they were stored in."""
    at(1380, 15, 0)  # the handler's own stamp
    inputs.store(0, 1200)  # as the capture stores its stamps (``take_captured``)
    inputs.store(0, 1001)
    inputs.store(0, 1380)
    assert events(inputs) == [(0, 1001), (0, 1200), (1, 1380), (0, 1380)]


def test_a_press_brought_forward_keeps_its_release(inputs):
    """The key pressed at 1380 and released at 1500 is moved one slot on when an older
    stamp is brought before it: its release is noted in the slot it moved to, and the
    press brought forward has no release of another's."""
    at(1380, 15, 0)
    inputs.store(0, 1001)
    assert inputs.pop() == 0 and inputs.popped_tick() == 1001
    assert inputs.ring_open[inputs.popped_slot()] == 1
    at(1500, 15, 1)
    inputs.rearm(1500 + inputs.quiet_ms)
    assert inputs.pop() == 1 and inputs.popped_tick() == 1380
    slot = inputs.popped_slot()
    assert inputs.ring_open[slot] == 0 and inputs.ring_release[slot] == 1500
