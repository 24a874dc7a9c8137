"""Test setup: the repository root on the import path, and the fixtures the suites
share: the scenario scripts run once a lane, a booted simulated board, a fresh flash."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
# Keep compiled modules (git-ignored __pycache__) in this process and the ones it
# starts: a boot lets modules go and imports them again, each time compiled anew
# where the environment forbids the cache.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# ...and keep the code of those modules once read (sim/code_cache.py).
from sim import code_cache  # noqa: E402

code_cache.install()


@pytest.fixture(scope="session", autouse=True)
def _runs_shared_between_workers(tmp_path_factory):
    """One folder for the whole run, which every test worker sees (each worker's own
    temporary folder lies in it): there ``tests.scripting.once_per_run`` keeps what one
    worker computed for all."""
    from tests.scripting import share_between_workers

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    share_between_workers(str(base / "shared-runs"))


@pytest.fixture(scope="session")
def scenario_runs():
    """Every scenario script's lines on both lanes, run a shard at a time on demand
    (tests/scripting.py: ScenarioRuns)."""
    from tests.scripting import ScenarioRuns, micropython_sample, scenario_names

    names = scenario_names()
    every = os.environ.get("SCENARIOS_MPY") == "all"
    return ScenarioRuns(names, micropython_sample(names, every))


@pytest.fixture
def boot_board():
    """``boot_board(control, adc_u16=None, board_name="sim", rests=True)``: a `sim` board
    booted on a fresh flash in virtual time (tests/hardware_helpers.py: Booted), stopped
    and its flash removed after the test."""
    from tests.hardware_helpers import Booted

    made = []

    def boot(control, adc_u16=None, board_name="sim", rests=True):
        booted = Booted(control, adc_u16=adc_u16, board_name=board_name, rests=rests)
        made.append(booted)
        return booted

    yield boot
    for booted in reversed(made):
        booted.close()


@pytest.fixture
def flash_with():
    """``flash_with(files, control=None)``: a fresh simulated flash (a folder) with the
    clock's settings for ``control`` (sim.world.fresh_flash), then ``files`` ({name:
    bytes}) written on it; removed after the test."""
    from sim.world import fresh_flash, remove_flash

    made = []

    def make(files=None, control=None):
        folder = fresh_flash(control)
        made.append(folder)
        for name, data in (files or {}).items():
            with open(os.path.join(folder, name), "wb") as handle:
                handle.write(data)
        return folder

    yield make
    for folder in made:
        remove_flash(folder)


@pytest.fixture
def boot_files(flash_with):
    """``boot_files(files)``: the `sim` board booted on a fresh flash holding ``files``
    ({name: bytes}); returns (board, flash folder), removed after the test."""
    from sim.world import SimBoard

    def boot(files):
        folder = flash_with(files)
        board = SimBoard(folder)
        board.boot()
        return board, folder

    return boot


@pytest.fixture(scope="session")
def web_site():
    """(server, browser) for the web page's tests: build/web/ built and served on the
    loopback (web/harness.py), and one headless chromium for all of them (its start
    costs seconds); skips, naming the target that installs chromium, without it."""
    from hall import screenshot

    if screenshot.chromium() is None:
        pytest.skip("Debian's chromium is not installed: make hall-tools")
    from hall.devtools import Browser
    from web import harness

    with harness.SiteServer() as server, Browser(screenshot.chromium(), timeout_s=60) as browser:
        yield server, browser
