"""bench.port's arithmetic on the lane's documents, and the board data it hands the lane."""

import pytest

from bench import port
from boards import pico


def _run(longest, median):
    state = {"longestFrameGapMs": longest, "medianFrameGapMs": median}
    return {"states": {"firstMove": state}}


def test_a_frame_held_back_is_its_longest_gap_less_the_frames_rhythm():
    assert port._frame_delay(_run(1051.0, 1000.0), "firstMove") == 51.0
    assert port._frame_delay(_run(1000.0, 1000.0), "firstMove") == 0
    assert port._frame_delay(_run(900.0, None), "firstMove") == 0  # too few frames to say


def test_the_lane_gets_the_boards_own_pins_and_addresses():
    board = port.lane_board("pico")
    assert board["inputs"] == pico.INPUTS
    assert board["displays"] == [pico.DISPLAY_LEFT, pico.DISPLAY_RIGHT]
    assert board["i2c"] == pico.I2C_ID
    with pytest.raises(SystemExit, match="not an RP2040 board"):
        port.lane_board("esp32")


def test_the_standing_and_running_goals_are_the_issues():
    assert port.GOALS["standing"] == ("<= 0.01", "<= 3")
    assert port.GOALS["running"] == ("<= 0.02", "<= 12")
    assert port.FRAME_GAP_GOAL == "<= 50 ms"
