"""What docs/boards.md and docs/build.md state about the printed case, checked against
its model (tools/case): the outer size, the printed parts, every screw and insert and
the assembly step it goes in at, the key holes, the lever's travel and weight, the
walls and inserts, the filament per clock, the perfboard's size.

Each fact is read by its pattern (tests/manual_facts.py). The figures the kernel
gives (size, parts, screws, filament) need build123d (``make case-tools``); the
model's dimensions and the perfboard's grid do not. Each check was seen failing on
a wrong value written into its document (a case 155.6 mm wide, 6.8 mm key holes,
an assembly step without its inserts, 160 to 300 g of filament).
"""

import collections

import pytest

import boards
from tests.manual_facts import ROOT, Fact, assembly_steps, caught, fixings
from tools.case import perfboard
from tools.case.parts import PARTS, PLA_DENSITY

# one worker builds the models once for every test here (as tests/test_case.py)
pytestmark = pytest.mark.xdist_group("case-model")


@pytest.fixture(scope="session")
def models():
    pytest.importorskip(
        "build123d", reason="build123d is not installed: make case-tools", exc_type=ImportError
    )
    from tools.case import cad

    built = {}

    def model(name):
        if name not in built:
            built[name] = cad.assembly(boards.load(name))
        return built[name]

    return model


def screw_length(part):
    """A countersunk screw's length: its bounding box's side that is not the head's
    diameter (the other two are)."""
    size = part.solid.bounding_box().size
    sides = sorted((size.X, size.Y, size.Z))
    return round(sides[0] if abs(sides[1] - sides[2]) < 0.01 else sides[2], 1)


def model_fixings(assembly, step=None):
    """{("screw", "M2", 5): count, ("insert", "M2", None): count} of the model, or of
    one of its steps (cad.STEPS)."""
    out = collections.Counter()
    for part in assembly.parts.values():
        kind, _, size = part.kind.partition("_")
        if kind not in ("screw", "insert") or (step and part.step != step):
            continue
        length = round(screw_length(part)) if kind == "screw" else None
        out[(kind, size.upper(), length)] += 1
    return dict(out)


def printed(assembly):
    return [name for name, part in assembly.parts.items() if part.printed]


def filament_g(assembly):
    volume = sum(assembly.parts[name].solid.volume for name in printed(assembly))
    return volume / 1000 * PLA_DENSITY


def lever_grams(assembly):
    solids = [assembly.parts[name].solid for name in ("lever_left", "keeper_left")]
    return sum(solid.volume for solid in solids) / 1000 * PLA_DENSITY


def _size(model):
    pico, big = model("pico").outer, model("pico_big").outer
    return tuple("%.1f" % v for v in pico) + ("%.1f" % big[0],)


def _fixing_counts(model):
    pico, big = model_fixings(model("pico")), model_fixings(model("pico_big"))
    return (
        pico[("screw", "M2", 5)],
        pico[("screw", "M2", 6)],
        big[("screw", "M2", 6)],
        pico[("screw", "M3", 6)],
        pico[("insert", "M2", None)],
        big[("insert", "M2", None)],
        pico[("insert", "M3", None)],
    )


def _base_inserts(model):
    base = model_fixings(model("pico_big"), "base")[("insert", "M2", None)]
    doors = sum(1 for part in model("pico_big").parts.values() if part.step == "cell")
    door_inserts = base - len(perfboard.screw_holes(boards.load("pico_big")))
    assert doors  # the doors and their screws go in at "cell"
    return door_inserts, base


def _g10(value):
    return int(round(value / 10) * 10)


