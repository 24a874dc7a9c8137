"""A script on a ready chip board (``python -m sim run --latency=LEVEL --ready``, sim/ready.py):
booted and its journal's ring prepared before the script's 0, played and read as the
real-port lane plays and reads its board."""

import os
import subprocess
import sys

import pytest

from firmware.tickmath import TICKS_PERIOD, ticks_diff
from sim import ready, vclock
from sim.runner import Game, run_files
from sim.script import parse
from tests.scripting import ROOT

SCENARIOS = os.path.join(ROOT, "tests", "scenarios")
START_AT_ONCE = "control 300+3\nat 0 press right\nat 5 expect state=running\n"


def _end_line(text, **options):
    lines = []
    status = run_files_text(text, lines.append, **options)
    return status, lines[-1].split(": end: ", 1)[-1]


def run_files_text(text, out, **options):
    from sim.runner import run_script

    return run_script("x.clock", text.encode(), out, **options)


def test_a_start_at_the_scripts_zero_is_taken_on_the_ready_pico_only():
    """The Pico from its power-up prepares its ring (11 blocks for 300+3) and refuses the
    press at 0; made ready first, it takes it, as the ideal board does."""
    status, line = _end_line(START_AT_ONCE, latency="typical")
    assert status == 1 and "state=setup" in line
    status, line = _end_line(START_AT_ONCE, latency="typical", ready=True)
    assert status == 0 and "state=running" in line and "running=left" in line
    assert line == _end_line(START_AT_ONCE)[1]


def test_the_scripts_zero_is_the_grids_first_tick_after_the_board_is_ready():
    game = Game(parse(START_AT_ONCE.encode()), "pico", latency="typical", ready=True)
    try:
        app = game.board.app
        period = app.hardware.ticker.period_ms
        assert not app.journal.store.is_preparing() and app.preparing == 0
        assert game.offset_ms > 0
        game.run_to(0)
        # on the grid the ticker keeps, started once the boot's calls are over (the chip's
        # tick then, as on the port: not the boot's 0)
        assert ticks_diff(vclock.ticks_ms(), app.hardware.ticker.grid) % period == 0
        assert game.board.latency.erases >= 11  # the ring's blocks, erased before the 0
        assert app.ready_at is None or ready.may_start(app)
    finally:
        game.close()


def test_the_preparations_limit_is_held_at_the_instant_and_not_one_ms_earlier():
    def board():
        return Game(parse(b"control 300+3\n"), "pico", latency="typical").board

    first = board()
    found = ready.ready_at_ms(first)
    assert found > 0 and ready.ready_at_ms(board(), limit_ms=found) == found
    with pytest.raises(ready.NotReady, match="still being prepared %d ms" % (found - 1)):
        ready.ready_at_ms(board(), limit_ms=found - 1)


def test_ticks_near_wrap_read_ten_seconds_before_the_wrap_at_the_scripts_zero():
    text = b"control 300\nticks near-wrap\nat 0 press right\nat 12 press left\n"
    game = Game(parse(text), "pico", latency="typical", ready=True)
    try:
        assert game.offset_ms > 0
        game.run_to(0)
        assert vclock.ticks_ms() == TICKS_PERIOD - vclock.NEAR_WRAP_MS
    finally:
        game.close()
    status, line = _end_line(text.decode(), latency="typical", ready=True)
    assert status == 0 and line == _end_line(text.decode())[1]


@pytest.mark.parametrize(
    "name",
    [
        "arbiter/add.clock",  # a press at the end's instant, on the grid
        "menus/edition.clock",  # pause and claim at one instant
        "timing/near-wrap-presses.clock",
        "speed/correct-add-150.clock",  # ends between two ticks: the next one's frames
    ],
)
def test_the_ready_pico_ends_where_the_ideal_board_ends(name):
    """Scripts that meet no preparation in them: statements at an instant come before the
    pass of that instant and the end is read after the passes it woke, as on the port,
    so the line is the ideal board's, charges and display and all. (In arbiter/add.clock
    an ``expect`` reads the board at 185 s before the press there: the instant's pass
    has run, its frames hold the loop, and the ``expect`` after the press sees it not
    yet taken, as the chip would; its last line is the ideal board's all the same.)"""
    path = os.path.join(SCENARIOS, name)
    ideal, chip = [], []
    run_files([path], out=ideal.append)
    status = run_files([path], out=chip.append, latency="typical", ready=True)
    assert status == (1 if name == "arbiter/add.clock" else 0)
    assert chip[-1] == ideal[-1]


def test_the_command_line_takes_ready_only_with_a_latency():
    path = os.path.join(SCENARIOS, "menus", "edition.clock")
    command = [sys.executable, "-m", "sim", "run"]
    done = subprocess.run(command + ["--ready", path], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "--ready takes --latency" in done.stderr
    done = subprocess.run(
        command + ["--latency=typical", "--ready", path], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0 and ": end: " in done.stdout
    helped = subprocess.run(command + ["--help"], cwd=ROOT, capture_output=True, text=True)
    assert "--ready" in helped.stdout
    assert run_files([path], out=lambda line: None, ready=True) == 2  # the lane's entry too


def test_both_lanes_print_the_same_ready_lines():
    from tests.scripting import PYTHON

    if not os.path.exists(os.path.join(ROOT, "tools", "mpy", "node_modules")):
        pytest.skip("MicroPython lane not installed: make setup")
    paths = [os.path.join(SCENARIOS, "timing", "near-wrap-presses.clock")]
    paths.append(os.path.join(SCENARIOS, "arbiter", "refuse-hourglass.clock"))
    lines = []
    for lane in ([], ["--mpy"]):
        command = [PYTHON, "-m", "sim", "run", *lane, "--latency=typical", "--ready", *paths]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0 and not done.stderr, done.stderr
        lines.append(done.stdout)
    assert lines[0] == lines[1] and lines[0].count(": end: ") == 2
