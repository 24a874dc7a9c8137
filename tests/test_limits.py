"""What the clock cannot hold or show is refused when the script is read.

So every well-formed script ends within seconds on both lanes (docs/spec/scripts.md,
"Limits", lists them). Each limit is tested just inside (parsed)
and just outside (exit 2 naming the line, the same on both lanes).
"""

import pytest

from sim import runner
from sim import script as script_module
from sim.script import ScriptError, parse
from tests.scripting import run_on_both_lanes, run_text

PAUSED = "control 300\nat 0 press right\nat 1 pause\n"  # left to move, paused at 1 s

# (name, inside, outside, line of the refusal, words)
LIMITS = [
    (
        "script time",
        "control 300\nat 86400 show\n",
        "control 300\nat 86400.001 show\n",
        2,
        "86400 s",
    ),
    (
        "a huge time",
        "control 300\nat 000000000000004 show\n",
        "control 300\nat 1000000000 show\n",  # 10 digits: one more than a number may have
        2,
        "more than a clock can hold",
    ),
    ("hold", "control 300\nat 0 hold set 60\n", "control 300\nat 0 hold set 60.001\n", 2, "60 s"),
    (
        "add",
        PAUSED + "at 2 add left +9:59:59\n",
        PAUSED + "at 2 add left +10:00:00\n",
        4,
        "at most 9:59:59",
    ),
    ("add, huge", PAUSED, PAUSED + "at 2 add left +99999999:00\n", 4, "add: at most 9:59:59"),
    ("setmoves", PAUSED + "at 2 setmoves 9999\n", PAUSED + "at 2 setmoves 10000\n", 4, "9999"),
    ("setmoves, huge", PAUSED, PAUSED + "at 2 setmoves 99999999\n", 4, "9999"),
    (
        "the arbiter's key sequences count",
        # 2.42 + (9999 + 1 + 5) x 0.4 = 4004.42 s of keys: 82395.58 + 4004.42 = 86400 s
        PAUSED + "at 82395.58 setmoves 9999\n",
        PAUSED + "at 82395.581 setmoves 9999\n",  # 1 ms over 24 h
        4,
        "86400.001 s of virtual time (4004.420 s of it the arbiter's key sequences",
    ),
    (
        "periods",
        "control 1/60:1/60:1/60:1/60:1/60:1/60:1/60:1/60:60\n",
        "control 1/60:1/60:1/60:1/60:1/60:1/60:1/60:1/60:1/60:60\n",
        1,
        "more than 9 periods",
    ),
    (
        "byo-yomi periods",
        "control 60j30x999\n",
        "control 60j30x1000\n",
        1,
        "period count 1000 is more than 999",
    ),
    (
        "Canadian moves",
        "control 60c999/300\n",
        "control 60c1000/300\n",
        1,
        "move count 1000 is more than 999",
    ),
    ("period moves", "control 999/60:60\n", "control 1000/60:60\n", 1, "1000 is more than 999"),
    ("start time", "control 35999\n", "control 36000\n", 1, "9:59:59"),
    ("increment", "control 300+60\n", "control 300+61\n", 1, "increment of 61 s is over 60 s"),
    ("delay", "control 300d60\n", "control 300d61\n", 1, "delay of 61 s is over 60 s"),
    ("Bronstein", "control 300b60\n", "control 300b61\n", 1, "delay of 61 s is over 60 s"),
    ("byo-yomi period", "control 60j35999x5\n", "control 60j36000x5\n", 1, "9:59:59"),
    ("Canadian block", "control 60c5/35999\n", "control 60c5/36000\n", 1, "9:59:59"),
    ("hourglass", "control *35999\n", "control *36000\n", 1, "9:59:59"),
    # the lower bounds: at least one of each
    ("a period's moves, fewest", "control 1/60:60\n", "control 0/60:60\n", 1, "move count of 0"),
    ("byo-yomi periods, fewest", "control 60j30x1\n", "control 60j30x0\n", 1, "at least one"),
    ("byo-yomi period, shortest", "control 60j1x5\n", "control 60j0x5\n", 1, "at least 1 s"),
    ("Canadian moves, fewest", "control 60c1/300\n", "control 60c0/300\n", 1, "at least 1 move"),
    ("Canadian block, shortest", "control 60c1/1\n", "control 60c1/0\n", 1, "at least 1 s"),
    ("hourglass, shortest", "control *1\n", "control *0\n", 1, "no time at the start"),
    ("bounce", "control 300\nbounce 50\n", "control 300\nbounce 51\n", 2, "bounce over 50 ms"),
    ("bounce, huge", "control 300\nbounce 0\n", "control 300\nbounce 999999999999\n", 2, "50 ms"),
    (
        "mixed hourglass",
        "control left=*60 right=*20\n",
        "control left=60 right=*20\n",
        1,
        "an hourglass needs an hourglass on both sides",
    ),
]