KERNEL_FACTS = [
    Fact(
        "docs/boards.md",
        r"\(\[build.md\]\(build.md\)\), ([\d.]+) x ([\d.]+) x ([\d.]+) mm for the Pico"
        r" \(([\d.]+) mm wide with the 1.2\" displays\)",
        _size,
        "boards.md: the case's outer size",
    ),
    Fact(
        "docs/boards.md",
        r"\| (\d+) printed parts: the body",
        lambda model: (len(printed(model("pico"))),),
        "boards.md: the printed parts",
    ),
    Fact(
        "docs/boards.md",
        r"the battery door \((\w+) on `pico_big`\)",
        lambda model: (
            {2: "two"}[sum(1 for n in printed(model("pico_big")) if n.startswith("door"))],
        ),
        "boards.md: pico_big's doors",
    ),
    Fact(
        "docs/boards.md",
        r"(\d+) M2 x 5, (\d+) M2 x 6 \((\d+) on `pico_big`\) and (\d+) M3 x 6 screws;"
        r" (\d+) M2 inserts \((\d+) on `pico_big`\) and (\d+) M3",
        _fixing_counts,
        "boards.md: the screws and inserts",
    ),
    Fact(
        "docs/build.md",
        r"About (\d+) g of PLA per clock, (\d+) g for `pico_big`",
        lambda model: (_g10(filament_g(model("pico"))), _g10(filament_g(model("pico_big")))),
        "build.md: filament",
    ),
    Fact(
        "docs/build.md",
        r"cap and keeper are about\s+([\d.]+) g of PLA",
        lambda model: ("%.1f" % lever_grams(model("pico")),),
        "build.md: the lever's weight",
    ),
    Fact(
        "docs/build.md",
        r"Each lever is a cap \((\d+) x (\d+) mm\)",
        lambda model: tuple(
            round(v) for v in model("pico").parts["lever_left"].solid.bounding_box().size
        )[:2],
        "build.md: the lever's cap",
    ),
    Fact(
        "docs/build.md",
        r"the door's (\w+) on `pico_big`, (\w+)\s+in all\)",
        lambda model: tuple({8: "eight", 12: "twelve"}[n] for n in _base_inserts(model)),
        "build.md: pico_big's base inserts",
    ),
]

_SWITCH = PARTS["microswitch"]


def _model_constants():
    """tools.case.cad and tools.case.frame (they import the kernel)."""
    pytest.importorskip(
        "build123d", reason="build123d is not installed: make case-tools", exc_type=ImportError
    )
    from tools.case import cad, frame

    return cad, frame


def _lever():
    """(travel to the stop, travel to operate, overtravel used), mm."""
    _model_constants()
    from tools.case.figures import lever_travel

    return lever_travel()


def _mm(value):
    return "%g" % value


DIMENSION_FACTS = [
    Fact(
        "docs/build.md",
        r"slides in a hole in\s+the top with ([\d.]+) mm all round",
        lambda: (_mm(_model_constants()[0].CLEARANCE_MM),),
    ),
    Fact(
        "docs/build.md",
        r"At rest the cap stands ([\d.]+) mm over the top and the\s+keeper ([\d.]+) mm over",
        lambda: (_mm(_lever()[0]), _mm(_model_constants()[0].LEVER_GAP_MM)),
    ),
    Fact(
        "docs/build.md",
        r"pretravel \(([\d.]+) mm at most, Omron D2F datasheet\): the switch\s+operates by"
        r" ([\d.]+) mm at the latest; at ([\d.]+) mm the cap lands on the top, ([\d.]+) mm\s+"
        r"past that, inside the switch's ([\d.]+) mm overtravel",
        lambda: (
            _mm(_SWITCH["pretravel_mm"]),
            _mm(_lever()[1]),
            _mm(_lever()[0]),
            _mm(_lever()[2]),
            _mm(_SWITCH["overtravel_mm"]),
        ),
    ),
    Fact(
        "docs/build.md",
        r"That holds for a switch whose pretravel is\s+([\d.]+) mm or more",
        # the least pretravel that keeps the stop inside the overtravel
        lambda: (
            _mm(
                round(
                    _lever()[0] - _model_constants()[0].LEVER_GAP_MM - _SWITCH["overtravel_mm"], 2
                )
            ),
        ),
    ),
    Fact(
        "docs/build.md",
        r"the switch's operating force,\s+([\d.]+) N at most",
        lambda: (_mm(_SWITCH["operating_force_n"]),),
    ),
    Fact(
        "docs/build.md",
        r"plungers\s+stand ([\d.]+) mm out of ([\d.]+) mm holes in the front",
        lambda: (
            _mm(_model_constants()[1].KEY_PROUD_MM),
            "%.1f" % (PARTS["key"]["plunger_mm"] + 2 * _model_constants()[0].CLEARANCE_MM),
        ),
    ),
    Fact(
        "docs/build.md",
        r"Walls are ([\d.]+) mm \(six perimeters\); ([\d.]+) mm of plastic round every\s+"
        r"heat-set insert \(ruthex: M3 x ([\d.]+) mm in a ([\d.]+) mm hole, M2 x ([\d.]+) mm"
        r" in a\s+([\d.]+) mm hole\)",
        lambda: (
            _mm(_model_constants()[0].WALL_MM),
            _mm(_model_constants()[0].BOSS_WALL_MM),
            _mm(PARTS["insert_m3"]["size"][2]),
            "%.1f" % PARTS["insert_m3"]["hole_mm"],
            _mm(PARTS["insert_m2"]["size"][2]),
            _mm(PARTS["insert_m2"]["hole_mm"]),
        ),
    ),
]


