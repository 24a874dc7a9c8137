"""The watchdog: started with a timeout both chips take, fed only by the app's steps (at
least one a rest, however long it rests), and a board it resets comes back with the game
paused."""

import pytest

from boards import esp32, pico
from firmware import engine
from firmware.deadlines import REST_MAX_MS
from firmware.tickmath import ticks_add
from hal import board_check
from hal.watchdog import MIN_MS, RP2040_MAX_MS, TIMEOUT_MS, Watchdog
from sim import machine as sim_machine
from sim import vclock
from sim.world import SimBoard
from tests.hardware_helpers import TICK_MS


class CountingWDT:
    made = []

    def __init__(self, timeout):
        self.timeout = timeout
        self.feeds = 0
        CountingWDT.made.append(self)

    def feed(self):
        self.feeds += 1


def test_timeouts_outside_what_both_chips_take_are_refused():
    for bad in (0, 999, MIN_MS - 1, RP2040_MAX_MS + 1, 10_000, "5000", 5000.0):
        with pytest.raises(ValueError):
            Watchdog(CountingWDT, bad)
    assert Watchdog(CountingWDT, RP2040_MAX_MS).timeout_ms == 8388
    assert Watchdog(CountingWDT, MIN_MS).timeout_ms == MIN_MS


def test_the_shortest_timeout_leaves_a_step_late_by_a_whole_rest_in_time():
    # A step comes at most REST_MAX_MS (and a tick) after the last; the timeout
    # leaves as much again for a step that runs long (a flash erase, a hall turn).
    assert MIN_MS >= 2 * REST_MAX_MS


def test_started_once_and_fed_only_once_started():
    CountingWDT.made = []
    watchdog = Watchdog(CountingWDT)
    watchdog.feed()  # before start: nothing to feed, no error
    assert CountingWDT.made == []
    watchdog.start()
    watchdog.start()
    assert len(CountingWDT.made) == 1 and CountingWDT.made[0].timeout == TIMEOUT_MS
    watchdog.feed()
    assert CountingWDT.made[0].feeds == 1


def test_both_boards_take_a_valid_timeout():
    for board in (pico, esp32):
        assert MIN_MS <= board.WATCHDOG_MS <= RP2040_MAX_MS
    broken = type("Board", (), {k: getattr(pico, k) for k in dir(pico) if k.isupper()})
    broken.WATCHDOG_MS = 9000
    assert any("WATCHDOG_MS" in problem for problem in board_check.check(broken))


def feed_times(booted):
    """Record the virtual ms of every feed of the board's watchdog from now on."""
    wdt = sim_machine.watchdog()
    times = []
    original = wdt.feed

    def feed():
        original()
        times.append(vclock.now_ms())

    wdt.feed = feed
    return times


def test_the_board_starts_it_and_the_loop_feeds_it_every_tick(boot_board):
    booted = boot_board("300", rests=False)  # a step at every tick: each feed seen one by one
    wdt = sim_machine.watchdog()
    assert wdt is not None and wdt.timeout_ms == booted.board.board.WATCHDOG_MS == 5000
    times = feed_times(booted)
    booted.press("lever_right")
    booted.run_to(60_000)
    assert times[-1] == 60_000
    gaps = [later - earlier for earlier, later in zip(times[:-1], times[1:], strict=True)]
    assert max(gaps) <= TICK_MS  # far inside the 5 s timeout
    assert len(times) >= 60_000 // TICK_MS


def step_times(booted):
    """Record the virtual ms of every step of the board's app from now on."""
    app = booted.app
    times = []
    real_step = app.step

    def step(now):
        times.append(vclock.now_ms())
        real_step(now)

    app.step = step
    return times


def test_at_rest_every_step_feeds_it_and_no_tick_passed_over_does(boot_board):
    # The clock rests at most ticks of a running game (tests/test_resting.py): only
    # the steps between the rests feed the watchdog, and they come at least once a rest.
    booted = boot_board("300")
    booted.press("lever_right")
    booted.run_to(10_000)
    steps = step_times(booted)
    feeds = feed_times(booted)
    booted.run_to(70_000)
    assert feeds == steps  # a feed at each step, and only there
    assert len(feeds) < 60_000 // TICK_MS // 10  # the ticks at rest fed nothing
    gaps = [later - earlier for earlier, later in zip(feeds[:-1], feeds[1:], strict=True)]
    assert max(gaps) < REST_MAX_MS + TICK_MS


def test_an_app_that_stops_stepping_starves_it(boot_board):
    # The tick goes on and the loop turns, but the app rests for ever: only a step
    # feeds the watchdog, so it would bite and the board come back paused.
    booted = boot_board("300")
    booted.press("lever_right")
    booted.run_to(10_000)
    wdt = sim_machine.watchdog()
    ticker = booted.hardware.ticker
    booted.app.deadlines.plan = lambda now, full, light: ticker.wake_at(ticks_add(now, 1 << 28))
    booted.run_to(20_000)
    assert wdt.last_feed_ms <= 10_000 + REST_MAX_MS  # the step that began the long rest
    assert vclock.now_ms() - wdt.last_feed_ms > wdt.timeout_ms


def test_a_stopped_tick_starves_it(boot_board):
    # The tick's timer dies: the main loop finds nothing to do and stops feeding.
    booted = boot_board("300")
    booted.press("lever_right")
    booted.run_to(10_000)
    wdt = sim_machine.watchdog()
    fed = wdt.last_feed_ms
    booted.hardware.ticker.stop()
    booted.run_to(20_000)
    assert wdt.last_feed_ms == fed == 10_000
    assert vclock.now_ms() - wdt.last_feed_ms > wdt.timeout_ms  # it would bite


def test_after_a_watchdog_reset_the_game_comes_back_paused(boot_board):
    booted = boot_board("300")
    booted.press("lever_right")  # left runs from 0
    booted.run_to(20_000)
    booted.press("lever_left")  # right runs from 20 s
    booted.run_to(31_000)
    wdt = sim_machine.watchdog()
    last_fed = wdt.last_feed_ms
    # The main loop hangs here: nothing runs, the watchdog bites 5 s after its last feed.
    vclock.set_now(last_fed + wdt.timeout_ms + 1)
    assert vclock.now_ms() - wdt.last_feed_ms > wdt.timeout_ms
    # The reset: RAM, pins and timers are gone; the flash keeps what was written.
    after = SimBoard(booted.flash, bounce_ms=0)
    after.boot()
    clock = after.app.clock
    try:
        assert clock.state == engine.PAUSED
        assert clock.moves() == 1
        assert clock.mover == 1
        now = vclock.ticks_ms()
        assert clock.shown_ms(0, now) == 300_000 - 20_000  # the waiting side: exact
        right = clock.shown_ms(1, now)
        # The running side: charged up to a journal entry at most 5 s before the hang.
        assert 300_000 - 11_000 <= right <= 300_000 - 11_000 + 5000
    finally:
        after.app.hardware.stop()
