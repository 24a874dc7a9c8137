"""The timing engine on its own, in tick values, including across the tick wrap."""

import pytest

from firmware import engine
from firmware import timecontrol as tc
from firmware.tickmath import TICKS_PERIOD, ticks_add, ticks_diff

WRAP = TICKS_PERIOD - 3000  # three seconds before the counter wraps


def clock(text, right=None):
    return engine.Clock(tc.parse(text), tc.parse(right) if right else None)


def test_ticks_wrap_arithmetic():
    assert ticks_add(TICKS_PERIOD - 1, 1) == 0
    assert ticks_diff(5, TICKS_PERIOD - 5) == 10
    assert ticks_diff(TICKS_PERIOD - 5, 5) == -10


@pytest.mark.parametrize("base", [0, WRAP])
def test_fischer_example_of_timing_md(base):
    c = clock("300+3")
    c.press(1, ticks_add(base, 0))  # right starts left: left is White
    assert c.white == 0 and c.mover == 0
    c.press(0, ticks_add(base, 12_500))
    assert c.shown_ms(0, ticks_add(base, 12_500)) == 303_000 - 12_500 + 3000
    c.press(1, ticks_add(base, 20_000))
    assert c.shown_ms(1, ticks_add(base, 20_000)) == 303_000 - 7500 + 3000
    assert c.moves() == 1


def test_simple_delay_is_kept_across_a_pause():
    c = clock("60d5")
    c.press(1, 0)
    c.pause(2000)  # 2 s of the 5 s delay used
    c.resume(100_000)
    assert c.shown_ms(0, 102_999) == 60_000  # 2 + 2.999 < 5: still in the delay
    assert c.shown_ms(0, 104_000) == 59_000  # 1 s past the delay
    c.press(0, 104_000)
    assert c.sides[0].remaining_ms == 59_000


def test_bronstein_refund_never_exceeds_the_time_used():
    c = clock("60b10")
    c.press(1, 0)
    c.press(0, 4000)  # used 4 s, refund 4 s
    assert c.sides[0].remaining_ms == 60_000
    c.press(1, 30_000)
    c.press(0, 55_000)  # used 25 s, refund 10 s
    assert c.sides[0].remaining_ms == 45_000


@pytest.mark.parametrize("base", [0, WRAP])
def test_a_press_stamped_before_its_turn_began_is_charged_nothing(base):
    """The floor of a charge: after a pause of 2 s used and a resume at 10 s, a press
    stamped at 9.7 s (before the run began) is charged the 2 s of before the pause, no
    less; one at the resume's own tick is too. The next side's turn starts at 10 s."""
    c = clock("60")
    c.press(1, ticks_add(base, 0))
    c.pause(ticks_add(base, 2000))
    c.resume(ticks_add(base, 10_000))
    assert c.press(0, ticks_add(base, 9700))
    assert c.sides[0].remaining_ms == 58_000
    assert c.shown_ms(1, ticks_add(base, 10_500)) == 59_500
    assert c.press(1, ticks_add(base, 10_000))  # at the turn's start: charged 0
    assert c.sides[1].remaining_ms == 60_000
    assert c.pause(ticks_add(base, 9000))  # a pause stamped before the run began
    assert c.turn_used == 0 and c.shown_ms(0, ticks_add(base, 20_000)) == 58_000


def test_press_at_the_flag_instant_is_too_late():
    c = clock("10+5")
    c.press(1, 0)
    assert not c.press(0, 15_000)  # 10 + 5 before move 1: the flag falls at 15 s
    assert c.state == engine.OVER and c.first_flag == 0
    assert c.shown_ms(0, 20_000) == 0 and c.shown_ms(1, 20_000) == 15_000


def test_both_flags_in_sudden_death_keep_their_order():
    c = clock("10")
    c.press(1, 0)
    c.update(10_000)
    assert c.sides[0].flagged and c.state == engine.RUNNING
    c.press(0, 11_000)  # the flagged player may still press
    c.update(21_000)
    assert c.sides[1].flagged and c.first_flag == 0


def test_hourglass_moves_time_to_the_opponent_and_stops_at_the_flag():
    c = clock("*60")
    c.press(1, 0)
    c.press(0, 20_000)
    assert (c.sides[0].remaining_ms, c.sides[1].remaining_ms) == (40_000, 80_000)
    c.update(100_000)  # right runs out 80 s after its turn started
    assert c.state == engine.OVER and c.first_flag == 1
    assert c.shown_ms(0, 100_000) == 120_000


def test_period_transition_adds_time_then_the_next_periods_increment():
    c = clock("2/60+5:30+10")
    c.press(1, 0)
    t = 0
    for _ in range(2):  # two moves for each side, 1 s each
        t += 1000
        c.press(c.mover, t)
        t += 1000
        c.press(c.mover, t)
    # left: 65 - 1 + 5 - 1 (move 2 ends period 1) + 30 + 10 (move 3 is period 2)
    assert c.sides[0].remaining_ms == 108_000
    assert c.sides[0].period == 1


def test_japanese_byo_yomi_periods():
    c = clock("10j5x3")
    c.press(1, 0)
    assert c.stage(0, 12_000) == "byo3" and c.shown_ms(0, 12_000) == 3000
    assert c.stage(0, 16_000) == "byo2" and c.shown_ms(0, 16_000) == 4000
    c.press(0, 16_000)  # one period used up, a move made inside the next
    assert c.sides[0].byo_left == 2 and c.shown_ms(0, 16_000) == 5000
    c.press(1, 17_000)
    c.update(27_000)  # 2 fresh periods of 5 s: the flag at 10 s
    assert c.sides[0].flagged and c.stage(0, 27_000) == "byo0"


def test_canadian_block_refreshes_after_its_moves():
    c = clock("10c2/20")
    c.press(1, 0)
    c.press(0, 15_000)  # main out at 10 s, 5 s of the block used, 1 move left
    assert c.stage(0, 15_000) == "can1" and c.sides[0].block_ms == 15_000
    c.press(1, 16_000)
    c.press(0, 20_000)  # block done in time: fresh block
    assert c.stage(0, 20_000) == "can2" and c.sides[0].block_ms == 20_000
