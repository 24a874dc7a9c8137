"""docs/boards.md's tables, checked against the board files: the table of what a board
file names (Pico and ESP32-DevKitC), both wiring tables part by part, and the latency
check's jumpers (tests/manual_facts.py reads each fact by its pattern). Each check
was seen failing on the old table (the LED current at 15, the thresholds of an
older budget) and on every value made wrong in memory.
"""

import re

import pytest

import boards
from hal import board_check
from tests.manual_facts import ROOT, Fact, table_row
from tools.pictures import diagrams


def board(name):
    return boards.load(name)


# --- docs/boards.md: the board files' table, Pico and ESP32-DevKitC -----------


def _pin(b, pin):
    return diagrams.pin_name(b, pin)


def _pins(b, pins):
    """GP14-19 for a run; GPIO32, 33, 25 otherwise."""
    pins = list(pins)
    if pins == list(range(pins[0], pins[0] + len(pins))):
        return "%s-%d" % (_pin(b, pins[0]), pins[-1])
    return ", ".join([_pin(b, pins[0])] + [str(p) for p in pins[1:]])


def _adc(b):
    pin = b.BATTERY_ADC_PIN
    if b.CHIP == "esp32":
        assert pin in board_check.CHIPS["esp32"].adc  # ADC1's pins are the only ones listed
        return "%s (ADC1)" % _pin(b, pin)
    return "%s (ADC%d)" % (_pin(b, pin), pin - 26)  # the RP2040's ADC0-3 on GP26-29


def _text(value):
    return '`"%s"`' % value if isinstance(value, str) else str(value)


