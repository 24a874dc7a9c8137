"""``make help`` lists every target a person runs, each with every board it takes."""

import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Targets that are steps of others, not run by hand: the board arguments' check, the
# .mpy files of make mpy.
INTERNAL = {"board-args", "mpy-files"}


def targets():
    return set(re.findall(r"^([a-z][a-z-]*):", (ROOT / "Makefile").read_text(), re.M)) - INTERNAL


def help_lines():
    done = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_every_target_is_in_make_help():
    listed = {line.split()[1] for line in help_lines() if line.startswith("make ")}
    assert targets() - listed == set()
    assert {"test", "mutants", "deploy", "case"} <= targets()


def test_every_board_is_named_wherever_a_board_is_asked_for():
    # the simulator's board and the web page's are no hardware to build, flash or test
    not_hardware = {"__init__", "sim", "browser"}
    boards = {path.stem for path in (ROOT / "boards").glob("*.py")} - not_hardware
    assert {"pico", "pico_w", "pico_big", "esp32"} <= boards
    asking = [line for line in help_lines() if "BOARD=" in line]
    assert len(asking) >= 3  # case, deploy, selftest
    for line in asking:
        named = set(re.search(r"BOARD=([a-z0-9_|]+)", line).group(1).split("|"))
        assert named == boards, line
