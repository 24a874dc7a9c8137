"""What the manuals state about the boards, the build and the tools, checked against
the source it comes from (tests/manual_facts.py reads each fact by its pattern).

The board files' table and wiring tables in docs/boards.md, the low-battery
voltages in its prose, the LED current and the battery life docs/build.md and
docs/menus.md give, the boards ``--board`` takes (docs/simulator.md), what
``make sim`` and ``make test`` need (README.md), every ``make`` target a manual
names, the flash model's agreement with littlefs (docs/power.md) and the CAD
tools' size (requirements-case.txt). The case's figures are in
tests/test_manual_case_facts.py (they need the kernel). Each check was seen
failing on a wrong value written into its document (the LED current back at 15,
a board left out of the ``--board`` list, a threshold of 3480).
"""

import re

import pytest

import boards
from hal import board_check
from tests.manual_facts import (
    ROOT,
    Fact,
    caught,
    makefile_prerequisites,
    makefile_targets,
    table_row,
)
from tools import power_budget
from tools.pictures import diagrams


def board(name):
    return boards.load(name)


def real_boards():
    """Every board of boards/ but the simulator's (one list: the files themselves)."""
    return board_check.board_names()


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

# --- prose: thresholds, currents, battery life, boards, needs --------------------


def _min_default_hours():
    return min(
        power_budget.hours_x10(board(name), power_budget.DEFAULT_BRIGHTNESS) // 10
        for name in power_budget.BUDGET_BOARDS
    )


def _requires_python():
    text = (ROOT / "pyproject.toml").read_text()
    return re.search(r'requires-python = ">=([\d.]+)"', text).group(1)


PROSE = [
    Fact(
        "docs/boards.md",
        r"offline the Pico W draws as the Pico \(`BATTERY_LOW_MV = (\d+)`\)",
        lambda: (board("pico_w").BATTERY_LOW_MV,),
    ),
    Fact(
        "docs/build.md",
        r"LEDs run at (\d+) mA, a third of",
        lambda: (board("pico").LED_CURRENT_MA,),
    ),
    Fact(
        "docs/menus.md",
        r"the default, reads at 3 m in a lit hall and lasts (\d+) h of play or more on every board",
        lambda: (_min_default_hours(),),
    ),
    Fact(
        "docs/fide.md",
        r"(\d\.\d\d) V on the Pico's VSYS, (\d\.\d\d) V at the ESP32's cell",
        lambda: tuple("%.2f" % (board(n).BATTERY_LOW_MV / 1000) for n in ("pico", "esp32")),
    ),
    Fact(
        "docs/simulator.md",
        r"whose wiring is simulated \(((?:`\w+`(?:, )?)+)\); default `sim`",
        lambda: (", ".join("`%s`" % n for n in ["sim"] + real_boards()),),
    ),
    Fact(
        "README.md",
        r"`make sim` needs Python ([\d.]+)\+ and\s+`make`: it creates `\.venv`",
        lambda: (_requires_python(),),
    ),
    Fact(
        "README.md",
        r"`make test` needs Node.js 20\+ and npm as well: `make (\w+)` \(which it runs\)",
        lambda: (makefile_prerequisites("test")[0],),
    ),
]


class BoardList(Fact):
    """A manual's list of every board: the names in backticks (``pico`` or
    ``pico.py``) in its group, against the files of boards/, in any order."""

    def __init__(self, document, pattern, simulated=False):
        super().__init__(document, pattern, lambda: board_check.board_names(simulated))
        self.name = "%s: the boards %s" % (document, pattern[:30])

    def check(self, text=None):
        (stated,) = self.stated(text)
        names = sorted(re.findall(r"`(\w+)(?:\.py)?`", stated))
        want = self.expected()
        return [] if names == want else ["%s names %s, boards/ %s" % (self.name, names, want)]


BOARD_LISTS = [
    BoardList("README.md", r"`BOARD` is one of the pin maps of `boards/` \(([^)]*)\)"),
    BoardList("README.md", r"^\| `boards/` \| one pin map per board, as data: ([^|]*)\|", True),
    BoardList(
        "README.md", r"it is measured per board over [\d,]+ presses,\s+((?:`\w+`,? )+and `\w+`)"
    ),
    BoardList("docs/build.md", r"^`BOARD` is (`.*`)\.$"),
    BoardList(
        "docs/architecture.md", r"^\| `boards/` \| One module per board: (.*?)\. Pins,", True
    ),
]


