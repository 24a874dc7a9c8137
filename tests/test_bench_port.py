"""bench.port's arithmetic on the lane's documents, and the board data it hands the lane."""

import pytest

from bench import port
from boards import pico


def _run(first_move, move, running):
    states = {"firstMove": first_move, "move": move, "running": running}
    return {"states": {name: {"dueFrameLatestMs": late} for name, late in states.items()}}


def test_a_due_frame_comes_late_by_the_longest_of_the_windows_in_play():
    assert port._latest_due_frame(_run(31.7, 17.9, 11.0)) == 31.7
    assert port._latest_due_frame(_run(3.0, 51.0, 11.0)) == 51.0


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
