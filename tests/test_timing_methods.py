"""The timing methods are objects (firmware/timing.py): each answers for itself,
nothing outside them asks which method is in force, every one of them ticks and
moves without allocating, and the move counter's correction is the clock's own
operation (Laws 6.10.2, docs/spec/rules.md)."""

import json
import os
import subprocess

import pytest

from bench import core
from firmware import engine, journal, timing
from firmware import timecontrol as tc
from tests.scripting import ROOT, compiled_firmware

LEFT, RIGHT = 0, 1


def test_no_module_outside_the_methods_asks_which_method_is_in_force():
    assert core.branches_outside_methods() == {}


def test_the_count_finds_the_questions_it_forbids():
    source = (
        "if side.control.kind == tc.STAGES:\n"  # a control's kind
        "    x = 1\n"
        "if mode != FISCHER and y:\n"  # a period's mode
        "    x = 2\n"
        "if tc.HOURGLASS in kinds:\n"
        "    x = 3\n"
        "if problem.kind == BAD or field.kind == _ADD:\n"  # not a timing method
        "    x = 4\n"
    )
    assert core.method_branches(source) == [1, 3, 5]


@pytest.mark.parametrize(
    "text, method",
    [
        ("5400", timing.Periods),
        ("40/5400+30:1800+30", timing.Periods),
        ("*60", timing.Hourglass),
        ("60j30x5", timing.Japanese),
        ("60c10/300", timing.Canadian),
    ],
)
def test_a_control_is_played_by_its_method(text, method):
    control = tc.parse(text)
    assert timing.method_of(control) is method
    assert type(engine.Clock(control).sides[LEFT]) is method


def test_the_mode_codes_are_the_journal_bytes():
    assert (tc.NONE, tc.FISCHER, tc.DELAY, tc.BRONSTEIN) == (0, 1, 2, 3)
    assert (timing._NONE, timing._FISCHER, timing._DELAY, timing._BRONSTEIN) == (0, 1, 2, 3)
    # the journal's mode byte: 0 none, 1 the 5-second increment, 2 the 5-second delay
    clock = engine.Clock(tc.parse("600"))
    clock.press(RIGHT, 0)
    clock.pause(1000)
    clock.switch_controls(tc.DELAY, journal.MODE_MS, 1000)
    assert clock.sides[LEFT].added_mode == 2


MODE_CODES = (tc.NONE, tc.FISCHER, tc.DELAY, tc.BRONSTEIN)


def test_each_mode_charges_a_move_as_docs_spec_timing_says():
    # a 7 s move under a 2 s bonus, from 10 s
    assert [timing.settled(m, 10_000, 7000, 2000) for m in MODE_CODES] == [3000, 3000, 5000, 5000]
    assert [timing.gain(m, 2000) for m in MODE_CODES] == [0, 2000, 0, 0]
    # under a 2 s delay from 10 s the flag falls 12 s into the turn, Fischer's at 10 s
    assert started("10d2").sides[LEFT].flag_elapsed() == 12_000
    assert started("10+2").sides[LEFT].flag_elapsed() == 12_000  # 10 s + the first move's 2
    assert started("10b2").sides[LEFT].flag_elapsed() == 10_000
    # the delay at its end and just before: 1 ms left, then none
    clock = started("10d2")
    assert clock.delay_left(1999) == 1 and clock.in_delay(1999)
    assert clock.delay_left(2000) == 0 and not clock.in_delay(2000)
    assert started("10+2").delay_left(0) == 0
    assert timing.charged(tc.DELAY, 2000, 2000) == 0 and timing.charged(tc.DELAY, 2001, 2000) == 1
    # Bronstein gives back what the move used, at most the bonus: at it and past it
    assert timing.settled(tc.BRONSTEIN, 10_000, 2000, 2000) == 10_000
    assert timing.settled(tc.BRONSTEIN, 10_000, 2001, 2000) == 9999


