"""The USB REPL shut while a hall file is on the flash (hal/repl_guard.py), on the
simulated Pico W: Ctrl-C is turned off at boot unless the owner holds ``set`` while the
clock powers on; without a hall file nothing changes."""

import json

import micropython
import pytest

from hall.clock import install_network
from sim import machine as sim_machine
from sim.world import SimBoard, fresh_flash, remove_flash

HALL_FILE = {"broker": "127.0.0.1", "port": 1, "board": 3, "ssid": "", "version": 1}


@pytest.fixture
def kbd_intr(monkeypatch):
    """MicroPython's ``kbd_intr`` (the simulator's ``micropython`` has none): its calls."""
    calls = []
    monkeypatch.setattr(micropython, "kbd_intr", calls.append, raising=False)
    return calls


def booted(hall_file, hold_set=False):
    install_network()
    flash = fresh_flash("300", "300")
    if hall_file is not None:
        with open(flash + "/hall.json", "w") as handle:
            handle.write(json.dumps(hall_file))
    board = SimBoard(flash, bounce_ms=3, board_name="pico_w")
    if hold_set:  # the contact closed (to ground) before and while the power comes
        sim_machine.drive(board.pin_of("set"), 0 if board.board.ACTIVE_LOW else 1)
    try:
        board.boot()
    finally:
        if hold_set:
            sim_machine.drive(board.pin_of("set"), None)
    return board, flash


@pytest.mark.parametrize(
    "hall_file, hold_set, calls",
    [
        (HALL_FILE, False, [-1]),  # a hall file: Ctrl-C shut
        (HALL_FILE, True, []),  # the owner holds set at power-on: the REPL stays open
        (None, False, []),  # no hall file: the clock as it always was
    ],
)
def test_ctrl_c_is_shut_with_a_hall_file_unless_the_owner_holds_set(
    kbd_intr, hall_file, hold_set, calls
):
    board, flash = booted(hall_file, hold_set)
    try:
        assert kbd_intr == calls
        if board.app.hall is not None:
            board.app.hall.close()
    finally:
        remove_flash(flash)
