"""The buzzer: tone patterns stepped from the tick, and what the clock makes it say."""

import pytest

from firmware import engine, timecontrol
from firmware.sound import FIRST_FLAG, LATER_FLAG, PASSED, WARNING, Sound
from firmware.tickmath import TICKS_PERIOD, ticks_add
from hal.buzzer import Buzzer
from sim import machine as sim_machine
from tests.hardware_helpers import TICK_MS

PIN = 13


@pytest.fixture
def buzzer():
    sim_machine.reset()
    made = Buzzer(sim_machine.Pin(PIN), sim_machine.PWM)
    return made, sim_machine.pwm_of(PIN)


# --- the driver -------------------------------------------------------------


def test_silent_until_a_pattern_plays(buzzer):
    driver, pwm = buzzer
    assert pwm.duty == 0
    driver.step(12345)
    assert pwm.duty == 0 and not driver.busy()


def test_pattern_steps_at_its_own_times(buzzer):
    driver, pwm = buzzer
    pattern = (2000, 100, 0, 50, 3000, 100)
    driver.play(pattern, 1000)
    assert (pwm.frequency, pwm.duty) == (2000, 32768)
    driver.step(1099)
    assert pwm.duty == 32768
    driver.step(1100)  # the rest
    assert pwm.duty == 0 and driver.busy()
    driver.step(1149)
    assert pwm.duty == 0
    driver.step(1150)
    assert (pwm.frequency, pwm.duty) == (3000, 32768)
    driver.step(1249)
    assert driver.busy()
    driver.step(1250)
    assert pwm.duty == 0 and not driver.busy()


def test_a_late_step_keeps_the_rhythm(buzzer):
    # Stepped 20 ms late at the first change, the next one still falls at 1000+100+50.
    driver, pwm = buzzer
    driver.play((2000, 100, 0, 50, 3000, 100), 1000)
    driver.step(1120)
    assert pwm.duty == 0
    driver.step(1149)
    assert pwm.duty == 0
    driver.step(1150)
    assert pwm.frequency == 3000 and pwm.duty == 32768


def test_a_step_long_overdue_ends_the_pattern(buzzer):
    driver, pwm = buzzer
    driver.play(FIRST_FLAG, 0)
    driver.step(10_000)
    assert pwm.duty == 0 and not driver.busy()


def test_pattern_across_the_tick_wrap(buzzer):
    driver, pwm = buzzer
    start = TICKS_PERIOD - 30
    driver.play((2500, 60), start)
    driver.step(ticks_add(start, 59))  # a small number after the wrap
    assert pwm.duty == 32768
    driver.step(ticks_add(start, 60))
    assert pwm.duty == 0 and not driver.busy()


def test_stop_and_replace(buzzer):
    driver, pwm = buzzer
    driver.play(FIRST_FLAG, 0)
    driver.play(WARNING, 10)
    assert pwm.frequency == WARNING[0]
    driver.step(69)
    assert pwm.duty == 32768
    driver.stop()
    assert pwm.duty == 0 and not driver.busy()
    assert driver.started == 2


# --- the sound logic, on the engine --------------------------------------------


class Recorder:
    """A buzzer that notes what it was asked to play."""

    def __init__(self):
        self.played = []
        self.playing = False
        self.stopped = 0

    def busy(self):
        return self.playing

    def play(self, pattern, now):
        self.played.append((pattern, now))
        self.playing = True

    def stop(self):
        self.stopped += 1
        self.playing = False

    def step(self, now):
        pass


class Switches:
    def __init__(self, sound=True, warn_last10=False):
        self.sound = sound
        self.warn_last10 = warn_last10


def started_clock(control):
    clock = engine.Clock(timecontrol.parse(control))
    clock.press(1, 0)  # right presses: left (White) runs from 0
    return clock


def run(sound, clock, settings, recorder, until_ms, start_ms=0):
    now = start_ms
    while now <= until_ms:
        clock.update(now)
        sound.update(clock, settings, now, recorder)
        now += TICK_MS
        if recorder.playing and recorder.played and recorder.played[-1][0] is WARNING:
            recorder.playing = False  # a beep is over within a tick or three


