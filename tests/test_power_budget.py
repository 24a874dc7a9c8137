"""The low-battery threshold of every board follows from its current budget (FIDE C.02 (g)).

The budget (tools/power_budget.py) reads from the board file what the
firmware does with the parts; the threshold in the board file, the CPU clock
the hardware layer sets, the displays' brightness and the tables in
docs/boards.md must all agree with it, so none can change alone.
"""

import os
import types

import pytest

import boards
from firmware import settings as settings_module
from sim import machine as sim_machine
from sim.world import SimBoard, fresh_flash
from tests.scripting import ROOT
from tools import power_budget

REAL_BOARDS = sorted(
    name[:-3]
    for name in os.listdir(os.path.join(ROOT, "boards"))
    if name.endswith(".py") and name[:-3] not in ("__init__", "sim")
)


@pytest.mark.parametrize("name", REAL_BOARDS)
def test_the_board_threshold_is_the_budget_threshold(name):
    board = boards.load(name)
    assert board.BATTERY_LOW_MV == power_budget.threshold_mv(board)


@pytest.mark.parametrize("name", power_budget.HALL_BOARDS)
def test_the_hall_threshold_is_the_budget_threshold_with_the_radio_on(name):
    board = boards.load(name)
    assert board.NETWORK
    assert board.BATTERY_LOW_HALL_MV == power_budget.threshold_mv(board, radio_on=True)
    # The radio only adds: joined to a hall, the mark comes earlier (a higher voltage).
    assert board.BATTERY_LOW_HALL_MV > board.BATTERY_LOW_MV


def test_every_board_with_a_network_has_its_hall_budget():
    networked = [name for name in REAL_BOARDS if getattr(boards.load(name), "NETWORK", False)]
    assert sorted(networked) == sorted(power_budget.HALL_BOARDS)


@pytest.mark.parametrize("name", REAL_BOARDS)
def test_ten_hours_with_the_margin_are_left_at_the_threshold(name):
    # Worked the other way round: from the threshold to the hours left.
    board = boards.load(name)
    figures = power_budget.derivation(board)
    margin = 100 + power_budget.MARGIN_PERCENT
    if board.CHIP.startswith("rp2040"):
        cell_mv = board.BATTERY_LOW_MV + power_budget.PICO_DIODE_MV
        # The first curve point at or below that voltage holds no more than what is left.
        assert cell_mv >= figures["cell_mv"]  # rounded up: the mark comes earlier, not later
        left = power_budget._energy_left_at(figures["percent_x100"], figures["cells"])
        assert left * 100 >= figures["cell_uw"] * margin * power_budget.HOURS_AFTER_MARK
        # 11.3 Wh in the whole cell; the mark leaves about half of it.
        assert 11_000_000 < power_budget._energy_left_uwh(0) < 11_500_000
    else:
        usable = power_budget.CELL_MAH * 1000 * power_budget.ESP32_DROPOUT_PERCENT // 100
        delivered = power_budget.CELL_MAH * 1000 * figures["percent_x100"] // 10_000
        hours_x100 = (usable - delivered) * 100 * 100 // (figures["rail_ua"] * margin)
        assert hours_x100 >= 1000
        assert board.BATTERY_LOW_MV >= figures["cell_mv"]  # rounded up, never down


def board_with(board, **changes):
    """A copy of board definition ``board`` (its upper-case names) with ``changes``."""
    copy = types.SimpleNamespace(**{k: getattr(board, k) for k in dir(board) if k.isupper()})
    copy.__dict__.update(changes)
    return copy


def test_a_bigger_draw_gives_a_higher_threshold():
    board = boards.load("esp32")
    faster = board_with(board, CPU_FREQ_HZ=240_000_000)  # 68 mA instead of 31 mA
    assert power_budget.threshold_mv(faster) > board.BATTERY_LOW_MV


def test_a_clock_without_a_figure_is_refused():
    odd = board_with(boards.load("pico"), CPU_FREQ_HZ=133_000_000)
    with pytest.raises(ValueError, match="no figure"):
        power_budget.threshold_mv(odd)


