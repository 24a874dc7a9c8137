"""The clock's current budget per part, and the low-battery threshold it gives.

FIDE's clock standard (C.02, clause g) asks for at least 10 hours of
flawless work after the low-battery indication. This module holds the draw
of every part (datasheet figures where the datasheet gives one, each with
its source), reads from a board definition what the firmware does with the
parts (the CPU clock it sets, the indicator's current, the radio), and
derives the voltage at which 10 hours, plus a margin for the figures, are
still left in the cell: the board's ``BATTERY_LOW_MV``.
``tests/test_power_budget.py`` checks every board's threshold against it,
and ``docs/boards.md`` carries the tables it prints:

    .venv/bin/python -m tools.power_budget            # the tables, as in docs/boards.md

Host only: never loaded on a board. Currents are in microamps, voltages in
millivolts, energy in microwatt-hours, all integers, so the figures are the
same on every machine.
"""

import boards
from firmware.settings import DEFAULT_BRIGHTNESS

HOURS_AFTER_MARK = 10  # FIDE C.02 (g)
MARGIN_PERCENT = 25  # on top of the budget: the estimates, ageing, a cold hall
RAIL_MV = 3300  # the displays, the indicators and the chip run at 3.3 V

# One 18650 Li-ion cell of 3000 mAh at about C/20: the share of its charge
# delivered (percent) against its voltage (mV), from the cells' datasheets
# (Samsung INR18650-30Q, LG MJ1: 0.2 C discharge curves, read at this rate).
CELL_MAH = 3000
CELL_CURVE = (
    (0, 4150),
    (10, 4020),
    (20, 3940),
    (30, 3870),
    (40, 3810),
    (50, 3760),
    (60, 3710),
    (70, 3660),
    (80, 3600),
    (90, 3500),
    (95, 3400),
    (100, 3000),
)

# The chip at the CPU clock the firmware sets, MicroPython idling (its core asleep
# between the main loop's wakes), radio off: (CHIP, CPU_FREQ_HZ): (microamps at 3.3 V,
# source). The loop sleeps until its next step (hal/sleep.py): about three wakes a
# second with a clock running, 1.5 % of the core measured on the port (make port:
# the image on rp2040js at 48 MHz), within LOOP_CPU_MAX_PERCENT (the model's figure,
# bench/wakeups.py, is held to it too); the old loop woke every millisecond, 45 % of
# the core on the port.
LOOP_CPU_MAX_PERCENT = 2  # what "idling" may take at most with a clock running
MCU_UA = {
    ("esp32", 80_000_000): (
        31_000,
        "ESP32 Series datasheet, table 'power consumption by power modes': modem-sleep "
        "(CPU on, radio off), dual core at 80 MHz, 20-31 mA; the highest figure",
    ),
    ("esp32", 160_000_000): (44_000, "the same table at 160 MHz: 27-44 mA"),
    ("esp32", 240_000_000): (68_000, "the same table at 240 MHz: 30-68 mA"),
    ("rp2040", 48_000_000): (
        18_000,
        "an estimate, for want of a datasheet figure: the RP2040 and Pico datasheets give "
        "none for MicroPython idling at 48 MHz; the 125 MHz estimate below with the "
        "clock-bound part scaled to 48 MHz, the flash and regulator kept; idling: the main "
        "loop keeps the core under 2 % busy with a clock running (1.5 % measured on the "
        "port under rp2040js, make port; the draw itself: measure it)",
    ),
    ("rp2040", 125_000_000): (
        30_000,
        "an estimate: a Pico idling in MicroPython at 125 MHz, about 20 mA at 5 V into "
        "VBUS, as the rail's current (measure it)",
    ),
}

