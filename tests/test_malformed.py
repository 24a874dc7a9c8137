"""Malformed scripts end with exit 2 and a message naming the line, never a traceback."""

import pytest

from tests.scripting import run_cli, run_text

CASES = [
    ("control 300\nat 0 jump left\n", 2, "unknown action 'jump'"),
    ("control 300\nfrobnicate 3\n", 2, "unknown statement 'frobnicate'"),
    ("control 300\nat 5 press left\nat 4 press right\n", 3, "time goes backwards"),
    ("at 0 press left\n", 0, "no control statement"),
    ("control 0\nat 0 press left\n", 1, "no time at the start"),
    ("control 300\nat 0 expect colour=left\n", 2, "unknown field 'colour'"),
    ("control 300\nat 0 press middle\n", 2, "expected: press left|right"),
    ("control 300\nat 0 expect left=abc\n", 2, "left:"),
    ("control 300\nat 1.2345 show\n", 2, "at most 3 decimals"),
    ("control 300\nat 0 show\ncontrol 60\n", 3, "after the first 'at'"),
    ("control left=300\n", 1, "needs both sides"),
    ("control 300\nquickplay g7\n", 2, "quickplay must be one of"),
    ('control 300\nat 0 expect display=" 5.00\n', 2, "unclosed double quote"),
    ("control 300\nquickplay g4-increment\nedition older\n", 3, "no 5-second mode"),
    ("control 300\nat 0 decide maybe\n", 2, "decide must be one of"),
    ("control 300\nat 0 add left 2:00\n", 2, "+DURATION or -DURATION"),
    ("control 300\nat 0 add left +2:75\n", 2, "seconds must be under 60"),
    ("control 300\nat 0 setmoves -1\n", 2, "expected: setmoves N"),
    ("control 300\nat 0 power on\n", 2, "the power is already on"),
    ("control 300\nat 0 power off\nat 1 power off\n", 3, "the power is already off"),
    ("control 300\nat 0 power off\nat 1 pause\n", 3, "'pause' needs the clock on"),
    ("control 300\nat 0 power down\n", 2, "expected: power off|on"),
    ("control 300\nbounce -3\n", 2, "bounce MS"),
]


@pytest.mark.parametrize("text, line, words", CASES)
def test_malformed_in_process(text, line, words):
    status, lines = run_text(text, "bad.clock")
    assert status == 2
    assert lines == ["bad.clock:%d: %s" % (line, lines[0].split(": ", 1)[1])]
    assert words in lines[0]


@pytest.mark.parametrize("mpy", [False, True])
def test_malformed_through_the_command_line(tmp_path, mpy):
    files = []
    for number, (text, _, _) in enumerate(CASES):
        bad = tmp_path / ("bad%02d.clock" % number)
        bad.write_text(text)
        files.append(str(bad))
    status, out, err = run_cli(files, mpy)
    assert status == 2
    lines = out.splitlines()
    assert len(lines) == len(CASES)
    for line, (_, number, words) in zip(lines, CASES, strict=True):
        assert ".clock:%d: " % number in line and words in line
    assert "Traceback" not in out + err


def test_nothing_runs_in_a_malformed_script():
    status, lines = run_text("control 300\nat 0 show\nat 1 jump\n", "bad.clock")
    assert status == 2 and len(lines) == 1  # the show of line 2 never printed


def test_unknown_key_name_is_a_script_error():
    status, lines = run_text("control 300\nat 0 show\nat 1 key turbo\n", "bad.clock")
    assert status == 2 and len(lines) == 1
    assert lines[0].startswith("bad.clock:3: no key 'turbo'; the keys are lever_left,")


def test_failed_expect_prints_line_expectation_and_state():
    status, lines = run_text("control 300\nat 0 press right\nat 10 expect left=4:51 moves=0\n")
    assert status == 1
    assert lines[0] == "inline.clock:3: expect failed: left=0:04:51.000"
    assert lines[1].startswith("  actual: at=10.000 state=running left=0:04:50.000")