@pytest.mark.parametrize("name", REAL_BOARDS)
def test_the_indicator_current_is_the_board_data(name):
    board = boards.load(name)
    rows = {row[0]: row[1] for row in power_budget.loads(board)}
    expected = board.LED_CURRENT_MA * 1000 + power_budget.INDICATOR_BASE_UA
    assert rows["running-side indicator"] == expected


def test_boot_sets_the_budget_cpu_clock_and_the_brightness_setting():
    board = SimBoard(fresh_flash())
    board.boot()
    try:
        assert sim_machine.freq() == boards.load("pico").CPU_FREQ_HZ == 48_000_000
        # 2/16 by default: the HT16K33's dimming command 0xE0 | n lights (n + 1)/16
        assert [chip.brightness for chip in board.chips] == [1, 1]
    finally:
        board.app.hardware.stop()


def test_a_display_draws_its_chip_and_its_share_of_the_lit_time():
    # 0.56": 40 mA at 16/16 of which 1 mA is the chip's own; at 2/16 the LEDs' 39 mA
    # are lit an eighth of the time: 1 + 39 / 8 = 5.875 mA.
    assert power_budget.display_ua("0.56in", 2) == 5_875
    assert power_budget.display_ua("0.56in", 16) == 40_000
    assert power_budget.display_ua("1.2in", 1) == 1_000 + 59_000 // 16
    for step in (0, 17):
        with pytest.raises(ValueError, match="brightness"):
            power_budget.display_ua("0.56in", step)


@pytest.mark.parametrize("name", power_budget.GOAL_BOARDS)
def test_the_default_brightness_lasts_a_nine_round_open_on_one_cell(name):
    board = boards.load(name)
    hours_x10 = power_budget.hours_x10(board, settings_module.DEFAULT_BRIGHTNESS)
    assert hours_x10 >= power_budget.GOAL_HOURS * 10 == 500
    # and full brightness does not: the goal is the setting's doing
    assert power_budget.hours_x10(board) < 300


def test_esp32_battery_life_at_the_default_worked_by_hand():
    # ESP32 at 2/16: 31 mA (chip) + 2 x 5.875 mA (displays) + 5.553 mA (LED and base)
    # + 0.02 mA (buzzer) + 5 mA (board) = 53.323 mA; the linear regulator passes 95 %
    # of 3000 mAh = 2850 mAh: 2850 / 53.323 = 53.4 h.
    assert power_budget.hours_x10(boards.load("esp32"), 2) == 534


@pytest.mark.parametrize("name", REAL_BOARDS)
def test_the_mark_leaves_ten_hours_at_every_brightness(name):
    # The setting may be raised after the mark: the board's threshold is at least the
    # one every step needs.
    board = boards.load(name)
    needs = [power_budget.threshold_mv(board, step=step) for step in range(1, 17)]
    assert max(needs) == needs[-1] == board.BATTERY_LOW_MV
    assert needs[0] < needs[-1]  # dimmer digits need less left


def test_the_build_guide_carries_the_battery_life_table():
    with open(os.path.join(ROOT, "docs", "build.md")) as handle:
        assert power_budget.life_table() in handle.read()


def test_docs_carry_the_budget_tables():
    with open(os.path.join(ROOT, "docs", "boards.md")) as handle:
        text = handle.read()
    for name in power_budget.BUDGET_BOARDS:
        assert power_budget.table(boards.load(name)) in text, name
    for name in power_budget.HALL_BOARDS:
        assert power_budget.table(boards.load(name), radio_on=True) in text, name


def test_the_chip_idles_as_its_figure_says_by_the_models_wake_ups():
    """The rp2040's draw is a figure for MicroPython idling: the main loop, which sleeps
    until its next step, keeps the core busy at most LOOP_CPU_MAX_PERCENT with a clock
    running, by the model's wake-ups (bench/wakeups.py) and the port's cost of a
    wake-up (the port measured 1.5 %); the old loop, a wake every millisecond, took
    45 % on the port. (The last 10 s, tenths on the display, wake ten times as often:
    a game's 10 s, no share of a battery's day.)"""
    from bench import wakeups

    share = wakeups.cpu_percent(wakeups.wakes_per_second("running", "pico"))
    assert share <= power_budget.LOOP_CPU_MAX_PERCENT, share
    assert wakeups.cpu_percent(1000) > power_budget.LOOP_CPU_MAX_PERCENT  # machine.idle()'s
