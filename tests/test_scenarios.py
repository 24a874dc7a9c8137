"""Every clock script in tests/scenarios holds, on CPython and inside MicroPython alike."""

import glob
import os

import pytest

from tests.scripting import ROOT, run_cli, run_text

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "*.clock")))
NAMES = [os.path.relpath(path, ROOT) for path in SCENARIOS]


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 30


@pytest.mark.parametrize("name", NAMES)
def test_scenario_holds_on_cpython(name):
    with open(os.path.join(ROOT, name)) as handle:
        status, lines = run_text(handle.read(), name)
    assert status == 0, "\n".join(lines)


def test_both_lanes_print_identical_state_lines():
    status_py, out_py, err_py = run_cli(NAMES)
    status_mpy, out_mpy, err_mpy = run_cli(NAMES, mpy=True)
    assert status_py == 0, out_py + err_py
    assert status_mpy == 0, out_mpy + err_mpy
    assert out_mpy.splitlines() == out_py.splitlines()
    assert out_py.count(": end: at=") == len(NAMES)
