"""Every clock script in tests/scenarios holds, on CPython and inside MicroPython alike.

A script whose first line is ``# expect-exit: N`` must end with status N
instead (a malformed script, say), with the same message on both lanes.
"""

import glob
import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.scripting import ROOT, run_cli, run_text

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "*.clock")))
NAMES = [os.path.relpath(path, ROOT) for path in SCENARIOS]


def expected_exit(name):
    with open(os.path.join(ROOT, name)) as handle:
        first = handle.readline().strip()
    if first.startswith("# expect-exit:"):
        return int(first.split(":", 1)[1])
    return 0


PLAYABLE = [name for name in NAMES if expected_exit(name) == 0]
REFUSED = [name for name in NAMES if expected_exit(name) != 0]


def test_there_are_scenarios():
    assert len(PLAYABLE) >= 30
    assert REFUSED


@pytest.mark.parametrize("name", NAMES)
def test_scenario_holds_on_cpython(name):
    with open(os.path.join(ROOT, name)) as handle:
        status, lines = run_text(handle.read(), name)
    assert status == expected_exit(name), "\n".join(lines)


def test_both_lanes_print_identical_state_lines():
    halves = [PLAYABLE[0::2], PLAYABLE[1::2]]  # the MicroPython lane in two processes
    with ThreadPoolExecutor(max_workers=2) as pool:
        micro = [pool.submit(run_cli, half, True) for half in halves]
        python = [run_cli(half) for half in halves]
        results = [job.result() for job in micro]
    ends = 0
    for (status_py, out_py, err_py), (status_mpy, out_mpy, err_mpy) in zip(
        python, results, strict=True
    ):
        assert status_py == 0, out_py + err_py
        assert status_mpy == 0, out_mpy + err_mpy
        assert out_mpy.splitlines() == out_py.splitlines()
        ends += out_py.count(": end: at=")
    assert ends == len(PLAYABLE)


@pytest.mark.parametrize("name", REFUSED)
def test_refused_scripts_say_the_same_on_both_lanes(name):
    status_py, out_py, _ = run_cli([name])
    status_mpy, out_mpy, _ = run_cli([name], mpy=True)
    assert status_py == status_mpy == expected_exit(name)
    assert out_py == out_mpy and out_py.startswith(name + ":")
