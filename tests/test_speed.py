"""The speed/*.clock scripts are those of tests/speed_scripts.py (every documented
procedure at 0.15, 0.25 and 0.35 s a key), and each holds at every pace; they are
played on both lanes with the other scenarios (tests/test_scenarios.py)."""

import glob
import os

from tests import speed_scripts
from tests.scripting import ROOT
from tests.test_scenarios import PLAYABLE

FOLDER = os.path.join(ROOT, "tests", "scenarios", "speed")


def test_the_committed_scripts_are_the_generated_ones():
    generated = dict(speed_scripts.names())
    committed = {
        os.path.basename(path): path for path in glob.glob(os.path.join(FOLDER, "*.clock"))
    }
    assert sorted(committed) == sorted(generated), "run: python -m tests.speed_scripts"
    for name, text in generated.items():
        with open(committed[name]) as handle:
            assert handle.read() == text, name + ": run python -m tests.speed_scripts"


def test_every_procedure_at_three_paces():
    # Each script holds: tests/test_scenarios.py plays every committed one (the same
    # text, checked above) on both lanes; here, that every one of them is played there.
    assert speed_scripts.GAPS_MS == (150, 250, 350)
    assert len(speed_scripts.PROCEDURES) >= 15
    played = set(PLAYABLE)
    for name, _ in speed_scripts.names():
        assert "tests/scenarios/speed/" + name in played, name


def test_the_expected_values_do_not_follow_the_pace():
    # Every pace of a procedure checks the same fields with the same values.
    for entry in speed_scripts.PROCEDURES:
        checks = set()
        for gap in speed_scripts.GAPS_MS:
            text = speed_scripts.script(entry[0], gap)
            checks.add(
                tuple(line.split(" expect ")[1] for line in text.splitlines() if " expect " in line)
            )
        assert len(checks) == 1, entry[0]
