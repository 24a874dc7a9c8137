"""The core's own figures (issue 36): branches on the timing method outside the
methods, the mutation check's catch, the tick's CPU beside the first release and
beside the tree before the timing methods became objects, and the bytes a tick
and a press allocate.

``python -m bench.core`` prints them; ``--write`` stores them, and only them,
under ``core`` in bench/latest.json; ``--quick`` leaves out the mutation check
(tools/mutants.py, minutes). The tick's CPU is measured by each tree's own
measurement inside MicroPython (bench/first_release.py), the trees alternating
round after round so a load on the machine falls on all alike; each tree's
figure is the least of its runs (a load only adds time), its spread beside it.
"""

import ast
import os
import shutil
import subprocess
import sys
import tempfile

from bench import figure_rows
from bench.figure_rows import Figure

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
# The timing methods themselves (firmware/timing.py): the only place a method is asked
# what it is, there by its class.
METHODS_FILE = "timing.py"
# The names a timing method or a period mode goes by: the controls' kinds and the
# periods' modes (firmware/timecontrol.py), and the builders' kinds of the menu as they
# were (firmware/menu/control.py).
TIMING_NAMES = frozenset(
    ("STAGES", "HOURGLASS", "JAPANESE", "CANADIAN", "PERIODS")
    + ("NONE", "FISCHER", "DELAY", "BRONSTEIN")
)


def _names_a_method(node):
    """True if ``node`` is a timing constant or a control's ``kind``."""
    if isinstance(node, ast.Name):
        return node.id in TIMING_NAMES
    if isinstance(node, ast.Attribute):
        if node.attr in TIMING_NAMES:
            return True
        return node.attr == "kind" and "control" in ast.unparse(node.value)
    return False


def method_branches(source):
    """The line of every comparison in ``source`` that asks which timing method or
    period mode is in force (``x.control.kind == tc.STAGES``, ``mode != FISCHER``…)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_names_a_method(sub) for operand in operands for sub in ast.walk(operand)):
                lines.append(node.lineno)
    return sorted(lines)


def branches_outside_methods(root=FIRMWARE):
    """``{path: [lines]}`` of such comparisons in firmware/ outside firmware/timing.py."""
    found = {}
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            path = os.path.join(folder, name)
            if not name.endswith(".py") or os.path.relpath(path, root) == METHODS_FILE:
                continue
            with open(path) as handle:
                lines = method_branches(handle.read())
            if lines:
                found[os.path.relpath(path, ROOT)] = lines
    return found


def count_at(commit):
    """The count of ``branches_outside_methods`` in ``commit``'s firmware/ (git archive)."""
    import tarfile
    import tempfile

    with tempfile.TemporaryDirectory() as tree:
        archive = os.path.join(tree, "tree.tar")
        with open(archive, "wb") as handle:
            subprocess.run(
                ["git", "archive", commit, "firmware"], cwd=ROOT, stdout=handle, check=True
            )
        with tarfile.open(archive) as tar:
            tar.extractall(tree, filter="data")
        return sum(
            len(lines)
            for lines in branches_outside_methods(os.path.join(tree, "firmware")).values()
        )


# The tree before the timing methods became objects (issue 36's starting point).
BEFORE = "387492c512bb3c294b759632e850af0b5ecf8829"


def _measure(tree):
    """``bench.measure``'s figures in ``tree`` (built), inside MicroPython."""
    from bench import results

    return results.micropython_json(tree, "bench.measure")