# One HT16K33 backpack showing a clock's four digits (a colon or a point lit): its
# draw at full duty (16/16), and the chip's own share, which dimming does not change.
# The HT16K33 dims by duty cycle in 16 steps (its datasheet: "16-step dimming", the
# dimming-set command 0xE0 | n gives a duty of (n + 1)/16), so the LEDs' average
# current is the full figure times step/16; the chip's own draw stays.
# By DISPLAY_KIND: (microamps at 16/16, the chip's own microamps, rail mV, source).
DISPLAY_UA = {
    "0.56in": (
        40_000,
        1_000,
        RAIL_MV,
        'Adafruit 0.56" 7-segment backpack (product 878), typical use at full brightness; '
        "the HT16K33's own share an estimate from its datasheet's operating current with "
        "the LEDs dark (measure it)",
    ),
    "1.2in": (
        60_000,
        1_000,
        5000,
        '1.2" backpack (product 1270) on 5 V (it will not light on 3.3 V): an estimate, the '
        "HT16K33's row drivers source more at 5 V than the 0.56\" figure at 3.3 V (measure it)",
    ),
}
STEPS = 16  # the HT16K33's dimming steps: step s lights the LEDs s/16 of the time
DISPLAYS = 2
BOOST_PERCENT = 85  # a 5 V boost module (MT3608 or alike) from VSYS at about 150 mA

# The running-side indicator: one LED lit at a time (the running side), its
# current from the board (LED_CURRENT_MA), plus its transistor's base current:
# (3.3 V - 0.7 V) / 4.7 kohm.
INDICATOR_BASE_UA = 553

# The passive piezo through 100 ohm: about 2 mA while it sounds, which is under
# 1 % of a game (flags, the control-passed tone, the optional last-10-s beeps).
BUZZER_UA = 2_000
BUZZER_DUTY_PERCENT = 1

# Parts a board adds: (microamps at 3.3 V, source).
BOARD_EXTRA_UA = {
    "esp32": (5_000, "the DevKitC's power LED and its back-fed AMS1117 (estimate)"),
    "rp2040": (0, "nothing else on the 3.3 V rail"),
    "rp2040w": (0, "nothing else on the 3.3 V rail (the CYW43439 held off while offline)"),
}

# The radio, as the firmware leaves it: RADIO in the board file.
RADIO_UA = {
    None: (0, "no radio on the board"),
    "wifi-bt": (
        0,
        "Wi-Fi and Bluetooth never started (a Wi-Fi transmission would take about 240 mA: "
        "ESP32 datasheet)",
    ),
}

# How the cell reaches the 3.3 V rail.
PICO_BUCK_BOOST_PERCENT = 90  # the Pico's RT6150B at about 100 mA (Pico datasheet)
PICO_DIODE_MV = 300  # the 1N5817 between the cell and VSYS at about 120 mA
PICO_CELL_NOMINAL_MV = 3700
ESP32_DROPOUT_PERCENT = 95  # the AP2112K keeps 3.3 V down to about 3.4 V: 95 % delivered


# The radio joined to the tournament hall (a hall file on the flash, docs/hall.md):
# associated in its power-saving mode, a message of a few hundred bytes on a move
# and every 30 s, so the average counts, not the transmit peaks; by CHIP.
RADIO_ON_UA = {
    "rp2040w": (
        25_000,
        "the Pico W's CYW43439 associated in power-saving mode (DTIM), a message every "
        "few seconds: an estimate from its data sheet (measure it)",
    ),
    "esp32": (
        30_000,
        "Wi-Fi associated in modem sleep between beacons, a message every few seconds: an "
        "estimate from the ESP32 datasheet's modem-sleep and receive figures (measure it)",
    ),
}

# A chip variant that draws as its family with the radio off.
MCU_FAMILY = {"rp2040w": "rp2040"}


def display_ua(kind, step=STEPS):
    """One backpack of ``kind`` at brightness ``step`` (1..16), in microamps."""
    if not 1 <= step <= STEPS:
        raise ValueError("brightness step %r is not 1 to %d" % (step, STEPS))
    full, chip = DISPLAY_UA[kind][:2]
    return chip + (full - chip) * step // STEPS


