"""The battery monitor: integer millivolts through the divider, averaged, and the low mark."""

import pytest

from boards import esp32, pico
from firmware.battery_mark import CYCLE_MS, FIRST_MS, SHOW_MS, BatteryMark
from firmware.tickmath import TICKS_PERIOD, ticks_add
from hal.battery import ABSENT_MV, HYSTERESIS_MV, PERIOD_MS, SAMPLES, Battery, NoBattery


class FakeADC:
    """An ADC whose pin voltage the test sets, read as read_u16 (RP2040) or read_uv (ESP32)."""

    def __init__(self, millivolts=0):
        self.millivolts = millivolts
        self.reads = 0

    def read_u16(self):
        self.reads += 1
        return self.millivolts * 65535 // 3300


class CalibratedADC:
    def __init__(self, microvolts):
        self.microvolts = microvolts

    def read_uv(self):
        return self.microvolts


def pico_battery(vsys_mv, now=0):
    adc = FakeADC(vsys_mv // 3)
    return Battery(adc, (1, 3), 3300, pico.BATTERY_LOW_MV, now), adc


def test_reading_through_the_divider_in_integer_millivolts():
    # VSYS 3900 mV: the pin sees 1300 mV; read_u16 = 1300 * 65535 // 3300 = 25817,
    # back to 25817 * 3300 // 65535 = 1299 mV at the pin, times 3.
    battery, _ = pico_battery(3900)
    assert battery.millivolts == 1299 * 3
    assert isinstance(battery.millivolts, int)
    assert not battery.low


def test_esp32_uses_the_calibrated_reading():
    battery = Battery(CalibratedADC(1_300_400), (1, 3), 3300, esp32.BATTERY_LOW_MV)
    assert battery.millivolts == 1300 * 3


def test_one_reading_a_second_and_the_mean_of_eight():
    battery, adc = pico_battery(3900)
    reads = adc.reads
    battery.update(999)
    assert adc.reads == reads  # not due yet
    adc.millivolts = 3900 // 3 - 240  # the pack drops by 720 mV
    battery.update(1000)
    assert adc.reads == reads + 1
    dropped = (1300 - 240) * 65535 // 3300 * 3300 // 65535 * 3
    assert battery.millivolts == (7 * 1299 * 3 + dropped) // SAMPLES


def test_low_after_enough_low_readings_and_not_before():
    # From 3600 mV the pack falls to 3300 mV: the mean of eight passes below
    # BATTERY_LOW_MV (3480) once four of them are low: 3600 - 4 * 300 / 8 = 3450
    # (three give 3600 - 3 * 300 / 8 = 3487.5, still above).
    battery, adc = pico_battery(3600)
    adc.millivolts = 1100
    now = 0
    lows = []
    for _ in range(6):
        now += PERIOD_MS
        battery.update(now)
        lows.append(battery.low)
    assert lows == [False, False, False, True, True, True]


def test_hysteresis_keeps_the_mark_until_a_fresh_pack():
    battery, adc = pico_battery(3300)
    assert battery.low
    now = 0
    adc.millivolts = (pico.BATTERY_LOW_MV + HYSTERESIS_MV // 2) // 3  # recovered a little
    for _ in range(2 * SAMPLES):
        now += PERIOD_MS
        battery.update(now)
    assert battery.low
    adc.millivolts = 4100 // 3  # a fresh pack
    for _ in range(SAMPLES):
        now += PERIOD_MS
        battery.update(now)
    assert not battery.low


def test_no_pack_connected_is_never_low():
    battery, _ = pico_battery(0)
    assert battery.millivolts < ABSENT_MV and not battery.low
    assert NoBattery().low is False


def test_readings_across_the_tick_wrap():
    start = TICKS_PERIOD - 500
    battery, adc = pico_battery(3900, start)
    reads = adc.reads
    battery.update(ticks_add(start, 999))
    assert adc.reads == reads
    battery.update(ticks_add(start, 1000))
    assert adc.reads == reads + 1


def test_a_bad_divider_is_refused():
    with pytest.raises(ValueError):
        Battery(FakeADC(1000), (3, 1), 3300, 3470)


# --- the mark ----------------------------------------------------------------


def test_mark_timing():
    mark = BatteryMark()
    assert not mark.showing(True, False, 0)  # not low
    assert not mark.showing(False, True, 0)  # running
    shown = [mark.showing(True, True, now) for now in range(0, 20_000, 100)]
    expected = []
    for now in range(0, 20_000, 100):
        if now < FIRST_MS:
            expected.append(True)
        else:
            expected.append((now - FIRST_MS) % CYCLE_MS >= CYCLE_MS - SHOW_MS)
    assert shown == expected
    assert shown[:20] == [True] * 20 and shown[20] is False  # 2 s, then the times
    # 1 s in every 6: 7-8 s, 13-14 s, 19-20 s, 25-26 s ...
    assert [shown[69], shown[70], shown[79], shown[80]] == [False, True, True, False]
    assert mark.showing(True, True, 20_000) is False
    assert mark.showing(True, True, 25_000) is True


def test_mark_restarts_with_each_stop():
    mark = BatteryMark()
    mark.showing(True, True, 0)
    assert not mark.showing(True, True, 3000)
    assert not mark.showing(False, True, 4000)  # running again
    assert mark.showing(True, True, 60_000)  # paused: 2 s of mark at once
    assert mark.showing(True, True, 61_999)
    assert not mark.showing(True, True, 62_000)


def test_mark_through_a_long_pause_and_the_wrap():
    mark = BatteryMark()
    start = TICKS_PERIOD - 1000
    mark.showing(True, True, start)
    later = ticks_add(start, FIRST_MS + 1000 * CYCLE_MS + CYCLE_MS - SHOW_MS)
    assert mark.showing(True, True, later)
    assert not mark.showing(True, True, ticks_add(later, SHOW_MS))


# --- on the simulated board --------------------------------------------------


def u16_for_vsys(millivolts):
    return millivolts // 3 * 65535 // 3300


def test_board_shows_the_mark_before_the_start_and_at_a_pause_only(boot_board):
    booted = boot_board("300", adc_u16=u16_for_vsys(3300))
    assert booted.hardware.battery.low
    assert booted.board.display_text() == "bAtt| Lo "
    booted.run_to(FIRST_MS)
    assert booted.board.display_text() == " 5.00| 5.00"
    booted.run_to(FIRST_MS + CYCLE_MS - SHOW_MS)
    assert booted.board.display_text() == "bAtt| Lo "
    booted.run_to(10_000)
    booted.press("lever_right")  # left runs: the times, whatever the battery says
    booted.run_to(13_500)  # 3.5 s into the turn: 4:56.5 left, the running point lit
    assert booted.board.display_text() == " 4.57.| 5.00"
    booted.run_to(20_000)
    booted.press("play")  # paused: the mark at once, for 2 s
    booted.run_to(20_020)
    assert booted.board.display_text() == "bAtt| Lo "
    booted.run_to(22_000)
    assert booted.board.display_text() == " 4.50| 5.00"


def test_board_with_a_good_battery_never_shows_the_mark(boot_board):
    booted = boot_board("300", adc_u16=u16_for_vsys(3900))
    assert booted.hardware.battery.millivolts == u16_for_vsys(3900) * 3300 // 65535 * 3
    seen = set()
    for now in range(0, 20_000, 500):
        booted.run_to(now)
        seen.add(booted.board.display_text())
    assert seen == {" 5.00| 5.00"}


def test_board_battery_falls_during_a_game(boot_board):
    from sim import machine as sim_machine

    booted = boot_board("300", adc_u16=u16_for_vsys(3900))
    booted.press("lever_right")
    sim_machine.set_adc(booted.board.board.BATTERY_ADC_PIN, u16_for_vsys(3200))
    booted.run_to(30_500)
    assert booted.hardware.battery.low
    assert booted.board.display_text() == " 4.30.| 5.00"  # running: times only
    booted.press("play")
    booted.run_to(30_600)
    assert booted.board.display_text() == "bAtt| Lo "


def test_board_never_covers_a_fallen_flag_with_the_mark(boot_board):
    # 3+2: the flag freezes the clock (over); the flags stay in view, battery low or not.
    booted = boot_board("180+2", adc_u16=u16_for_vsys(3300))
    booted.run_to(3000)
    booted.press("lever_right")
    seen = set()
    booted.run_to(190_000)
    assert booted.app.clock.state == 3  # over
    for now in range(190_000, 210_000, 100):
        booted.run_to(now)
        seen.add(booted.board.display_text())
    assert seen == {"F.0.00| 3.02"}  # right: 3:00 and its +2 s at its press