def test_the_first_flag_sounds_once():
    clock = started_clock("5")
    sound, recorder = Sound(), Recorder()
    run(sound, clock, Switches(), recorder, 8000)
    assert recorder.played == [(FIRST_FLAG, 5000)]


def test_the_second_flag_sounds_its_own_pattern():
    clock = started_clock("5")
    sound, recorder = Sound(), Recorder()
    run(sound, clock, Switches(), recorder, 6000)
    clock.press(0, 6000)  # 5+0 has no freeze: the other side runs on to its own flag
    recorder.playing = False
    run(sound, clock, Switches(), recorder, 12_000, 6000)
    assert recorder.played == [(FIRST_FLAG, 5000), (LATER_FLAG, 11_000)]


def test_sound_off_plays_nothing_and_silences():
    clock = started_clock("5")
    sound, recorder = Sound(), Recorder()
    run(sound, clock, Switches(sound=False, warn_last10=True), recorder, 8000)
    assert recorder.played == []
    recorder.playing = True  # something was playing when sound went off
    sound.update(clock, Switches(sound=False), 8020, recorder)
    assert recorder.stopped == 1 and not recorder.playing


def test_warning_beeps_count_the_last_ten_seconds():
    clock = started_clock("15")
    sound, recorder = Sound(), Recorder()
    run(sound, clock, Switches(warn_last10=True), recorder, 16_000)
    beeps = [now for pattern, now in recorder.played if pattern is WARNING]
    # The display reaches 0.10 at 5 s of the turn, then each second down to 0.01.
    assert beeps == [5000 + 1000 * n for n in range(10)]
    assert recorder.played[-1] == (FIRST_FLAG, 15_000)


def test_no_warning_beeps_by_default_or_when_off():
    for settings in (None, Switches(warn_last10=False)):
        clock = started_clock("15")
        sound, recorder = Sound(), Recorder()
        run(sound, clock, settings, recorder, 16_000)
        assert recorder.played == [(FIRST_FLAG, 15_000)]


def test_no_beep_for_a_turn_that_starts_under_ten_seconds():
    # Left at 8 s when its turn begins: beeps from 7 down, not for the switch itself.
    clock = started_clock("300")
    clock.sides[0].remaining_ms = 8000
    sound, recorder = Sound(), Recorder()
    run(sound, clock, Switches(warn_last10=True), recorder, 7500)
    beeps = [now for pattern, now in recorder.played if pattern is WARNING]
    assert beeps == [1000, 2000, 3000, 4000, 5000, 6000, 7000]


def test_no_beeps_while_paused():
    clock = started_clock("15")
    sound, recorder = Sound(), Recorder()
    run(sound, clock, Switches(warn_last10=True), recorder, 4000)
    clock.pause(4000)
    run(sound, clock, Switches(warn_last10=True), recorder, 30_000, 4020)
    assert recorder.played == []


def test_a_flag_already_down_at_boot_is_not_sounded_again():
    clock = started_clock("5")
    clock.update(6000)  # the flag fell before the clock's first update here
    sound, recorder = Sound(), Recorder()
    run(sound, clock, Switches(), recorder, 9000, 6000)
    assert recorder.played == []


# --- on the simulated board -------------------------------------------------


def on_tick(ms):
    return (ms + TICK_MS - 1) // TICK_MS * TICK_MS


def tone_starts(booted, until_ms):
    """Virtual ms at which the buzzer's PWM went from silent to sounding."""
    pwm = sim_machine.pwm_of(booted.board.board.BUZZER_PIN)
    starts = []
    was = pwm.duty
    now = 0
    while now < until_ms:
        now += TICK_MS
        booted.run_to(now)
        if pwm.duty and not was:
            starts.append(now)
        was = pwm.duty
    return starts