def test_every_method_ticks_and_moves_with_the_heap_locked_inside_micropython():
    compiled_firmware()
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    done = subprocess.run(
        ["node", runner, "--compiled", "tests.mpy.methods_heap"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(results) == set(("20", "10+2", "10d2", "10b2", "2/15:10", "*20", "5j3x2", "5c2/8"))
    assert all(result["locked"] for result in results.values()), results
    # 7 s moves: 10+2 starts at 12 s and keeps 7 s; 10d2 and 10b2 charge 5 s a move:
    # left's second move reaches zero at 7 s, and a flag with a bonus freezes the game
    for text in ("10+2", "10d2", "10b2"):
        assert results[text]["state"] == "over" and results[text]["moves"] == 2, text
        assert results[text]["first_flag"] == LEFT
    # sudden death and byo-yomi run on at zero: 60 s of play is 8 moves of 7 s
    for text in ("20", "5j3x2", "5c2/8", "2/15:10"):
        assert results[text]["state"] == "running" and results[text]["moves"] == 8, text
    # the hourglass: what one side uses the other gets, 20 s against 7 s moves: no flag
    assert results["*20"]["first_flag"] == engine.NOBODY
    assert results["5j3x2"]["stages"] == ["byo0", "byo0"]  # every period used up


# --- the move counter's correction: Clock.set_moves -----------------------------


def started(text):
    """A clock of ``text``, left White and to move, started at 0."""
    clock = engine.Clock(tc.parse(text))
    clock.press(RIGHT, 0)
    return clock


def test_a_correction_before_the_game_or_below_zero_is_refused_and_changes_nothing():
    clock = engine.Clock(tc.parse("2/60:30"))
    changes = clock.changes
    assert clock.set_moves(3) is False  # nobody is White yet
    clock = started("2/60:30")
    clock.press(LEFT, 1000)  # right (Black) to move, White has 1 move
    clock.pause(2000)
    changes = clock.changes
    assert clock.set_moves(-1) is False
    # Black to move after White's 0th move would have made -1: the limit is 0 for White
    # to move, 1 for Black to move
    assert clock.set_moves(0) is False
    assert clock.changes == changes
    assert clock.set_moves(1) is True and clock.changes == changes + 1
    assert (clock.sides[LEFT].moves, clock.sides[RIGHT].moves) == (1, 0)


def test_the_period_follows_the_corrected_count_and_no_time_is_given():
    clock = started("2/60:30")
    clock.press(LEFT, 10_000)  # left's move 1: 50 s left
    clock.press(RIGHT, 12_000)  # right's move 1: 58 s left
    clock.pause(15_000)  # left to move, 3 s of its turn used: shows 47 s
    assert clock.set_moves(2) is True  # White has made 2, so has Black (White to move)
    assert [side.moves for side in clock.sides] == [2, 2]
    assert [side.period for side in clock.sides] == [1, 1]  # the 3rd moves are period 2's
    assert clock.shown_ms(LEFT, 15_000) == 47_000 and clock.shown_ms(RIGHT, 15_000) == 58_000
    assert clock.set_moves(1) is True  # back: the 2nd moves are period 1's again
    assert [side.period for side in clock.sides] == [0, 0]


def test_a_delay_the_new_period_lacks_hands_over_no_time():
    clock = started("1/60d5:30")  # 5 s delay in period 1, none in period 2
    clock.pause(3000)  # left's move 1, 3 s used inside the delay: shows 60 s
    assert clock.shown_ms(LEFT, 3000) == 60_000
    assert clock.set_moves(1) is True  # left's next move is the 2nd, period 2's
    assert clock.shown_ms(LEFT, 3000) == 60_000  # what it showed
    clock.resume(10_000)
    assert clock.shown_ms(LEFT, 11_000) == 59_000  # charged from here on, no delay
    assert not clock.in_delay(11_000)


def test_a_canadian_block_keeps_between_one_move_and_its_count():
    clock = started("0c5/60")  # a block of 5 moves in 60 s from the start
    for now, side in ((1000, LEFT), (2000, RIGHT), (3000, LEFT), (4000, RIGHT)):
        clock.press(side, now)
    clock.pause(5000)
    assert [side.byo_left for side in clock.sides] == [3, 3]  # 2 of 5 moves made
    assert clock.set_moves(1) is True  # one fewer made: one more left
    assert [side.byo_left for side in clock.sides] == [4, 4]
    assert clock.set_moves(0) is True  # back to the block's own count, 5
    assert [side.byo_left for side in clock.sides] == [5, 5]
    assert clock.set_moves(9) is True  # 9 made would leave -4: at least one move is left
    assert [side.byo_left for side in clock.sides] == [1, 1]
