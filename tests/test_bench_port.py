"""bench.port's arithmetic on the lane's documents, and the board data it hands the lane."""

import json

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


def _ram(text):
    """The display RAM that shows the four characters of ``text`` (sim.ht16k33's table)."""
    from sim import ht16k33

    patterns = {char: pattern for pattern, char in ht16k33.CHARACTERS.items()}
    ram = [0] * 16
    for address, char in zip(ht16k33.DIGIT_BYTES, text, strict=True):
        ram[address] = patterns[char]
    return ram


def _frames(*shown):
    """Scene frames ``[ms, display, RAM]``, 100 ms apart, from ``(display, text)`` pairs."""
    return [[100 * (i + 1), chip, _ram(text)] for i, (chip, text) in enumerate(shown)]


def test_the_new_game_is_ready_at_the_first_frame_after_the_last_that_shows_preparation():
    frames = _frames(
        (0, "nEU "),
        (0, "PrEP"),
        (1, "  23"),
        (1, "  22"),
        (0, "PrEP"),
        (1, "   1"),
        (0, "1510"),
        (1, "1510"),
    )
    assert port.ready_after_ms(frames) == 700  # (0, "1510"): PrEP no longer shown
    # A frame of the other display while one still shows PrEP is not ready yet.
    frames = _frames((0, "PrEP"), (1, "   1"), (1, "1510"), (0, "1510"))
    assert port.ready_after_ms(frames) == 400
    assert port.ready_after_ms(_frames((0, "1510"), (1, "1510"))) == 0  # no preparation
    with pytest.raises(SystemExit, match="still being prepared"):
        port.ready_after_ms(_frames((1, "1510"), (0, "PrEP")))


def test_a_scene_boots_with_its_controls_settings_file():
    settings = port.scene_settings("pico", "last10")
    assert settings["settingsPath"] == "/settings.json"
    data = json.loads(bytes.fromhex(settings["settingsHex"]))
    assert data["control_left"] == data["control_right"] == "30"
    assert data["tenths"] is True and data["warn_last10"] is True
    rapid = json.loads(bytes.fromhex(port.scene_settings("pico", "newGame")["settingsHex"]))
    assert rapid["control_left"] == "900+10" and "tenths" not in rapid
