"""An hourglass against another control is refused, wherever a control comes from.

The hourglass gives the time one side uses to the other
(docs/spec/timing.md): with an hourglass on one side only, the other side's
time would grow while it thinks and fall back at its press. Such a pair has
no meaning in the timing rules, so the clock refuses it with a message: in
a script (exit 2), in the settings file (Err1), in a user slot (Err2), and
in the menus (through the settings).
"""

import json

import pytest

from firmware import settings, timecontrol
from tests.scripting import run_text
from tests.test_corrupt_files import listing

MIXED = [("60", "*20"), ("*20", "60"), ("*60", "3600j30x5"), ("40/5400+30:1800+30", "*300")]
PAIRS = [("*60", "*20"), ("60", "3600j30x5"), ("300+3", "3600c20/300")]


@pytest.mark.parametrize("left, right", MIXED)
def test_a_mixed_pair_is_refused_with_a_message(left, right):
    with pytest.raises(ValueError) as refused:
        timecontrol.check_pair(timecontrol.parse(left), timecontrol.parse(right))
    assert "an hourglass needs an hourglass on both sides" in str(refused.value)
    status, lines = run_text("control left=%s right=%s\nat 0 press right\n" % (left, right), "m")
    assert status == 2 and lines[0].startswith("m:1: controls cannot be played together")


@pytest.mark.parametrize("left, right", PAIRS)
def test_other_pairs_stay_legal(left, right):
    timecontrol.check_pair(timecontrol.parse(left), timecontrol.parse(right))
    status, _ = run_text("control left=%s right=%s\nat 0 press right\n" % (left, right))
    assert status == 0


def test_hourglass_against_hourglass_still_moves_time_across():
    # left *60, right *20, left White: left thinks 10 s -> left 50, right 30
    text = "control left=*60 right=*20\nat 0 press right\nat 10 expect left=0:50 right=0:30\n"
    assert run_text(text)[0] == 0


def test_a_mixed_settings_file_is_err1_with_the_defaults(boot_files):
    data = json.dumps({"control_left": "60", "control_right": "*20", "version": 1}).encode()
    board, folder = boot_files({"settings.json": data})
    assert board.display_text() == "Err1|Err1"
    assert board.app.settings.control_left == settings.DEFAULT_CONTROL
    assert "hourglass" in board.app.settings.error
    assert "settings.json.bad" in listing(folder)


def test_a_mixed_user_slot_is_err2(boot_files):
    good = json.dumps({"control_left": "300+3", "version": 1}).encode()
    slots = json.dumps({"4": {"control_left": "*60", "control_right": "300"}}).encode()
    board, folder = boot_files({"settings.json": good, "slots.json": slots})
    assert board.display_text() == "Err2|Err2"
    assert "slots.json.bad" in listing(folder)


def test_the_menus_cannot_make_a_mixed_pair():
    fresh = settings.Settings()
    with pytest.raises(ValueError):
        fresh.apply({"control_left": "*60", "control_right": "300"})
    assert fresh.control_left == settings.DEFAULT_CONTROL  # all or nothing
