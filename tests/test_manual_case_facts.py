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
from tests.manual_facts import Fact
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
    missed = [(fact, fact.wrongs_missed()) for fact in facts]
    assert [(fact, numbers) for fact, numbers in missed if numbers] == []


# The assembly steps, what goes in at each (every screw and insert), the parts to buy
# and the filament are written by make docs from the model itself (tools/case/guide.py)
# and checked against it in tests/test_case.py: no manual fact of them is left to read.
