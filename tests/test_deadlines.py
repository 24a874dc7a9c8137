"""firmware/deadlines.py: the earliest of the parts' deadlines, and the longest rest."""

from firmware.deadlines import REST_MAX_MS, Deadlines, earlier, reached
from firmware.tickmath import TICKS_PERIOD, ticks_add


class Ticker:
    """What the deadlines tell the board's ticker."""

    def __init__(self):
        self.told = []

    def wake_at(self, tick):
        self.told.append(tick)


def planned(now, full, light):
    ticker = Ticker()
    plan = Deadlines(ticker)
    plan.plan(now, full, light)
    return plan, ticker.told[-1]


def test_the_earlier_of_two_deadlines_none_being_never():
    assert earlier(None, None) is None
    assert earlier(5, None) == 5
    assert earlier(None, 5) == 5
    assert earlier(5, 4) == 4
    assert earlier(4, 5) == 4
    near_wrap = TICKS_PERIOD - 10
    assert earlier(near_wrap, ticks_add(near_wrap, 20)) == near_wrap  # across the wrap


def test_a_deadline_is_reached_at_its_tick_and_not_one_before():
    assert reached(100, 100)
    assert not reached(99, 100)
    assert reached(ticks_add(TICKS_PERIOD - 1, 1), TICKS_PERIOD - 1)


def test_the_longest_rest_is_rest_max_ms_at_the_limit_and_past_it():
    assert REST_MAX_MS == 1000  # hal/watchdog.py: the timeout is at least twice it
    now = 7_000
    assert planned(now, ticks_add(now, REST_MAX_MS - 1), None)[1] == now + REST_MAX_MS - 1
    assert planned(now, ticks_add(now, REST_MAX_MS), None)[1] == now + REST_MAX_MS
    assert planned(now, ticks_add(now, REST_MAX_MS + 1), None)[1] == now + REST_MAX_MS
    assert planned(now, None, None)[1] == now + REST_MAX_MS  # nothing due: a second


def test_the_step_is_the_earliest_the_full_one_keeps_its_own():
    plan, step = planned(1_000, 1_600, 1_250)
    assert step == 1_250 and plan.full_at == 1_600
    assert plan.light(1_250) and plan.light(1_599) and not plan.light(1_600)


def test_a_busy_part_means_the_next_tick_and_a_full_step():
    plan, step = planned(1_000, 1_000, 1_250)  # a part answered "now"
    assert step is None and plan.full_at is None and not plan.light(1_001)


def test_without_resting_every_tick_is_a_full_step():
    ticker = Ticker()
    plan = Deadlines(ticker)
    plan.allow(False)
    plan.plan(1_000, 5_000, 2_000)
    assert ticker.told == [None, None] and not plan.light(1_001)