@pytest.mark.parametrize("fact", BOARD_LISTS, ids=repr)
def test_a_manuals_list_of_the_boards_is_the_folders(fact):
    assert fact.check() == []
    # a board left out, or one that is not there, is caught
    text = fact.source_text()
    assert fact.check(re.sub(r"`pico_w(\.py)?`", r"`pico_x\1`", text)) != []


@pytest.mark.parametrize("fact", BOARD_TABLE + WIRING + PROSE, ids=repr)
def test_the_manual_states_what_the_source_gives(fact):
    assert fact.check() == []


@pytest.mark.parametrize("fact", BOARD_TABLE + WIRING + PROSE, ids=repr)
def test_each_value_stated_wrong_is_caught(fact):
    for wrong in fact.wrong_texts():
        assert caught(fact, wrong)


def test_make_sim_needs_no_node():
    # README.md: make sim needs only Python and make; make test the MicroPython lane too
    assert makefile_prerequisites("sim") == ["$(VENV)/.installed"]
    assert "$(MPY_DIR)/node_modules/.installed" in makefile_prerequisites("setup")


MAKE_NAMED = re.compile(r"`make ([a-z][\w-]*)")


def test_every_make_target_a_manual_names_exists():
    targets = makefile_targets()
    missing = []
    for path in [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md")):
        for target in MAKE_NAMED.findall(path.read_text()):
            if target not in targets:
                missing.append("%s: make %s" % (path.relative_to(ROOT), target))
    assert missing == []


def test_a_fact_stated_wrong_is_caught():
    fact = PROSE[1]  # the LED current in docs/build.md
    right = (ROOT / fact.document).read_text()
    wrong = re.sub(r"LEDs run at \d+ mA", "LEDs run at 15 mA", right)
    assert fact.check(right) == []
    assert "15" in fact.check(wrong)[0]
    with pytest.raises(AssertionError, match="0 matches"):
        fact.check(right.replace("LEDs run at", "LEDs are at"))


def test_the_flash_model_and_littlefs_agree_at_every_cut_point_power_md_counts():
    from sim import power_sweep

    stated = Fact(
        "docs/power.md",
        r"and after the last, (\d+) cut points, boots,[^`]*?At all (\d+) both come back the"
        r" same twice: it prints `(\d+) of (\d+) cut\s+points differ`[^`]*?`make test`"
        r" compares five of the (\d+)\n",
        lambda: (),
    ).stated()
    rows = power_sweep.agreement()
    differ = [limit for limit, model, real in rows if model != real]
    total = str(len(rows))
    assert stated == (total, total, str(len(differ)), total, total)


def installed_bytes(names):
    """The bytes installed of the distributions ``names`` and all they require."""
    from importlib import metadata

    seen, todo, total = set(), list(names), 0
    while todo:
        name = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if name in seen:
            continue
        seen.add(name)
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # a requirement for another platform or Python
        total += sum(f.size or 0 for f in dist.files or () if f.size)
        for requirement in dist.requires or ():
            if "extra ==" not in requirement:
                todo.append(re.match(r"[A-Za-z0-9_.-]+", requirement).group(0))
    return total


def test_the_cad_tools_size_is_what_requirements_case_says():
    pytest.importorskip(
        "build123d", reason="build123d is not installed: make case-tools", exc_type=ImportError
    )
    text = (ROOT / "requirements-case.txt").read_text()
    pinned = re.findall(r"^([A-Za-z0-9_.-]+)==", text, re.M)
    megabytes = installed_bytes(pinned) // 1_000_000
    for fact in CAD_TOOLS_SIZE:
        (stated,) = fact.stated()
        assert abs(megabytes - int(stated)) <= int(stated) // 10, (fact, megabytes)


CAD_TOOLS_SIZE = [
    Fact("requirements-case.txt", r"about (\d+) MB installed with what build123d pulls in", ()),
    Fact("Makefile", r"\(requirements-case.txt, about (\d+) MB\): explicit", ()),
    Fact("docs/testing.md", r"OpenCascade kernel, about (\d+) MB, pinned in", ()),
]
