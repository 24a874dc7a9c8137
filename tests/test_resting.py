"""The board sleeps over the ticks at which the clock rests, and that changes nothing.

After each step the app says when it next needs one (``firmware.deadlines``); the
board's loop sleeps until then or an input (``hal.runtime``, ``hal.sleep``), and the
watchdog is fed at the next step. Random games are played twice on the whole
simulated board, once with a step at every tick and once resting, and compared at many
instants: the displays, the times, the flags, the buzzer, the LEDs, the battery
reading and every byte the clock wrote to its flash. The scenario scripts make the same
comparison across lanes (tests/test_scenarios.py).
"""

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware.journal import Journal
from firmware.tickmath import ticks_diff
from sim import machine as sim_machine
from sim import vclock
from sim.world import SimBoard, fresh_flash, remove_flash
from tests.hardware_helpers import TICK_MS

# Short controls of every kind, so that flags fall, periods pass and the last ten
# seconds (the warning beeps, tenths on the display) come within a minute.
CONTROLS = ("20+2", "15d3", "12b2", "2/15:10", "*15", "10j5x2", "10c2/8", "30")
INPUTS = (
    ("lever_left", 80),
    ("lever_right", 80),
    ("play", 80),
    ("set", 80),
    ("plus", 80),
    ("minus", 80),
    ("set", 2_100),
    ("minus", 2_100),
)
EVENTS = st.lists(
    st.tuples(st.integers(min_value=150, max_value=9_000), st.sampled_from(INPUTS)),
    min_size=1,
    max_size=12,
)
PROBE_MS = 137  # the board is looked at this often between the inputs, off the tick grid


def _battery_u16(board, pack_mv):
    """The ADC value at which the board's divider reads a pack of ``pack_mv``."""
    numerator, denominator = board.BATTERY_DIVIDER
    return pack_mv * numerator // denominator * 0xFFFF // board.BATTERY_ADC_FULL_SCALE_MV


def _look(board):
    """What anyone could tell of the board now, from outside or from its parts."""
    app = board.app
    clock = app.clock
    hardware = app.hardware
    tick = vclock.ticks_ms()
    return (
        vclock.now_ms(),
        board.display_text(),
        clock.state,
        clock.shown_ms(0, tick),
        clock.shown_ms(1, tick),
        clock.sides[0].flagged,
        clock.sides[1].flagged,
        clock.moves(),
        hardware.buzzer.started,
        hardware.buzzer.pattern,
        hardware.leds.lit,
        hardware.battery.millivolts,
        hardware.battery.low,
        app.journal.writes,
    )


def play(control, warn, tenths, events, rests, battery_drop_ms=None):
    """Play ``events`` ((gap ms, (input, held ms)), ...) on a fresh board; return what
    it showed at every probe and the files on its flash at the end."""
    folder = fresh_flash(control, settings={"warn_last10": warn, "tenths": tenths})
    board = SimBoard(folder, bounce_ms=2, rests=rests)
    sim_machine.set_adc(board.board.BATTERY_ADC_PIN, _battery_u16(board.board, 4_000))
    seen = []
    try:
        board.boot()
        now = 0
        pending_drop = battery_drop_ms
        for gap, (name, held_ms) in list(events) + [(12_000, (None, 0))]:
            until = now + gap
            while now < until:
                now = min(now + PROBE_MS, until)
                if pending_drop is not None and now >= pending_drop:
                    low = _battery_u16(board.board, board.board.BATTERY_LOW_MV - 300)
                    sim_machine.set_adc(board.board.BATTERY_ADC_PIN, low)
                    pending_drop = None
                board.run_due(now)
                seen.append(_look(board))
            if name is not None:
                board.press(name, held_ms)
                seen.append(_look(board))
        stored = {}
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), "rb") as handle:
                stored[name] = handle.read()
        return seen, stored
    finally:
        board.app.hardware.stop()
        remove_flash(folder)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(CONTROLS),
    st.booleans(),
    st.booleans(),
    EVENTS,
    st.one_of(st.none(), st.integers(min_value=0, max_value=40_000)),
)
def test_resting_changes_nothing_anyone_can_see(control, warn, tenths, events, drop_ms):
    every_tick = play(control, warn, tenths, events, False, drop_ms)
    resting = play(control, warn, tenths, events, True, drop_ms)
    assert resting == every_tick


def _a_game_that_runs(rests):
    # left runs for 30 s: the journal writes an entry every 5 s while a clock runs
    return play("300+2", False, False, [(500, ("lever_right", 80)), (30_000, ("play", 80))], rests)


def test_the_comparison_sees_a_rest_that_runs_past_a_journal_entry(monkeypatch):
    """A wrong bound (the journal's entry forgotten) makes the two runs differ."""
    reference = _a_game_that_runs(False)
    assert _a_game_that_runs(True) == reference
    monkeypatch.setattr(Journal, "quiet_ms", lambda self, now, wait: wait)
    assert _a_game_that_runs(True) != reference


def test_a_running_clock_steps_a_few_times_a_second_not_fifty(boot_board):
    booted = boot_board("300+2")
    steps = []
    real_step = booted.app.step

    def counted(now):
        steps.append(now)
        real_step(now)

    booted.app.step = counted
    booted.press("lever_right")
    booted.run_to(1_000)
    del steps[:]
    booted.run_to(61_000)  # a minute of play, nothing pressed
    # the display's seconds, the battery's reading (each once a second) and the
    # journal's entry (every 5 s) wake it; the other 2,800-odd ticks are passed over
    assert 60 <= len(steps) <= 3 * 60
    assert booted.app.clock.shown_ms(0, vclock.ticks_ms()) == 302_000 - 61_000