@pytest.mark.parametrize("name, inside, outside, line, words", LIMITS, ids=[c[0] for c in LIMITS])
def test_a_limit_holds_inside_and_refuses_outside(name, inside, outside, line, words):
    parse(inside)
    with pytest.raises(ScriptError) as refused:
        parse(outside)
    assert refused.value.line == line
    assert words in refused.value.message


def test_a_number_of_nine_digits_is_read_and_one_of_ten_is_not():
    # docs/spec/scripts.md: a number in a statement has at most 9 digits (leading zeros
    # aside); nine are read, and refused only for the 24 h they would run
    assert script_module._MAX_DIGITS == 9
    with pytest.raises(ScriptError) as refused:
        parse("control 300\nat 0999999999 show\n")
    assert refused.value.message.startswith("the script would run 999999999.000 s")
    with pytest.raises(ScriptError) as refused:
        parse("control 300\nat 1000000000 show\n")
    assert refused.value.message == "time: '1000000000' is more than a clock can hold"


def test_the_number_of_timed_statements_is_bounded():
    most = "control 300\n" + "at 1 show\n" * script_module.MAX_STATEMENTS
    assert len(parse(most).statements) == script_module.MAX_STATEMENTS
    with pytest.raises(ScriptError) as refused:
        parse(most + "at 1 show\n")
    assert refused.value.line == script_module.MAX_STATEMENTS + 2
    assert "more than 10000 timed statements" in refused.value.message


def test_a_file_larger_than_a_script_may_be_is_refused():
    big = b"control 300\n" + b"# " + b"x" * script_module.MAX_BYTES + b"\n"
    status, lines = run_text(big, "big.clock")
    assert status == 2 and lines == ["big.clock:2: the script is longer than 1000000 bytes"]


def test_the_budget_uses_the_runners_own_key_timing():
    assert script_module.KEY_STEP_MS == runner.PRESS_CONTACT_MS + runner.PRESS_GAP_MS
    assert script_module.LONG_STEP_MS == runner.LONG_HOLD_MS + runner.PRESS_GAP_MS


def test_moves_made_by_presses_count_toward_a_later_setmoves():
    # 3001 presses may make 3001 moves; setmoves 0 may then need 3001 presses of minus:
    # 2.42 + (3001 + 1 + 5) x 0.4 = 1205.22 s of key sequences, + 85500 s of script: over 24 h;
    # without the presses' moves 85500 + 2.42 + 6 x 0.4 = 85504.82 s would pass
    lines = ["control 300+60", "at 0 press right"]
    for number in range(3000):
        lines.append("at %d press %s" % (number + 1, "left" if number % 2 == 0 else "right"))
    lines.append("at 85500 pause")
    lines.append("at 85500 setmoves 0")
    with pytest.raises(ScriptError) as refused:
        parse("\n".join(lines) + "\n")
    assert refused.value.line == len(lines)
    assert (
        "86705.220 s of virtual time (1205.220 s of it the arbiter's key sequences"
        in refused.value.message
    )


def test_both_lanes_refuse_alike(tmp_path):
    scripts = [("limit-%02d.clock" % i, limit[2]) for i, limit in enumerate(LIMITS)]
    status, lines = run_on_both_lanes(tmp_path, scripts)
    assert status == 2
    assert len(lines) == len(LIMITS)
    for text, (_, _, _, line, words) in zip(lines, LIMITS, strict=True):
        assert ".clock:%d: " % line in text and words in text


LONG_WORD = "x" * 100_000  # one word: reading it a character at a time is quadratic


def test_a_line_is_at_most_1000_bytes():
    at_most = "control 300\nat 1 show #" + "y" * (1000 - len("at 1 show #")) + "\n"
    assert len(at_most.split("\n")[1]) == 1000
    parse(at_most)
    parse(at_most.replace("\n", "\r\n"))  # the line end is not part of the line
    for over in (at_most.replace("#", "#y"), "control 300\n# " + "é" * 500 + "\n"):
        with pytest.raises(ScriptError) as refused:
            parse(over)
        assert refused.value.line == 2
        assert refused.value.message == "the line is longer than 1000 bytes"


def test_long_lines_are_refused_at_once_and_alike_on_both_lanes(tmp_path):
    # A 100,000-character word once took the MicroPython lane 45 s and all its memory.
    scripts = [
        ("word.clock", "control 300\nat 0 key " + LONG_WORD + "\n"),
        ("quoted.clock", 'control 300\nat 0 expect display="' + LONG_WORD + '"\n'),
        ("comment.clock", "control 300\nat 0 show # " + LONG_WORD + "\n"),
        ("control.clock", "control " + LONG_WORD + "\n"),
    ]
    status, lines = run_on_both_lanes(tmp_path, scripts)
    assert status == 2
    expected = ["the line is longer than 1000 bytes"] * 4
    assert [line.split(":", 2)[2].strip() for line in lines] == expected
    assert [line.split(":")[1] for line in lines] == ["2", "2", "2", "1"]
