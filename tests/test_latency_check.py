"""The latency check of ``make selftest`` (hal/latency_check.py), run on the simulated board.

The simulated board joins each probe output to its lever with a wire
(``sim.machine.jumper``) and times the check's journal programs and frames
with the chip's latency model (sim/latency.py). The expected errors are
worked out from the datasheets' figures (boards/chips/): the probe closes a
lever 0 to 5 whole ms after the work (a page program, then a frame to each
display) starts, and an edge inside a call that holds the handler back is
stamped at the call's end, in whole ms. Then the check must see the faults
it is there for: an erase in play, a handler that stamps late, no jumper.
"""

import os
import subprocess
import sys
import types

import pytest

import boards
from hal import board_check, edges
from sim import latency_check, vclock
from sim import machine as sim_machine
from tests.scripting import compiled_firmware, run_once

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRESSES = 200


def test_the_pico_stamps_every_close_within_a_millisecond_at_typical_figures():
    """W25Q16JV page program 0.7 ms typical: an edge at a whole ms inside the work is
    at its start, before any call holds it: every close stamped on its tick."""
    figures = latency_check.run("pico", "typical", presses=PRESSES)
    assert figures["stamped"] == PRESSES and figures["missed"] == 0
    assert figures["worst_ms"] <= 1
    assert figures["worst_ms"] == 0 and figures["median_ms"] == 0
    assert figures["erases_in_play"] == 0
    assert figures["journal_entries"] == PRESSES  # each close under a page program


def test_at_the_maxima_a_page_program_holds_an_edge_back_to_its_end():
    """Page program 3 ms max on the Pico (interrupts off): the check's timer, held back
    with the interrupts, closes the probe 1 ms into it at 3 ms, and the lever's stamp
    (the PIO's, exact) is of that close: 2 ms late, the timer's lateness, not the
    stamp's (the check reports more than the truth, never less). On the ESP32 only the
    entry's 68 bytes are programmed, two of ESP-IDF's programs of at most 64 bytes,
    1.6 ms at the maxima (an estimate, boards/chips/esp32.py): the soft handler runs as
    they return, so an edge 1 ms in is stamped 0.6 ms late, in the same whole ms (a
    whole page, four programs and 3.2 ms, stamped it 2 ms late). Both within the
    clock's 3 ms."""
    pico = latency_check.run("pico", "max", presses=PRESSES)
    esp32 = latency_check.run("esp32", "max", presses=PRESSES)
    assert (pico["worst_ms"], esp32["worst_ms"]) == (2, 0)
    assert pico["median_ms"] == 0 and esp32["median_ms"] == 0
    assert pico["erases_in_play"] == esp32["erases_in_play"] == 0


@pytest.mark.parametrize("board_name", ["pico_w", "pico_big"])
def test_the_other_rp2040_boards_see_what_the_pico_sees(board_name):
    assert latency_check.run(board_name, "max", presses=60)["worst_ms"] == 2


def test_an_erase_in_play_shows_as_a_large_error():
    """The journal in its littlefs slot files instead of its ring: a 4 KiB erase every
    16 entries (a 256-byte program each; each compaction programs the live metadata
    again, entry by entry: the check's flash holds only the two slot files, 256 bytes
    with the superblock, so 16 commits a block; the port's 15 are with the settings and
    the header too), 45 ms at the W25Q16JV's typical figure; a close 1 to 5 ms into it
    is stamped at its end, 40 to 44 ms late."""
    figures = latency_check.run("pico", "typical", presses=PRESSES, ring=False)
    assert PRESSES // 16 <= figures["erases_in_play"] <= PRESSES // 16 + 1
    assert 40 <= figures["worst_ms"] <= 44
    assert "over the bound" in latency_check.describe("pico", "typical", figures)
    assert latency_check.main(["pico", "typical", "--no-ring", "--presses=50"]) == 1