def loads(board, radio_on=False, step=STEPS):
    """The budget of ``board``: a list of (part, microamps, rail mV, source); with
    ``radio_on``, as it draws joined to a hall; the displays at brightness ``step``."""
    family = MCU_FAMILY.get(board.CHIP, board.CHIP)
    mcu = MCU_UA.get((family, board.CPU_FREQ_HZ))
    if mcu is None:
        raise ValueError(
            "no figure for the %s at %d Hz in tools/power_budget.py MCU_UA"
            % (board.CHIP, board.CPU_FREQ_HZ)
        )
    rows = [("%s at %d MHz" % (family, board.CPU_FREQ_HZ // 1_000_000), mcu[0], RAIL_MV, mcu[1])]
    kind = getattr(board, "DISPLAY_KIND", "0.56in")
    display = DISPLAY_UA[kind]
    rows.append(
        (
            "%d displays, %s, at %d/%d" % (DISPLAYS, kind, step, STEPS),
            DISPLAYS * display_ua(kind, step),
            display[2],
            display[3],
        )
    )
    if board.LED_LEFT is not None or board.LED_RIGHT is not None:
        rows.append(
            (
                "running-side indicator",
                board.LED_CURRENT_MA * 1000 + INDICATOR_BASE_UA,
                RAIL_MV,
                "one %d mm LED at %d mA (LED_CURRENT_MA) and its transistor's base"
                % (board.LED_DIAMETER_MM, board.LED_CURRENT_MA),
            )
        )
    rows.append(
        (
            "buzzer",
            BUZZER_UA * BUZZER_DUTY_PERCENT // 100,
            RAIL_MV,
            "%d mA while sounding, under %d %% of the time"
            % (BUZZER_UA // 1000, BUZZER_DUTY_PERCENT),
        )
    )
    if radio_on:
        radio = RADIO_ON_UA[board.CHIP]
    else:
        radio = RADIO_UA[getattr(board, "RADIO", None)]
    rows.append(("radio", radio[0], RAIL_MV, radio[1]))
    extra = BOARD_EXTRA_UA[board.CHIP]
    if extra[0]:
        rows.append(("board", extra[0], RAIL_MV, extra[1]))
    return rows


def rail_ua(board, rail_mv=RAIL_MV, radio_on=False, step=STEPS):
    """The whole draw on the rail of ``rail_mv``, in microamps."""
    return sum(row[1] for row in loads(board, radio_on, step) if row[2] == rail_mv)


def _with_margin(value):
    return value * (100 + MARGIN_PERCENT) // 100


def _energy_left_uwh(percent, cells=1):
    """Energy (microwatt-hours) ``cells`` cells in parallel still hold at ``percent`` of
    their charge delivered."""
    total = 0
    for (p0, v0), (p1, v1) in zip(CELL_CURVE, CELL_CURVE[1:], strict=False):
        if p1 <= percent:
            continue
        start = max(p0, percent)
        v_start = v0 + (v1 - v0) * (start - p0) // (p1 - p0)
        charge_uah = cells * CELL_MAH * 1000 * (p1 - start) // 100
        total += charge_uah * (v_start + v1) // 2 // 1000
    return total


def _voltage_at(percent_x100):
    """The cell's voltage at ``percent_x100`` hundredths of a percent delivered."""
    for (p0, v0), (p1, v1) in zip(CELL_CURVE, CELL_CURVE[1:], strict=False):
        if p0 * 100 <= percent_x100 <= p1 * 100:
            return v0 + (v1 - v0) * (percent_x100 - p0 * 100) // ((p1 - p0) * 100)
    raise ValueError("outside the curve")


def _round_up_10(mv):
    return -(-mv // 10) * 10


def derivation(board, radio_on=False, step=STEPS):
    """How ``board``'s threshold follows from its budget at brightness ``step``: a dict
    of the figures."""
    rail = rail_ua(board, RAIL_MV, radio_on, step)
    five = rail_ua(board, 5000, radio_on, step)
    cells = getattr(board, "BATTERY_CELLS", 1)  # 18650 cells in parallel
    if board.CHIP.startswith("rp2040"):
        # The buck-boost (and the 5 V boost, for 1.2" displays) turn the cell's energy
        # into the rails'; the diode takes its drop times the cell's current.
        rail_uw = rail * RAIL_MV // 1000
        five_uw = five * 5000 // 1000
        vsys_uw = rail_uw * 100 // PICO_BUCK_BOOST_PERCENT + five_uw * 100 // BOOST_PERCENT
        cell_uw = vsys_uw * PICO_CELL_NOMINAL_MV // (PICO_CELL_NOMINAL_MV - PICO_DIODE_MV)
        need_uwh = _with_margin(cell_uw) * HOURS_AFTER_MARK
        # The latest point (in hundredths of a percent) that still holds that energy.
        point = 0
        while point < 10_000 and _energy_left_at(point + 1, cells) >= need_uwh:
            point += 1
        cell_mv = _voltage_at(point)
        return {
            "rail_ua": rail,
            "five_ua": five,
            "cell_uw": cell_uw,
            "need_uwh": need_uwh,
            "percent_x100": point,
            "cell_mv": cell_mv,
            "threshold_mv": _round_up_10(cell_mv - PICO_DIODE_MV),
            "full_hours_x10": _energy_left_uwh(0, cells) * 10 // cell_uw,
            "cells": cells,
        }
    # The linear regulator: the cell's current is the rail's, until the dropout.
    if five:
        raise ValueError("a 5 V rail behind the ESP32's linear regulator is not budgeted")
    need_uah = _with_margin(rail) * HOURS_AFTER_MARK
    usable_uah = cells * CELL_MAH * 1000 * ESP32_DROPOUT_PERCENT // 100
    point = (usable_uah - need_uah) * 10_000 // (cells * CELL_MAH * 1000)
    cell_mv = _voltage_at(point)
    return {
        "rail_ua": rail,
        "need_uah": need_uah,
        "percent_x100": point,
        "cell_mv": cell_mv,
        "threshold_mv": _round_up_10(cell_mv),
        "full_hours_x10": usable_uah * 10 // rail,
    }


def _energy_left_at(point, cells=1):
    """Energy left at ``point`` hundredths of a percent delivered (linear within a step)."""
    whole = point // 100
    low = _energy_left_uwh(whole, cells)
    high = _energy_left_uwh(whole + 1, cells) if whole < 100 else low
    return low - (low - high) * (point % 100) // 100


def threshold_mv(board, radio_on=False, step=STEPS):
    """The threshold ``board``'s budget gives at brightness ``step``: at full brightness
    its ``BATTERY_LOW_MV``, with ``radio_on`` its ``BATTERY_LOW_HALL_MV``."""
    return derivation(board, radio_on, step)["threshold_mv"]


def step_thresholds(board):
    """The thresholds at brightness 1..16: the board's ``BATTERY_LOW_STEPS_MV``."""
    return tuple(threshold_mv(board, step=step) for step in range(1, STEPS + 1))


def hours_x10(board, step=STEPS):
    """Tenths of an hour of play from a full charge to empty at brightness ``step``."""
    return derivation(board, step=step)["full_hours_x10"]


GOAL_HOURS = 50  # a 9-round open on one charge, at the default brightness
GOAL_BOARDS = ("pico", "esp32")
LIFE_STEPS = (1, 2, 3, 4, 6, 8, 12, 16)  # the steps docs/build.md lists


def life_table(names=("pico", "esp32", "pico_big"), steps=LIFE_STEPS):
    """Hours of play on one charge per brightness step and board, as Markdown
    (docs/build.md); the default step in bold."""
    lines = [
        "| brightness | " + " | ".join(names) + " |",
        "|---" * (len(names) + 1) + "|",
    ]
    for step in steps:
        cells = []
        for name in names:
            tenths = hours_x10(boards.load(name), step)
            cells.append("%d.%d h" % (tenths // 10, tenths % 10))
        label = "%d/%d" % (step, STEPS)
        if step == DEFAULT_BRIGHTNESS:
            label = "**%s (default)**" % label
            cells = ["**%s**" % cell for cell in cells]
        lines.append("| " + label + " | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _volts(millivolts):
    return "%d.%d" % (millivolts // 1000, millivolts % 1000 // 100)


def _ma(microamps):
    return "%d.%02d mA" % (microamps // 1000, microamps % 1000 // 10)


def table(board, radio_on=False, step=STEPS):
    """The budget and the derivation of ``board`` at brightness ``step`` as Markdown
    (docs/boards.md)."""
    lines = ["| part | draw | source |", "|---|---|---|"]
    for part, microamps, rail_mv, source in loads(board, radio_on, step):
        lines.append("| %s | %s at %s V | %s |" % (part, _ma(microamps), _volts(rail_mv), source))
    figures = derivation(board, radio_on, step)
    total = "**%s at 3.3 V**" % _ma(figures["rail_ua"])
    if figures.get("five_ua"):
        total += " and **%s at 5 V** (boost %d %%)" % (_ma(figures["five_ua"]), BOOST_PERCENT)
    lines.append("| **total** | %s | |" % total)
    lines.append("")
    point = figures["percent_x100"]
    if board.CHIP.startswith("rp2040"):
        lines.append(
            "At the %s (buck-boost %d %%, diode %d mV): %d mW; %d h and %d %% more: %d.%02d Wh "
            "must be left. It holds that until %d.%02d %% delivered, at %d mV; less the "
            "diode, VSYS reads **%d mV**. Full, it lasts about %d.%d h."
            % (
                "cell" if figures["cells"] == 1 else "%d cells in parallel" % figures["cells"],
                PICO_BUCK_BOOST_PERCENT,
                PICO_DIODE_MV,
                figures["cell_uw"] // 1000,
                HOURS_AFTER_MARK,
                MARGIN_PERCENT,
                figures["need_uwh"] // 1_000_000,
                figures["need_uwh"] % 1_000_000 // 10_000,
                point // 100,
                point % 100,
                figures["cell_mv"],
                figures["threshold_mv"],
                figures["full_hours_x10"] // 10,
                figures["full_hours_x10"] % 10,
            )
        )
    else:
        lines.append(
            "Through the linear regulator the cell gives the rail's current until %d %% "
            "delivered; %d h and %d %% more: %d mAh must be left, so the mark comes at "
            "%d.%02d %% delivered, the cell at **%d mV**. A full cell lasts about %d.%d h."
            % (
                ESP32_DROPOUT_PERCENT,
                HOURS_AFTER_MARK,
                MARGIN_PERCENT,
                figures["need_uah"] // 1000,
                point // 100,
                point % 100,
                figures["threshold_mv"],
                figures["full_hours_x10"] // 10,
                figures["full_hours_x10"] % 10,
            )
        )
    return "\n".join(lines)


BUDGET_BOARDS = ("pico", "esp32", "pico_big")
# The boards with a radio, joined to a hall: their BATTERY_LOW_HALL_MV.
HALL_BOARDS = ("pico_w", "esp32")


def main():
    print("### hours of play on one charge, per brightness\n")
    print(life_table())
    print()
    for name in BUDGET_BOARDS:
        print("### %s\n" % name)
        print(table(boards.load(name)))
        print()
    for name in HALL_BOARDS:
        print("### %s, joined to a hall\n" % name)
        print(table(boards.load(name), radio_on=True))
        print()


if __name__ == "__main__":
    main()
