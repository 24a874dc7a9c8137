"""An arbiter statement that cannot apply never presses on (docs/spec/scripts.md).

``decide`` with no claim open or postponed, ``claim``/``add``/``setmoves``
while the clock runs (or before the start, or after the end), a key sequence
that does not reach the screen it needs: the runner stops with exit 1,
the line, what is wrong and the state line as the clock stands, and the
clock is never resumed. A refusal the clock makes on purpose is an outcome:
the script goes on. Both lanes print the same.
"""

import pytest

from tests.scripting import fields, run_on_both_lanes, run_text

START = "control 900\nquickplay g5\nat 0 press right\n"  # left White, 15 min, G.5
PAUSED = START + "at 10 pause\n"  # left's turn from 0: 900 - 10 = 890 s = 14:50
# the arbiter takes left under two minutes for a claim: 890 - 780 = 110 s
CLAIMABLE = PAUSED + "at 11 add left -13:00\n"

# (name, script, message); every one stops with exit 1, at its last line
STOPS = [
    ("decide, no claim", PAUSED + "at 11 decide draw\n", "decide: no claim is open"),
    (
        "decide after a refused claim",
        "control 900\nat 0 press right\nat 10 pause\nat 11 claim\nat 12 decide draw\n",
        "decide: no claim is open",
    ),
    ("decide, running", START + "at 10 decide draw\n", "the clock is running: pause it"),
    ("claim, running", START + "at 10 claim\n", "claim: the clock is running: pause it"),
    ("add, running", START + "at 10 add left +1:00\n", "add: the clock is running"),
    ("setmoves, running", START + "at 10 setmoves 3\n", "setmoves: the clock is running"),
    ("claim, not started", "control 900\nquickplay g5\nat 5 claim\n", "not started"),
    ("add, not started", "control 900\nat 5 add left +1:00\n", "add: the game has not started"),
    (
        "decide, game over",
        CLAIMABLE + "at 12 claim\nat 13 decide draw\nat 14 decide draw\n",
        "decide: the game is over",
    ),
    (
        "decide on a G.6 record",
        CLAIMABLE.replace("g5", "g6") + "at 12 claim\nat 13 resume\nat 14 decide draw\n",
        "decide: the game is over",
    ),
]


@pytest.mark.parametrize("name, text, message", STOPS, ids=[case[0] for case in STOPS])
def test_a_statement_that_cannot_apply_stops_the_script(name, text, message):
    line = text.count("\n")
    status, lines = run_text(text + "at 100 expect state=running\n", "arb.clock")
    assert status == 1, lines
    assert len(lines) == 2, lines  # nothing after the stop: no later line ran
    assert lines[0].startswith("arb.clock:%d: " % line), lines
    assert message in lines[0]
    assert lines[1].startswith("  actual: at=")
    # the clock stands where the statement found it: never resumed by the keys
    assert fields(lines[1][len("  actual: ") :])["running"] == "none" or "running" in message


def test_a_stop_leaves_the_game_paused_and_the_script_time_unchanged():
    status, lines = run_text(PAUSED + "at 11 decide draw\n", "arb.clock")
    state = fields(lines[1][len("  actual: ") :])
    assert status == 1
    assert state["at"] == "11.000" and state["state"] == "paused" and state["running"] == "none"
    assert state["left"] == "0:14:50.000" and state["right"] == "0:15:00.000"  # 900 - 10


def test_a_refusal_the_clock_makes_on_purpose_is_an_outcome():
    # quickplay off: the claim is refused on the clock ("no|oFF"), the script goes on
    text = (
        "control 900\nat 0 press right\nat 10 pause\nat 11 claim\n"
        'at 11 expect state=paused claim=none display="no  |oFF "\n'
        "at 20 resume\nat 30 expect running=left left=14:30\n"  # 900 - 10 - 10 = 880 s
    )
    status, lines = run_text(text, "arb.clock")
    assert status == 1 and "left=0:14:30.000" in lines[0]  # 880 s, not 870: a real check
    status, lines = run_text(text.replace("left=14:30", "left=14:40"), "arb.clock")
    assert status == 0, lines


# A long press that falls inside a 3-s message clears the message and does its
# job (a message never swallows a key): the statement applies, the clock stays
# paused. (name, script, what holds after it)
INSIDE_A_MESSAGE = [
    (
        "setmoves",
        PAUSED + "at 11 press left\nat 11.5 setmoves 3\n",  # LEvr from 11 to 14
        "moves=3",
    ),
    (
        "add",
        PAUSED + "at 11 press right\nat 11.9 add left +0:30\n",  # rLEv until 14
        "left=15:20",  # 890 + 30 = 920 s
    ),
    (
        "claim",
        CLAIMABLE + "at 12 press left\nat 12 claim\n",  # left at 110 s, under two minutes
        "state=claim claim=open-left left=1:50",
    ),
]


@pytest.mark.parametrize(
    "name, text, holds", INSIDE_A_MESSAGE, ids=[case[0] for case in INSIDE_A_MESSAGE]
)
def test_a_long_press_inside_a_message_is_taken(name, text, holds):
    state = "" if "state=" in holds else " state=paused"
    status, lines = run_text(text + "at 20 expect running=none %s%s\n" % (holds, state), "a.clock")
    assert status == 0, lines


def test_a_long_press_after_the_message_is_taken():
    # LEvr from 11 to 14; a setmoves at 12.5 holds minus until 14.5: the message is over
    text = PAUSED + "at 11 press left\nat 12.5 setmoves 3\nat 13 expect moves=3 state=paused\n"
    status, lines = run_text(text, "arb.clock")
    assert status == 0, lines


def test_both_lanes_stop_alike(tmp_path):
    scripts = [("stop-%02d.clock" % index, text) for index, (_, text, _) in enumerate(STOPS)]
    # MicroPython compiles the sources here, as `python -m sim run --mpy` does (the
    # other tests load the .mpy files a board loads)
    status, lines = run_on_both_lanes(tmp_path, scripts, compiled=False)
    assert status == 1
    stops = [line for line in lines if ".clock:" in line and ": end: " not in line]
    assert len(stops) == len(STOPS)
    for line, (_, text, message) in zip(stops, STOPS, strict=True):
        assert ".clock:%d: " % text.count("\n") in line and message in line