def test_a_handler_that_stamps_late_is_seen(monkeypatch):
    """An edge handler reading a tick 5 ms late: every close 5 ms late, even on an
    ideal board (the ESP32's: its levers are stamped by the pin handler; a Pico's by the
    PIO, which the handler's tick does not touch)."""
    monkeypatch.setattr(edges, "ticks_ms", lambda: vclock.ticks_ms() + 5)
    assert latency_check.run("pico", None, presses=40)["worst_ms"] == 0
    figures = latency_check.run("esp32", None, presses=40)
    assert (figures["worst_ms"], figures["median_ms"], figures["stamped"]) == (5, 5, 40)


def test_without_the_jumpers_the_check_says_which_to_fit():
    figures = latency_check.run("pico", "typical", presses=PRESSES, jumpered=False)
    assert figures["stamped"] == 0 and figures["missed"] == 3  # it gives up after three
    line = latency_check.describe("pico", "typical", figures)
    assert "fit the jumpers GP10 to GP14 and GP11 to GP15" in line
    figures = latency_check.run("esp32", None, presses=10, jumpered=False)
    assert "GPIO4 to GPIO32 and GPIO13 to GPIO33" in latency_check.describe("esp32", None, figures)


def test_a_push_pull_probe_would_short_a_pressed_lever():
    """The simulated wire refuses an output that drives high into a lever's line."""
    sim_machine.reset()
    try:
        sim_machine.jumper(10, 14)
        sim_machine.Pin(14, sim_machine.Pin.IN, sim_machine.Pin.PULL_UP)
        probe = sim_machine.Pin(10, sim_machine.Pin.OPEN_DRAIN, value=1)
        assert sim_machine.pin_level(14) == 1
        probe.value(0)
        assert sim_machine.pin_level(14) == 0
        with pytest.raises(ValueError, match="open-drain"):
            sim_machine.Pin(10, sim_machine.Pin.OUT, value=1)
    finally:
        sim_machine.reset()


def _board_with(**fields):
    board = boards.load("pico")
    module = types.SimpleNamespace(**{k: getattr(board, k) for k in dir(board) if k.isupper()})
    for name, value in fields.items():
        setattr(module, name, value)
    return module


def test_every_board_has_two_spare_probe_outputs():
    for name in latency_check.BOARDS:
        board = boards.load(name)
        assert set(board.LATENCY_PROBE_PINS) == {"lever_left", "lever_right"}
        assert board_check.check(board) == []


def test_a_probe_on_a_pin_in_use_is_refused():
    problems = board_check.check(_board_with(LATENCY_PROBE_PINS={"lever_left": 13, "play": 10}))
    assert "GPIO13 is used twice: BUZZER_PIN and LATENCY_PROBE_PINS[lever_left]" in problems
    assert "LATENCY_PROBE_PINS names 'play', not a lever" in problems


def test_bad_arguments_are_refused():
    assert latency_check.main(["stm32"]) == 2
    assert latency_check.main(["--presses=0"]) == 2


NEEDS_LANE = pytest.mark.skipif(
    not os.path.isdir(os.path.join(ROOT, "tools", "mpy", "node_modules")),
    reason="the MicroPython lane is not set up (make setup)",
)


