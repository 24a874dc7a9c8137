"""What the manuals state about the boards, the build and the tools, checked against
the source it comes from (tests/manual_facts.py reads each fact by its pattern).

The low-battery voltages in docs/boards.md's prose, the LED current and the
battery life docs/build.md and docs/menus.md give, the boards ``--board`` takes
(docs/simulator.md) and every list of the boards, what ``make sim`` and ``make
test`` need (README.md), every ``make`` target a manual names, the flash model's
agreement with littlefs (docs/power.md) and the CAD tools' size
(requirements-case.txt). The board files' table and the wiring tables are in
tests/test_manual_board_facts.py, the case's figures in
tests/test_manual_case_facts.py (they need the kernel), the firmware's times and
counts in tests/test_manual_firmware_facts.py. Each check was seen failing on a
wrong value written into its document (the offline Pico W's threshold of 3480, a
board left out of the ``--board`` list) and on every value made wrong in memory.
"""

import re

import pytest

import boards
from hal import board_check
from tests.manual_facts import (
    ROOT,
    Fact,
    makefile_prerequisites,
    makefile_targets,
)
from tools import power_budget


def board(name):
    return boards.load(name)


def real_boards():
    """Every board of boards/ but the simulator's (one list: the files themselves)."""
    return board_check.board_names()


# --- prose: thresholds, currents, battery life, boards, needs --------------------


def _min_default_hours():
    return min(
        power_budget.hours_x10(board(name), power_budget.DEFAULT_BRIGHTNESS) // 10
        for name in power_budget.BUDGET_BOARDS
    )


def _requires_python():
    text = (ROOT / "pyproject.toml").read_text()
    return re.search(r'requires-python = ">=([\d.]+)"', text).group(1)


def apt_packages(target):
    """The Debian packages the Makefile's ``target`` installs, as testing.md lists them."""
    text = (ROOT / "Makefile").read_text()
    recipe = text.split("\n%s:" % target, 1)[1].split("\n\n", 1)[0]
    names = re.findall(r'missing="\$\$missing ([\w.-]+)"', recipe)
    for listed in re.findall(r"for \w+ in ([\w. -]+); do", recipe):  # dpkg-checked ones
        names += listed.split()
    return (", ".join("`%s`" % name for name in names),)


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
        "docs/testing.md",
        r"^\| `make desktop-tools` \| ([^|]*?) \|",
        lambda: apt_packages("desktop-tools"),
    ),
    Fact(
        "docs/testing.md",
        r"^\| `make hall-tools` \| ([^|]*?) \|",
        lambda: apt_packages("hall-tools"),
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


@pytest.mark.parametrize("fact", PROSE, ids=repr)
def test_the_manual_states_what_the_source_gives(fact):
    assert fact.check() == []


@pytest.mark.parametrize("fact", PROSE, ids=repr)
def test_each_value_stated_wrong_is_caught(fact):
    assert fact.wrongs_missed() == []


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


def test_a_check_that_cannot_fail_is_told_apart():
    fact = PROSE[1]  # the LED current in docs/build.md: one value

    class Blind(Fact):
        def check(self, text=None):
            return []

    assert fact.wrongs_missed() == []
    assert Blind(fact.document, fact.pattern, fact.expected).wrongs_missed() == [0]
    with pytest.raises(AssertionError, match="captures no value"):
        Fact(fact.document, r"LEDs run at \d+ mA", lambda: ()).wrongs_missed()


def test_the_flash_model_and_littlefs_agree_at_every_cut_point_power_md_counts():
    from sim import power_sweep

    stated = Fact(
        "docs/power.md",
        r"and after the last, (\d+) cut points, boots,[^`]*?At all (\d+) both come back the"
        r" same twice: it prints `(\d+) of (\d+) cut\s+points differ`[^`]*?`make test`"
        r" compares \w+ of the (\d+)\n",
        lambda: (),
    ).stated()
    # the count from one play; whether all of them agree is python -m sim.power_sweep
    # --agree's to say (minutes: the whole run is make power-sweep's, and make test's
    # tests/test_power_sweep.py compares six of them)
    total = str(power_sweep.agreement_cut_points())
    assert stated == (total, total, "0", total, total)


def _normal(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def installed_bytes(names):
    """The bytes installed of the distributions ``names`` and all they require."""
    from importlib import metadata

    installed = {_normal(d.metadata["Name"]): d for d in metadata.distributions()}
    seen, todo, total = set(), [_normal(name) for name in names], 0
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        dist = installed.get(name)
        if dist is None:
            continue  # a requirement for another platform or Python
        total += sum(f.size or 0 for f in dist.files or () if f.size)
        for requirement in dist.requires or ():
            if "extra ==" not in requirement:
                todo.append(_normal(re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)))
    return total


def test_the_cad_tools_size_is_what_requirements_case_says():
    import importlib.util

    if importlib.util.find_spec("build123d") is None:  # found, not imported: seconds
        pytest.skip("build123d is not installed: make case-tools")
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