def _perfboard_mm(name):
    cols, rows = perfboard.size(boards.load(name))
    return cols * perfboard.PITCH_MM, rows * perfboard.PITCH_MM


GRID_FACTS = [
    Fact(
        "docs/build.md",
        r"its perfboard is ([\d.]+ x [\d.]+) mm on `pico`,\s+([\d.]+ x [\d.]+) mm on `pico_w`"
        r" for the battery divider, ([\d.]+ x [\d.]+) mm on\s+`esp32`",
        lambda: tuple("%.1f x %.1f" % _perfboard_mm(name) for name in ("pico", "pico_w", "esp32")),
    ),
    Fact(
        "docs/boards.md",
        r"\| perfboard \(about (\d+) x (\d+) mm, ([\d.]+) mm grid",
        lambda: tuple(_g10(v) for v in _perfboard_mm("pico")) + (_mm(perfboard.PITCH_MM),),
    ),
]


@pytest.mark.parametrize("fact", KERNEL_FACTS, ids=repr)
def test_the_manual_states_what_the_model_gives(fact, models):
    assert _bound(fact, models).check() == []


@pytest.mark.parametrize("fact", DIMENSION_FACTS + GRID_FACTS, ids=repr)
def test_the_manual_states_the_models_dimensions(fact):
    assert fact.check() == []


def _bound(fact, models):
    expected = fact.expected
    return Fact(fact.document, fact.pattern, lambda: expected(models), fact.name)


def test_each_value_stated_wrong_is_caught(models):
    facts = [_bound(fact, models) for fact in KERNEL_FACTS] + DIMENSION_FACTS + GRID_FACTS
    missed = [
        (fact, index)
        for fact in facts
        for index, wrong in enumerate(fact.wrong_texts())
        if not caught(fact, wrong)
    ]
    assert missed == []


def test_a_step_without_its_inserts_or_with_a_wrong_screw_is_caught():
    text = (ROOT / "docs" / "build.md").read_text()
    steps = assembly_steps(text)
    assert fixings(steps["front"])[("screw", "M2", 6)] == 4  # "two M2 x 6 each"
    without = text.replace("Press the eight M2 inserts into the base's bosses", "Take the base")
    assert sum(n for key, n in fixings(without).items() if key[:2] == ("insert", "M2")) == 8
    assert fixings(assembly_steps(without)["board"]) == {("screw", "M2", 5): 4}


def test_each_assembly_step_names_the_screws_the_model_puts_in_at_it(models):
    from tools.case.cad import STEPS

    steps = assembly_steps((ROOT / "docs" / "build.md").read_text())
    assert list(steps) == [name for name, _, _ in STEPS]  # the doc follows the model's order
    model = models("pico")
    stated_inserts = collections.Counter()
    for name, text in steps.items():
        stated = fixings(text)
        screws = {key: n for key, n in stated.items() if key[0] == "screw"}
        want = {key: n for key, n in model_fixings(model, name).items() if key[0] == "screw"}
        assert screws == want, name
        stated_inserts.update({key: n for key, n in stated.items() if key[0] == "insert"})
    # the inserts, before the screws that go into them: every one of the model named once
    want = {key: n for key, n in model_fixings(model).items() if key[0] == "insert"}
    assert dict(stated_inserts) == want