@NEEDS_LANE
@pytest.mark.parametrize("compiled", [False, True])
def test_the_check_prints_the_same_lines_inside_micropython(compiled):
    words = ["pico", "esp32", "typical", "max", "--presses=60"]
    # the host's lines, played once in the test run for both parameters (run_once)
    here_status, here_stdout, _ = run_once([sys.executable, "-m", "sim", "latency", *words])
    if compiled:
        compiled_firmware()
    lane = subprocess.run(
        ["node", "tools/mpy/run.mjs", *(["--compiled"] if compiled else []), "sim.latency_check"]
        + words,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert here_status == lane.returncode == 0, lane.stderr
    assert here_stdout.splitlines() == lane.stdout.splitlines()
    assert len(here_stdout.splitlines()) == 4


# --- make selftest LATENCY=1 -------------------------------------------------

SCRIPT = "tests/scenarios/timing/periods-fide-standard.clock"


class Board:
    """Stands in for mpremote and a board: the scripts' lines for ``run``, ``latency``
    (the check's output) for the exec that runs the check."""

    def __init__(self, latency):
        self.latency = latency
        self.commands = []

    def __call__(self, command, **options):
        self.commands.append(command)
        stdout = ""
        if "run" in command:
            stdout = "selftest 1 scripts on rp2\n%s: end: ok\nselftest: status 0, 1 scripts\n" % (
                SCRIPT
            )
        elif "latency_check" in command[-1]:
            stdout = self.latency
        return types.SimpleNamespace(returncode=0, stdout=stdout, stderr="")


def _selftest(monkeypatch, latency, extra=("--latency",)):
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import selftest

    monkeypatch.setattr(selftest, "expected_lines", lambda scripts: ([SCRIPT + ": end: ok"], 0))
    board = Board(latency)
    lines = []
    status = selftest.main(
        ["--board", "pico", "--port", "/dev/ttyACM0", "--frozen", "--reset-wait", "0"]
        + list(extra)
        + [SCRIPT],
        run_command=board,
        out=lines.append,
        port_exists=lambda port: True,
    )
    return status, lines, board.commands


def _board_line(presses=30, **options):
    from hal import latency_check as board_check_module

    figures = latency_check.run("pico", "max", presses=presses, **options)
    return board_check_module.report(boards.load("pico"), figures, "pico") + "\r\n"


def test_selftest_runs_the_check_after_the_scripts_and_prints_its_line(monkeypatch):
    line = _board_line()
    status, lines, commands = _selftest(monkeypatch, "some output\r\n" + line)
    assert status == 0, lines
    assert [c[3] for c in commands] == ["exec", "exec", "exec", "exec"]
    assert "run" in commands[1] and "latency_check.main('pico')" in commands[2][4]
    assert "hold.txt" in commands[3][4]  # the clock is held until the check is over
    assert lines[-1] == line.strip()
    assert "worst 2 ms, median 0 ms" in lines[-1]


def test_selftest_fails_on_a_check_over_its_bound_or_without_a_result(monkeypatch):
    status, lines, _ = _selftest(monkeypatch, _board_line(PRESSES, ring=False))
    assert status == 1 and "over the bound" in lines[-1]
    status, lines, _ = _selftest(monkeypatch, _board_line(jumpered=False))
    assert status == 1 and "fit the jumpers GP10 to GP14 and GP11 to GP15" in lines[-1]
    status, lines, _ = _selftest(monkeypatch, "Traceback (most recent call last):\n")
    assert status == 1 and "selftest: the latency check printed no result:" in lines


def test_selftest_without_latency_runs_no_check(monkeypatch):
    status, lines, commands = _selftest(monkeypatch, "", extra=())
    assert status == 0 and len(commands) == 3
    assert not any("latency" in line for line in lines)


@NEEDS_LANE
def test_the_timer_handler_allocates_nothing_inside_micropython():
    """The probe's timer handler runs with the heap locked (the .mpy files)."""
    compiled_firmware()
    done = subprocess.run(
        ["node", "tools/mpy/run.mjs", "--compiled", "sim.latency_check", "--handler-heap"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.stdout.strip() == "timer handler with the heap locked: True", done.stderr


def test_a_stamp_before_its_close_says_a_lever_was_pressed_by_hand():
    from hal import latency_check as board_side

    figures = latency_check.run("pico", "typical", presses=20)
    assert board_side.verdict_ok(figures)
    figures["earliest_ms"] = -12  # a stamp 12 ms before the probe closed: a hand on the lever
    assert not board_side.verdict_ok(figures)
    line = board_side.report(boards.load("pico"), figures, "pico")
    assert line.endswith(": a lever was pressed during the check (bound 3 ms)")