def tick_figures(rounds=None):
    """The tick's CPU as run and stepping: the first release's (as run: its own
    measurement has no stepping figure), the tree before, this tree; bytes per tick
    and per press (the most of this tree's runs). The rounds and the estimate (the
    least run of each tree) are bench/first_release.py's ``with_first_release``,
    which also gives ``make bench`` its ratio to the first release."""
    from bench import first_release

    rounds = rounds or first_release.ROUNDS
    subprocess.run(["make", "-s", "mpy"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    folder = tempfile.mkdtemp(prefix="core-bench-")
    try:
        before = first_release.prepare(BEFORE, folder)
        # The same measurement in both trees: this tree's (its warm-up included).
        shutil.copy(os.path.join(ROOT, "bench", "measure.py"), os.path.join(before, "bench"))
        beside, runs = first_release.with_first_release(
            lambda: _measure(ROOT), rounds, {"before": lambda: _measure(before)}
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    least = first_release.least
    spread = first_release.spread

    def runs_of(name, key):
        return [run[key] for run in runs[name]]

    now = least(runs_of("current", "cpu_us_per_tick"))
    now_stepping = least(runs_of("current", "cpu_us_per_stepping_tick"))
    old = least(runs_of("before", "cpu_us_per_tick"))
    old_stepping = least(runs_of("before", "cpu_us_per_stepping_tick"))
    return {
        "rounds": rounds,
        "estimate": "least of the alternating runs",
        "first_release_cpu_us_per_tick": beside["first_release_cpu_us_per_tick"],
        "first_release_spread_us": beside["first_release_spread_us"],
        "before_cpu_us_per_tick": old,
        "before_spread_us": spread(runs_of("before", "cpu_us_per_tick")),
        "before_cpu_us_per_stepping_tick": old_stepping,
        "cpu_us_per_tick": now,
        "spread_us": beside["current_spread_us"],
        "cpu_us_per_stepping_tick": now_stepping,
        "tick_to_first_release": beside["current_to_first_release"],
        "tick_to_first_release_per_round": beside["current_to_first_release_per_round"],
        "tick_to_before": round(now / old, 3),
        "stepping_tick_to_before": round(now_stepping / old_stepping, 3),
        "alloc_bytes_per_tick": max(runs_of("current", "alloc_bytes_per_tick")),
        "alloc_bytes_per_press": max(runs_of("current", "alloc_bytes_per_press")),
    }


def mutation_figures():
    """The mutation check's catch (tools/mutants.py)."""
    from tools import mutants

    outcome = mutants.run(mutants.MUTANTS)
    return {
        "mutations": len(outcome),
        "mutations_caught": sum(1 for value in outcome.values() if value == "caught"),
        "mutations_not_caught": sorted(
            name for name, value in outcome.items() if value != "caught"
        ),
    }


# What the last `make test` took, as the Makefile keeps it.
MAKE_TEST_RECORD = os.path.join(ROOT, "build", "make-test.json")


def make_test_figures(path=MAKE_TEST_RECORD):
    """The last `make test` on this machine: its wall seconds, cores, workers, exit
    status and commit (``make_test`` None if it has not run in this clone)."""
    import json

    if not os.path.exists(path):
        return {"make_test": None}
    with open(path) as handle:
        return {"make_test": json.load(handle)}


def core_figures(quick=False):
    """Every figure of the core (``quick``: without the mutation check)."""
    found = branches_outside_methods()
    figures = {
        "method_branches_outside_methods": sum(len(lines) for lines in found.values()),
        "method_branches_before": count_at(BEFORE),
    }
    figures.update(make_test_figures())
    figures.update(tick_figures())
    if not quick:
        figures.update(mutation_figures())
    return figures


def declared():
    """The core's figures (bench/figure_rows.py)."""
    return (
        Figure(
            "comparisons on the timing method outside the methods",
            "core.method_branches_outside_methods",
            "",
            "0",
        ),
        Figure(
            "the same, before the methods were objects",
            "core.method_branches_before",
            "",
            "report",
        ),
        Figure("mutations of the list caught", "core.mutations_caught", "", "all"),
        Figure("mutations in the list", "core.mutations", "", "report"),
        Figure("mutations not caught", "core.mutations_not_caught", "", "none"),
        Figure("CPU per tick, first release", "core.first_release_cpu_us_per_tick", "µs", "report"),
        Figure("CPU per tick, before the methods", "core.before_cpu_us_per_tick", "µs", "report"),
        Figure("CPU per tick, this tree", "core.cpu_us_per_tick", "µs", "report"),
        Figure("tick CPU, this tree / first release", "core.tick_to_first_release", "", "≤ 0.25"),
        Figure("tick CPU, this tree / before", "core.tick_to_before", "", "≤ 1"),
        Figure(
            "CPU per stepping tick, before",
            "core.before_cpu_us_per_stepping_tick",
            "µs",
            "report",
        ),
        Figure("CPU per stepping tick, this tree", "core.cpu_us_per_stepping_tick", "µs", "report"),
        Figure("stepping tick CPU, this tree / before", "core.stepping_tick_to_before", "", "≤ 1"),
        Figure("bytes allocated per tick", "core.alloc_bytes_per_tick", "B", "0"),
        Figure("bytes allocated per press", "core.alloc_bytes_per_press", "B", "0"),
        Figure("rounds", "core.rounds", "", "report"),
        Figure(
            "make test, last run before the figures: wall time",
            "core.make_test.wall_s",
            "s",
            "≤ 120",
        ),
        Figure("make test, last run: cores", "core.make_test.cores", "", "report"),
        Figure("make test, last run: exit status", "core.make_test.status", "", "0"),
        Figure(
            "tick CPU per run, first release", "core.first_release_spread_us", "µs", "report", False
        ),
        Figure("tick CPU per run, this tree", "core.spread_us", "µs", "report", False),
        Figure(
            "tick CPU, this tree / first release, round by round",
            "core.tick_to_first_release_per_round",
            "",
            "report",
            False,
        ),
    )


def rows(figures):
    """The section's table (``make bench``, ``python -m bench.core``)."""
    return figure_rows.table_rows(declared(), "core", figures)


def main(argv):
    from bench import results

    return results.command("core", core_figures(quick="--quick" in argv), rows, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