def test_board_sounds_the_flag_on_its_buzzer_pin(boot_board):
    booted = boot_board("3")
    booted.press("lever_right")  # left runs from 0
    starts = tone_starts(booted, 6000)
    # FIRST_FLAG: three tones due 650 ms apart from the flag at 3 s, each at
    # the first 20 ms tick at or after its time.
    assert starts == [on_tick(3000), on_tick(3650), on_tick(4300)] == [3000, 3660, 4300]
    assert booted.app.clock.first_flag == 0


def test_board_warns_in_the_last_ten_seconds_when_set(boot_board):
    booted = boot_board("12")
    booted.app.settings.warn_last10 = True
    booted.press("lever_right")
    starts = tone_starts(booted, 12_500)
    assert starts == [2000 + 1000 * n for n in range(10)] + [12_000]


def test_board_with_sound_off_stays_silent(boot_board):
    booted = boot_board("3")
    booted.app.settings.sound = False
    booted.app.settings.warn_last10 = True
    booted.press("lever_right")
    assert tone_starts(booted, 6000) == []
    assert booted.app.clock.sides[0].flagged


# --- a time control passed ----------------------------------------------------


def test_completing_a_period_plays_the_short_tone_for_each_side():
    # 2/60:30: left (White) completes move 2 at 3 s, right at 4 s; both are announced.
    clock = started_clock("2/60:30")
    sound, recorder = Sound(), Recorder()
    for side, at in ((0, 1000), (1, 2000), (0, 3000), (1, 4000), (0, 5000)):
        run(sound, clock, Switches(), recorder, at - TICK_MS, at - 1000)
        recorder.playing = False
        clock.press(side, at)
        sound.update(clock, Switches(), at, recorder)
    assert recorder.played == [(PASSED, 3000), (PASSED, 4000)]


def test_no_tone_with_sound_off_or_for_a_correction_while_paused():
    clock = started_clock("2/60:30")
    sound, recorder = Sound(), Recorder()
    sound.update(clock, Switches(sound=False), 0, recorder)
    clock.press(0, 1000)
    clock.press(1, 2000)
    clock.press(0, 3000)  # left completes period 1
    sound.update(clock, Switches(sound=False), 3000, recorder)
    assert recorder.played == []
    clock.pause(3500)
    clock.set_moves(3)  # right (to move) at 2 moves done: its period follows, no move was made
    assert clock.sides[1].period == 1
    sound.update(clock, Switches(), 3520, recorder)
    assert recorder.played == []


def test_a_flag_at_the_same_update_wins_over_the_tone():
    clock = started_clock("1/5:30")
    sound, recorder = Sound(), Recorder()
    run(sound, clock, Switches(), recorder, 6000)  # left's flag at 5 s
    assert recorder.played == [(FIRST_FLAG, 5000)]
    clock.press(0, 6020)  # completes period 1 with its flag down: the flag's tones go on
    sound.update(clock, Switches(), 6020, recorder)
    assert recorder.played == [(FIRST_FLAG, 5000)]


def test_the_countdown_says_how_long_nothing_can_sound():
    # The clock may rest (App.resting) until the running side's time, rounded up to
    # whole seconds, can change: no sooner than it drops to the next whole second.
    sound = Sound()
    clock = started_clock("15")  # left runs from 15.000 s at 0
    warn = Switches(warn_last10=True)
    assert sound.quiet_ms(clock, warn, 0, 1000) == 1000  # 15.000 s: 14 s from 14.000 on
    assert sound.quiet_ms(clock, warn, 4_700, 1000) == 300  # 10.300 s: 10.000 in 300 ms
    assert sound.quiet_ms(clock, warn, 4_700, 200) == 200  # a nearer bound stands
    assert sound.quiet_ms(clock, warn, 5_000, 1000) == 1000  # 10.000 s: 9.999 rounds to 10 too
    assert sound.quiet_ms(clock, Switches(), 4_700, 1000) == 1000  # no warning beeps
    assert sound.quiet_ms(clock, None, 4_700, 1000) == 1000
    clock.pause(6_000)
    assert sound.quiet_ms(clock, warn, 6_500, 1000) == 1000  # nobody runs