BOARD_ROWS = {
    "`CHIP`": lambda b: "`%s`" % b.CHIP,
    "`I2C_ID`, `I2C_SDA`, `I2C_SCL`, `I2C_FREQ`": lambda b: (
        "%d, %s, %s, %d kHz"
        % (b.I2C_ID, _pin(b, b.I2C_SDA), _pin(b, b.I2C_SCL), b.I2C_FREQ // 1000)
    ),
    "`DISPLAY_LEFT`, `DISPLAY_RIGHT`": lambda b: (
        "0x%02x, 0x%02x" % (b.DISPLAY_LEFT, b.DISPLAY_RIGHT)
    ),
    "`INPUTS`": lambda b: _pins(b, b.INPUTS.values()),
    "`ACTIVE_LOW`, `INPUT_PULL`": lambda b: "%s, %s" % (b.ACTIVE_LOW, _text(boards.input_pull(b))),
    "`BUZZER_PIN`": lambda b: _pin(b, b.BUZZER_PIN),
    "`LED_LEFT`, `LED_RIGHT`, `LED_ACTIVE_HIGH`": lambda b: (
        "%s, %s, %s" % (_pin(b, b.LED_LEFT), _pin(b, b.LED_RIGHT), b.LED_ACTIVE_HIGH)
    ),
    "`LED_DIAMETER_MM`, `LED_CURRENT_MA`": lambda b: (
        "%d, %d" % (b.LED_DIAMETER_MM, b.LED_CURRENT_MA)
    ),
    "`DIGIT_HEIGHT_MM`": lambda b: b.DIGIT_HEIGHT_MM,
    "`CPU_FREQ_HZ`": lambda b: "%d MHz" % (b.CPU_FREQ_HZ // 1_000_000),
    "`RADIO`": lambda b: _text(b.RADIO),
    "`BATTERY_ADC_PIN`, `BATTERY_DIVIDER`": lambda b: "%s, %s" % (_adc(b), b.BATTERY_DIVIDER),
    "`BATTERY_LOW_MV`": lambda b: b.BATTERY_LOW_MV,
    "`WATCHDOG_MS`": lambda b: b.WATCHDOG_MS,
    "`TIMER_ID`, `TICK_MS`": lambda b: "%d, %d ms" % (b.TIMER_ID, b.TICK_MS),
}


def _table_fact(cell, render):
    return Fact(
        "docs/boards.md",
        table_row("docs/boards.md", cell, 2),
        lambda: (render(board("pico")), render(board("esp32"))),
        "docs/boards.md %s" % cell,
    )


def _hall_cells():
    pico_w, esp32 = board("pico_w"), board("esp32")
    assert getattr(board("pico"), "BATTERY_LOW_HALL_MV", None) is None
    return "- (`pico_w`: %d)" % pico_w.BATTERY_LOW_HALL_MV, esp32.BATTERY_LOW_HALL_MV


def _network_cells():
    pico, pico_w, esp32 = board("pico"), board("pico_w"), board("esp32")
    return "%s (`pico_w`: %s)" % (getattr(pico, "NETWORK", False) or False, pico_w.NETWORK), (
        esp32.NETWORK
    )


BOARD_TABLE = [_table_fact(cell, render) for cell, render in BOARD_ROWS.items()] + [
    Fact(
        "docs/boards.md",
        table_row("docs/boards.md", "`BATTERY_LOW_HALL_MV`", 2),
        _hall_cells,
        "docs/boards.md `BATTERY_LOW_HALL_MV`",
    ),
    Fact(
        "docs/boards.md",
        table_row("docs/boards.md", "`NETWORK`", 2),
        _network_cells,
        "docs/boards.md `NETWORK`",
    ),
    Fact(
        "docs/boards.md",
        r"^\| `BATTERY_ADC_FULL_SCALE_MV` \|[^|]*\| (\d+) \| (\d+) ",
        lambda: (board("pico").BATTERY_ADC_FULL_SCALE_MV, board("esp32").BATTERY_ADC_FULL_SCALE_MV),
        "docs/boards.md `BATTERY_ADC_FULL_SCALE_MV`",
    ),
    Fact(
        "docs/boards.md",
        r"the watchdog's timeout: (\d+) ms \(twice the app's longest rest\) to (\d+) ms",
        lambda: (board_check.WATCHDOG_MIN_MS, board_check.WATCHDOG_MAX_MS),
        "docs/boards.md watchdog limits",
    ),
]

# --- docs/boards.md: the wiring tables, by part --------------------------------

WIRED = {
    "both displays SDA (D)": lambda b: _pin(b, b.I2C_SDA),
    "both displays SCL (C)": lambda b: _pin(b, b.I2C_SCL),
    "left display": lambda b: "address 0x%02x" % b.DISPLAY_LEFT,
    "right display": lambda b: "address 0x%02x" % b.DISPLAY_RIGHT,
    "left lever microswitch": lambda b: _pin(b, b.INPUTS["lever_left"]),
    "right lever microswitch": lambda b: _pin(b, b.INPUTS["lever_right"]),
    "play/pause key": lambda b: _pin(b, b.INPUTS["play"]),
    "set key": lambda b: _pin(b, b.INPUTS["set"]),
    "plus key": lambda b: _pin(b, b.INPUTS["plus"]),
    "minus key": lambda b: _pin(b, b.INPUTS["minus"]),
    "buzzer": lambda b: _pin(b, b.BUZZER_PIN),
    "left running-side indicator": lambda b: _pin(b, b.LED_LEFT),
    "right running-side indicator": lambda b: _pin(b, b.LED_RIGHT),
    "battery measurement": _adc,
}
WIRING_SECTIONS = {"Raspberry Pi Pico / Pico W": "pico", "ESP32-DevKitC": "esp32"}


def _section(heading):
    text = (ROOT / "docs" / "boards.md").read_text()
    return text.split("\n## " + heading, 1)[1].split("\n## ", 1)[0]


class WiringFact(Fact):
    """A row of a wiring table: its pin, read in that board's section only."""

    def __init__(self, heading, part, cell):
        name = WIRING_SECTIONS[heading]
        super().__init__(
            "docs/boards.md",
            r"^\| %s \| ([^|]*?) \|" % re.escape(part),
            lambda: (cell(board(name)),),
            "docs/boards.md %s: %s" % (heading, part),
        )
        self.heading = heading

    def source_text(self):
        return _section(self.heading)


WIRING = [
    WiringFact(heading, part, cell) for heading in WIRING_SECTIONS for part, cell in WIRED.items()
]


# --- docs/boards.md: the latency check's jumpers ----------------------------------


def _jumpers(names):
    """The probe and lever pins of ``names``, which the table's row gives as one."""
    pins = set()
    for name in names:
        b = board(name)
        probes = b.LATENCY_PROBE_PINS
        pins.add(tuple(
            _pin(b, pin)
            for side in ("lever_left", "lever_right")
            for pin in (probes[side], b.INPUTS[side])
        ))  # fmt: skip
    assert len(pins) == 1, pins
    return pins.pop()


def _rp2040_boards():
    return [n for n in board_check.board_names() if board(n).CHIP.startswith("rp2040")]


JUMPERS = [
    Fact(
        "docs/boards.md",
        r"^\| `pico`, `pico_w`, `pico_big` \| (GP\d+) \(pin \d+\) to (GP\d+) \(pin \d+\) \|"
        r" (GP\d+) \(pin \d+\) to (GP\d+) \(pin \d+\) \|$",
        lambda: _jumpers(_rp2040_boards()),
        "docs/boards.md latency jumpers: the RP2040 boards",
    ),
    Fact(
        "docs/boards.md",
        r"^\| `esp32` \| (GPIO\d+) \(IO\d+\) to (GPIO\d+) \(IO\d+\) \|"
        r" (GPIO\d+) \(IO\d+\) to (GPIO\d+) \(IO\d+\) \|$",
        lambda: _jumpers(["esp32"]),
        "docs/boards.md latency jumpers: esp32",
    ),
]


def test_the_jumper_rows_name_every_board_of_their_chip():
    # the RP2040 row lists every board of that chip, the ESP32 row the ESP32's
    assert _rp2040_boards() == ["pico", "pico_big", "pico_w"]
    assert [n for n in board_check.board_names() if board(n).CHIP == "esp32"] == ["esp32"]


# --- docs/boards.md: what hal/board_check.py refuses --------------------------------


def _runs(pins, prefix):
    """GP23-25 and GP29: the runs of ``pins``, the first of each with ``prefix``."""
    pins, out = sorted(pins), []
    for pin in pins:
        if out and pin == out[-1][1] + 1:
            out[-1][1] = pin
        else:
            out.append([pin, pin])
    return " and ".join(
        "%s%d" % (prefix, a) if a == b else "%s%d-%d" % (prefix, a, b) for a, b in out
    )


CHECKS = [
    Fact(
        "docs/boards.md",
        r"the Pico's board-internal (GP[\d-]+) and\s+(GP[\d-]+) \(except as the battery's ADC\)",
        lambda: tuple(_runs(board_check.RP2040.reserved, "GP").split(" and ")),
        "docs/boards.md: the Pico's reserved pins",
    ),
    Fact(
        "docs/boards.md",
        r"display addresses that are equal or\s+outside (0x[0-9a-f]+)-(0x[0-9a-f]+),",
        lambda: tuple("0x%02x" % f(board_check.HT16K33_ADDRESSES) for f in (min, max)),
        "docs/boards.md: the displays' addresses",
    ),
]


FACTS = BOARD_TABLE + WIRING + JUMPERS + CHECKS


@pytest.mark.parametrize("fact", FACTS, ids=repr)
def test_the_table_states_what_the_board_files_give(fact):
    assert fact.check() == []


@pytest.mark.parametrize("fact", FACTS, ids=repr)
def test_each_value_stated_wrong_is_caught(fact):
    assert fact.wrongs_missed() == []