def rests_at(booted, tick):
    """Whether the board sleeps on past ``tick``: its next step is due later."""
    wake = booted.hardware.ticker.next_step()
    return wake is not None and ticks_diff(tick, wake) < 0


def steps_at_the_next_tick(booted):
    """Whether the board's next step is at the next tick of its grid (it does not rest)."""
    wake = booted.hardware.ticker.next_step()
    return wake is not None and 0 < ticks_diff(wake, vclock.ticks_ms()) <= TICK_MS


def test_a_wake_before_the_step_is_unfed_and_an_input_always_steps(boot_board):
    from hal import runtime

    booted = boot_board("300+2")
    booted.press("lever_right")
    booted.run_to(1_010)
    app = booted.app
    hardware = booted.hardware
    steps = []
    real_step = app.step
    app.step = lambda now: (steps.append(now), real_step(now))
    wdt = sim_machine.watchdog()
    fed = wdt.feeds
    assert rests_at(booted, vclock.ticks_ms())
    assert runtime.service(app, hardware) is False
    assert steps == [] and wdt.feeds == fed  # the next step feeds the watchdog
    sim_machine.drive(booted.board.pin_of("lever_left"), 0)  # an edge: the ring holds a press
    assert runtime.service(app, hardware) is True
    assert len(steps) == 1 and app.clock.running() == 1 and wdt.feeds == fed + 1


def test_the_rest_ends_at_its_tick_and_not_one_before(boot_board):
    from hal import runtime

    booted = boot_board("300+2")
    booted.press("lever_right")
    booted.run_to(1_010)
    hardware = booted.hardware
    wake = hardware.ticker.next_step()
    assert wake is not None and ticks_diff(wake, vclock.ticks_ms()) > TICK_MS
    steps = []
    real_step = booted.app.step
    booted.app.step = lambda now: (steps.append(now), real_step(now))
    vclock.set_now(vclock.now_ms() + ticks_diff(wake, vclock.ticks_ms()) - 1)
    assert hardware.ticker.ms_left() == 1  # 1 ms before the wake: no step
    assert runtime.service(booted.app, hardware) is False and steps == []
    vclock.set_now(vclock.now_ms() + 1)
    assert hardware.ticker.ms_left() == 0  # at the wake: the step
    assert runtime.service(booted.app, hardware) is True and steps == [wake]


def test_settings_and_messages_from_outside_end_a_rest(boot_board):
    """A settings push or a message from the hall's link comes between two steps."""
    booted = boot_board("300+2")
    booted.run_to(2_000)
    app = booted.app
    assert not steps_at_the_next_tick(booted)
    app.apply_settings(app.settings)
    assert steps_at_the_next_tick(booted) and not app.deadlines.light(vclock.ticks_ms())
    booted.run_to(4_000)
    assert not steps_at_the_next_tick(booted)
    app.notice("Err4")
    assert steps_at_the_next_tick(booted) and not app.deadlines.light(vclock.ticks_ms())


def test_a_change_of_the_clock_between_steps_is_drawn_at_the_next(boot_board):
    """Before the full step's deadline only the mark and the battery are stepped
    (``App._light_step``), but a change of the clock made outside a step (not through
    the app, which would end the rest at once) is drawn at the next step all the same,
    light or not."""
    booted = boot_board("300+2")
    booted.press("lever_right")
    app = booted.app
    ticker = booted.hardware.ticker
    at = 1_000
    booted.run_to(at)

    def light_wake_ahead():
        wake = ticker.next_step()
        return (
            wake is not None
            and ticks_diff(wake, vclock.ticks_ms()) >= TICK_MS
            and app.deadlines.light(wake)
        )

    while not light_wake_ahead():
        at += TICK_MS
        booted.run_to(at)
    app.clock.pause(vclock.ticks_ms())
    assert app.drawn != app.clock.changes
    booted.run_to(at + ticks_diff(ticker.next_step(), vclock.ticks_ms()))
    assert app.drawn == app.clock.changes


def test_the_command_lines_every_tick_reaches_the_board(monkeypatch):
    """``python -m sim run --every-tick`` on CPython, and ``sim.runner.main``'s argument
    inside MicroPython: the board is made with ``rests=False``."""
    from sim import __main__ as command
    from sim import runner

    made = []
    real_init = SimBoard.__init__

    def recording_init(self, *arguments, **options):
        real_init(self, *arguments, **options)
        made.append(self.rests)

    monkeypatch.setattr(SimBoard, "__init__", recording_init)
    script = os.path.join(os.path.dirname(__file__), "scenarios", "timing", "bounce-0.clock")
    assert command.main(["run", "--every-tick", script]) == 0
    assert runner.main(["--every-tick", script]) == 0
    assert runner.main([script]) == 0
    assert made == [False, False, True]


def _standing_on_a_low_battery(rests):
    # the pack is low from the start; the game starts at 2 s and is paused at 8.33 s,
    # off the battery's once-a-second readings: the bAtt/Lo mark comes back 1 s in
    # every 6 while the clock stands, counted from the pause
    events = [(2_000, ("lever_right", 80)), (6_330, ("play", 80)), (14_000, ("play", 80))]
    return play("300", False, False, events, rests, battery_drop_ms=0)


def test_the_low_battery_mark_keeps_its_rhythm():
    seen, _ = _standing_on_a_low_battery(False)
    assert any(look[1] == "bAtt| Lo " for look in seen)  # the mark was up
    assert _standing_on_a_low_battery(True)[0] == seen
