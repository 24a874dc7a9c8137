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


def _spread(values):
    return "/".join("%g" % value for value in values)


def rows(figures):
    """The bench table's rows: (figure, value, goal), judged by bench/goals.py."""
    table = [
        (
            "comparisons on the timing method outside firmware/timing.py",
            figures["method_branches_outside_methods"],
            "0",
        ),
        (
            "  the same, before the methods were objects",
            figures["method_branches_before"],
            "report",
        ),
        (
            "CPU us per tick, first release (core bench, same run)",
            figures["first_release_cpu_us_per_tick"],
            "report",
        ),
        (
            "CPU us per tick, before the timing methods (same run)",
            figures["before_cpu_us_per_tick"],
            "report",
        ),
        ("CPU us per tick, this tree (same run)", figures["cpu_us_per_tick"], "report"),
        (
            "  spread of the runs: first release, this tree (least/median/most)",
            "%s | %s"
            % (_spread(figures["first_release_spread_us"]), _spread(figures["spread_us"])),
            "report",
        ),
        ("tick CPU, this tree / first release", figures["tick_to_first_release"], "<= 0.25"),
        (
            "  the same round by round: least, median, most",
            _spread(figures["tick_to_first_release_per_round"]),
            "report",
        ),
        ("tick CPU, this tree / before the timing methods", figures["tick_to_before"], "<= 1"),
        ("stepping tick CPU, this tree / before", figures["stepping_tick_to_before"], "<= 1"),
        ("bytes allocated per tick (core bench)", figures["alloc_bytes_per_tick"], "0"),
        ("bytes allocated per press (core bench)", figures["alloc_bytes_per_press"], "0"),
    ]
    run = figures.get("make_test")
    if run is None:
        table.append(("make test wall time, last run (s)", "not run in this clone", "report"))
    else:
        table.append(
            (
                "make test wall time, last run at %s on %d cores (%s), s"
                % (run["commit"], run["cores"], "passed" if run["status"] == 0 else "FAILED"),
                run["wall_s"],
                "<= 120",
            )
        )
    if "mutations" in figures:
        table.append(
            (
                "mutations caught, of the list (make mutants)",
                "%d of %d" % (figures["mutations_caught"], figures["mutations"]),
                "all",
            )
        )
    return table


def main(argv):
    from bench import results

    return results.command("core", core_figures(quick="--quick" in argv), rows, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
