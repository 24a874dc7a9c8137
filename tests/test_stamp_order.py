"""Every move charged exactly when the play key and a lever are pressed inside a flash erase.

The sweep the real port ran (``bench.capture_sweep`` plays it, the DREQ a credit and a
level, and reports its figures): the clock paused, a flash erase holds core 0 (the
chip's maximum, 400 ms, or its typical 45 ms), the play key resumes inside it,
and the side to move presses its lever some milliseconds after, inside the
erase or after it. On the RP2040 both are stamped by the PIO (hal/capture.py)
at their edges; the inputs are acted on in the order of their stamps
(hal/edges.py, ``pop``). Each charged move is checked against the times the
contacts closed, computed here from the script's own instants: the turn runs
from the resume's edge to the lever's edge, the other side's from the lever's
edge on. (On the ESP32, which has no PIO, a pin handler stamps when it runs,
so the order its handlers run in is the order of its stamps; the ring's
ordering is the same code on every board, tests/test_inputs.py.)
"""

import pytest

from bench.capture_sweep import cases, run_case
from sim import rp2_dma

START_MS = 300_000
PAUSE_AT = 2_000  # left (White) thinks from 0 to the pause
END_AT = 7_000  # both times read here


@pytest.fixture(params=["credit", "level"])
def dreq(request):
    """The PIO's RX DREQ as one credit per push, or as a level (FIFO not empty)."""
    rp2_dma.set_dreq(request.param)
    yield request.param
    rp2_dma.set_dreq("credit")


def _expected(resume_ms, lever_ms):
    """The times at 7 s from the stamps: left charged 2 s before the pause and its turn
    from the resume to its lever; right running from the lever on."""
    left = START_MS - PAUSE_AT - (lever_ms - resume_ms)
    right = START_MS - (END_AT - lever_ms)
    return left, right, "right"


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("level", ["max", "typical"])
def test_a_resume_and_a_move_inside_an_erase_are_charged_at_their_edges_on_the_pico(
    seed, level, dreq
):
    for erase_at, resume_at, lever_at, bounce_ms in cases(seed, 10):
        found, _end = run_case("pico", level, erase_at, resume_at, lever_at, bounce_ms)
        case = (erase_at, resume_at, lever_at, bounce_ms)
        assert found == _expected(resume_at, lever_at), case


@pytest.mark.parametrize("offset_ms", [1, 2, 25, 30, 399])
def test_the_lever_a_few_milliseconds_after_the_resume_on_the_pico(offset_ms, dreq):
    """The port's own case: play at 4.0 s inside a 400 ms erase from 3.98 s, the lever
    ``offset_ms`` after it (30 ms: charged -14 ms on the port before the play key was
    stamped by the PIO)."""
    found, _end = run_case("pico", "max", 3_980, 4_000, 4_000 + offset_ms, 3)
    assert found == _expected(4_000, 4_000 + offset_ms)
