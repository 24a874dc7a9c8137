"""Every clock script of tests/scenarios (its topic folders) and of docs/pictures holds,
on CPython and inside MicroPython alike: CPython runs a step at every tick and reads the
state line before every statement (tests/test_observation.py), MicroPython sleeps over
the ticks the clock rests at, as the board does, and looks only where the script says,
and it prints the same lines.

A script whose first line is ``# expect-exit: N`` (the folder refused/) must end with
status N instead (a malformed script, say), with the same message on both lanes.

The scripts run in shards, one interpreter start a lane for each (tests/scripting.py:
ScenarioRuns); every test still checks one script, and a failure names it.
"""

import os

import pytest

from tests.scripting import (
    MICROPYTHON_STRIDE,
    expected_exit,
    micropython_sample,
    run_cli,
    scenario_names,
    shard_of,
)

NAMES = scenario_names()
PLAYABLE = [name for name in NAMES if expected_exit(name) == 0]
REFUSED = [name for name in NAMES if expected_exit(name) != 0]
# Inside MicroPython: a sample of every folder under make test, every script under
# make scenarios (SCENARIOS_MPY=all), which CI runs after make test.
IN_MICROPYTHON = micropython_sample(PLAYABLE, os.environ.get("SCENARIOS_MPY") == "all")
TOPICS = (
    "arbiter",
    "display",
    "flags",
    "games",
    "menus",
    "power",
    "refused",
    "speed",
    "timing",
)


def by_shard(names):
    """``names`` as parameters, each in its shard's group (one worker runs a shard)."""
    return [
        pytest.param(name, marks=pytest.mark.xdist_group(shard_of(name, NAMES))) for name in names
    ]


def test_there_are_scenarios():
    assert len(PLAYABLE) >= 30
    assert REFUSED


def test_every_script_sits_in_a_topic_folder():
    for name in NAMES:
        parts = name.split("/")
        if parts[0] == "tests":
            assert len(parts) == 4 and parts[2] in TOPICS, name
    assert all(name.split("/")[2] == "refused" for name in REFUSED if name.startswith("tests/"))


@pytest.mark.xdist_group(shard_of(NAMES[0], NAMES))
def test_each_shard_keeps_to_one_worker(request):
    """Under ``make test`` (``pytest -n N --dist loadgroup``) every test of a shard runs on
    the worker that played the shard, or each worker plays every shard again.
    pytest-xdist tells a group by a ``@group`` suffix it writes on the node id, which
    pytest 9.2 no longer takes (requirements.txt pins pytest below it)."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run by pytest -n N --dist loadgroup")
    assert request.node.nodeid.endswith("@" + shard_of(NAMES[0], NAMES)), (
        "pytest-xdist lost the shards' groups: " + request.node.nodeid
    )


@pytest.mark.parametrize("name", by_shard(NAMES))
def test_scenario_holds_on_cpython(name, scenario_runs):
    status, lines = scenario_runs.cpython(name)
    assert status == expected_exit(name), "\n".join(lines)


def test_the_micropython_sample_covers_every_folder():
    """Each folder of scripts has at least one played inside MicroPython by make test."""
    sampled = micropython_sample(PLAYABLE)
    folders = {os.path.dirname(name) for name in PLAYABLE}
    assert {os.path.dirname(name) for name in sampled} == folders
    # one in MICROPYTHON_STRIDE of each folder, its first included
    least = len(PLAYABLE) // MICROPYTHON_STRIDE
    assert least <= len(sampled) <= least + len(folders)
    assert micropython_sample(PLAYABLE, every=True) == PLAYABLE


@pytest.mark.parametrize("name", by_shard(IN_MICROPYTHON))
def test_micropython_prints_the_same_lines(name, scenario_runs):
    status_py, lines_py = scenario_runs.cpython(name)
    lines_mpy, (status_shard, err_shard) = scenario_runs.micropython(name)
    assert status_py == 0, "\n".join(lines_py)
    assert lines_mpy is not None, "no end line on MicroPython (status %d)\n%s" % (
        status_shard,
        err_shard,
    )
    assert lines_mpy == lines_py
    assert lines_py[-1].startswith(name + ": end: at=")


@pytest.mark.parametrize("name", REFUSED)
def test_refused_scripts_say_the_same_on_both_lanes(name):
    status_py, out_py, _ = run_cli([name])
    status_mpy, out_mpy, _ = run_cli([name], mpy=True)
    assert status_py == status_mpy == expected_exit(name)
    assert out_py == out_mpy and out_py.startswith(name + ":")
