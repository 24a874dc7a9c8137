"""The USB REPL shut while a hall file is on the flash (hal/repl_guard.py), on the
simulated Pico W: Ctrl-C is turned off by boot's first line and stays off unless the
owner holds ``set`` while the clock powers on; without a hall file it opens again. Ctrl-C
sent at every instant of the boot (``sim.ctrl_c``) reaches the REPL only before that
first line."""

import json
import sys

import micropython
import pytest

from hall.clock import install_network
from sim import ctrl_c
from sim import machine as sim_machine
from sim.world import SimBoard, fresh_flash, remove_flash

HALL_FILE = {"broker": "127.0.0.1", "port": 1, "board": 3, "ssid": "", "version": 1}


@pytest.fixture
def kbd_intr(monkeypatch):
    """MicroPython's ``kbd_intr`` (the simulator's ``micropython`` has none): its calls."""
    calls = []
    monkeypatch.setattr(micropython, "kbd_intr", calls.append, raising=False)
    return calls


def prepared(hall_file, hold_set=False):
    """A powered-off simulated Pico W with ``hall_file`` on its flash (None: none), the
    owner's key held if ``hold_set``; its flash's folder."""
    install_network()
    flash = fresh_flash("300", "300")
    if hall_file is not None:
        with open(flash + "/hall.json", "w") as handle:
            handle.write(json.dumps(hall_file))
    board = SimBoard(flash, bounce_ms=3, board_name="pico_w")
    if hold_set:  # the contact closed (to ground) before and while the power comes
        sim_machine.drive(board.pin_of("set"), 0 if board.board.ACTIVE_LOW else 1)
    return board, flash


def released(board, hold_set):
    if hold_set:
        sim_machine.drive(board.pin_of("set"), None)


def booted(hall_file, hold_set=False):
    board, flash = prepared(hall_file, hold_set)
    try:
        board.boot()
    finally:
        released(board, hold_set)
    return board, flash


@pytest.mark.parametrize(
    "hall_file, hold_set, final",
    [
        (HALL_FILE, False, -1),  # a hall file: Ctrl-C shut, and kept so
        (HALL_FILE, True, 3),  # the owner holds set at power-on: open again
        (None, False, 3),  # no hall file: the clock as it always was, once it knows
    ],
)
def test_ctrl_c_is_shut_with_a_hall_file_unless_the_owner_holds_set(
    kbd_intr, hall_file, hold_set, final
):
    board, flash = booted(hall_file, hold_set)
    try:
        assert kbd_intr[0] == -1 and kbd_intr[-1] == final, kbd_intr
        if board.app.hall is not None:
            board.app.hall.close()
    finally:
        remove_flash(flash)


# The lines the clock's code runs before Ctrl-C is shut (that line included): the
# figure, hal/boot.py's first ones (before, the shut came after the board, the settings,
# the app, the journal's resume and the hall's imports: 3,422 lines of 14,133 here).
SHUT_WITHIN = 3


def boot_with_ctrl_c(monkeypatch, send_at, hall_file=HALL_FILE, hold_set=False):
    serial = ctrl_c.Serial(send_at)
    monkeypatch.setattr(micropython, "kbd_intr", serial.kbd_intr, raising=False)
    # power-on: hal/boot.py is read again, its first lines run as on a board
    monkeypatch.delitem(sys.modules, "hal.boot", raising=False)
    interrupted = None
    board, flash = prepared(hall_file, hold_set)
    try:
        with serial.tracing():  # the power comes: the instants of the clock's code
            try:
                board.boot()
            except KeyboardInterrupt as error:
                interrupted = error
        if interrupted is None and board.app.hall is not None:
            board.app.hall.close()
    finally:
        released(board, hold_set)
        remove_flash(flash)
    return serial, interrupted


def test_a_ctrl_c_at_any_instant_of_the_boot_reaches_the_repl_only_before_its_first_line(
    monkeypatch,
):
    whole, interrupted = boot_with_ctrl_c(monkeypatch, None)
    assert interrupted is None and whole.instants > 1000
    assert whole.shut_at == SHUT_WITHIN
    # Every instant from the shut to the end of the boot: a Ctrl-C there is a byte.
    assert whole.open_instants == list(range(SHUT_WITHIN)), whole.open_instants[:10]
    # Sent there: before the shut it interrupts; at the shut and after it never does
    # (each instant up to 40 past it, then every 97th to the end: the boot's steps).
    instants = list(range(SHUT_WITHIN + 40)) + list(range(SHUT_WITHIN + 40, whole.instants, 97))
    for instant in instants:
        serial, interrupted = boot_with_ctrl_c(monkeypatch, instant)
        if instant < SHUT_WITHIN:
            assert interrupted is not None, instant
        else:
            assert interrupted is None and serial.dropped == 1, instant
            assert serial.char == -1  # still shut once booted


@pytest.mark.parametrize("hall_file, hold_set", [(None, False), (HALL_FILE, True)])
def test_without_the_secrets_or_with_set_held_the_repl_opens_again(
    monkeypatch, hall_file, hold_set
):
    serial, interrupted = boot_with_ctrl_c(monkeypatch, None, hall_file, hold_set)
    assert interrupted is None and serial.char == ctrl_c.CTRL_C
    assert serial.shut_at == SHUT_WITHIN
