"""Every board on its real heap: the boot and a game against each board's budget.

    .venv/bin/python -m bench.heap            # the figures, as a table
    .venv/bin/python -m bench.heap --write    # and into bench/latest.json, key "heap"
    .venv/bin/python -m bench.heap --again --write   # the budgets again, from the stored
                                                     # measurements (a chip's figure changed)
    MICROPYTHON_UNIX32=/path/to/micropython .venv/bin/python -m bench.heap --write

A board's real heap is its chip's (``HEAP_BYTES`` of boards/chips/, beside
the MicroPython source it is read from, estimates marked). The rule: the boot
and a game's peak leave at least 40 % of it free, for transients,
fragmentation, a reconnection, a push: boot <= 0.6 x heap - a game's peak.

Each board is measured on two deploy paths, each with and without a hall file:

- ``mpy``: the modules loaded as ``.mpy`` files (``make deploy``), inside
  the MicroPython WebAssembly lane (``bench.hall_heap``, ``bench.tournament_heap``).
- ``frozen``: the modules frozen into the image (``make firmware``), inside
  MicroPython's unix port built 32-bit with the same manifest.py frozen in
  (docs/boards.md, "Measuring the frozen image"), found through
  ``MICROPYTHON_UNIX32``. Only the simulator and these measurements are
  loaded from files; a firmware module loaded from a file is reported
  (``loaded_from_files``). Without that build the frozen figures are the
  ones last written to bench/latest.json, said so in ``frozen_measured``.

A game's peak is ``a_game_needs_bytes`` of the tournament day
(bench/tournament_heap.py: ten games with menus, corrections, a power cut,
the link down and up) on the same path.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import boards  # noqa: E402
from bench import let_go_lines, results  # noqa: E402
from hal import board_check  # noqa: E402
from sim.latency import chip_of  # noqa: E402

BOARDS = board_check.board_names()
PATHS = ("mpy", "frozen")
FREE_SHARE_PERCENT = 40  # of the real heap, left free after the boot and a game
ESP32_HALL_FROZEN_GOAL = 40 * 1024
# The paths the project ships (docs/boards.md): the .mpy files where the budget
# holds them, a frozen image for every board. The hall's boards load a hall file
# only in a frozen image: their .mpy boot with one is over the budget.
SHIPPED = {
    ("pico", "mpy", False): True,
    ("pico", "mpy", True): True,  # the Pico has no radio: a hall file is not read
    ("pico_big", "mpy", False): True,
    ("pico_big", "mpy", True): True,
    ("pico_w", "mpy", False): False,  # 2 KB over: the Pico W ships frozen
    ("pico_w", "mpy", True): False,
    ("esp32", "mpy", False): False,
    ("esp32", "mpy", True): False,
}
UNIX_ENV = "MICROPYTHON_UNIX32"
# The bench modules that run inside MicroPython (tools/mpy/run.mjs, BENCH_MODULES).
_LANE_BENCH = ("__init__.py", "boot_heap.py", "hall_heap.py", "tournament_heap.py")
_FROZEN_TOPS = (
    "firmware",
    "hal",
    "boards",
    "adafruit_ht16k33",
    "adafruit_bus_device",
    "adafruit_debouncer",
    "adafruit_ticks",
    "board_main",
)
# Runs inside the unix port: frozen modules first, then the simulator and the
# bench from a copy that holds nothing else; a main that returns a function is
# called again after a full collection, as tools/mpy/run.mjs does.
_DRIVER = """
import gc, json, sys
sys.path[:] = [".frozen", %r]
name = sys.argv[1]
module = __import__(name)
for part in name.split(".")[1:]:
    module = getattr(module, part)
step = module.main(sys.argv[2:])
while callable(step):
    gc.collect()
    step = step()
files = []
for key in sys.modules:
    if key.split(".")[0] in %r and getattr(sys.modules[key], "__file__", "").startswith("/"):
        files.append(key)
print(json.dumps({"loaded_from_files": files}))
"""


def budget_bytes(heap, game):
    """The most the boot may take on a heap of ``heap`` bytes with a game of ``game``."""
    return heap * (100 - FREE_SHARE_PERCENT) // 100 - game


def mpy_budget(name, hall=False):
    """(budget, shipped) of board ``name``'s .mpy path: the budget from its chip's heap
    and the game's peak bench.heap last wrote to bench/latest.json (the tests'
    bound on the boot they measure)."""
    with open(results.LATEST) as handle:
        paths = json.load(handle)["heap"]["paths"]
    stored = paths["%s mpy %s" % (name, "hall" if hall else "offline")]
    budget = budget_bytes(chip_heap(name)[0], stored["a_game_needs_bytes"])
    return budget, SHIPPED[(name, "mpy", hall)]


def chip_heap(name):
    chip = chip_of(boards.load(name))
    return chip.HEAP_BYTES, chip.HEAP_SOURCE, chip.HEAP_ESTIMATED


def _lines(done):
    lines = [line for line in done.stdout.strip().splitlines() if line.startswith("{")]
    return [json.loads(line) for line in lines]


def mpy_run(module, *args):
    """``module``'s JSON from the WebAssembly lane, modules as .mpy (build/mpy made)."""
    done = subprocess.run(
        ["node", os.path.join(ROOT, "tools", "mpy", "run.mjs"), "--compiled", module, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return _lines(done)[-1]


class FrozenLane:
    """The unix port built 32-bit with the clock frozen in, at ``binary``."""

    def __init__(self, binary):
        self.binary = binary
        self.folder = tempfile.mkdtemp(prefix="clock-frozen-lane-")
        shutil.copytree(
            os.path.join(ROOT, "sim"),
            os.path.join(self.folder, "sim"),
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        os.mkdir(os.path.join(self.folder, "bench"))
        for name in _LANE_BENCH:
            shutil.copy(os.path.join(ROOT, "bench", name), os.path.join(self.folder, "bench"))
        with open(os.path.join(self.folder, "drive.py"), "w") as handle:
            handle.write(_DRIVER % (self.folder, _FROZEN_TOPS))

    def version(self):
        done = subprocess.run(
            [
                self.binary,
                "-c",
                "import sys; print(sys.implementation.version[:3], "
                "sys.implementation._machine); import firmware.engine as e; print(e.__file__)",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        return "; ".join(done.stdout.split("\n")).strip("; ")

    def run(self, module, *args):
        """``module``'s JSON object, with ``loaded_from_files`` added."""
        done = subprocess.run(
            [
                self.binary,
                "-X",
                "heapsize=4M",
                os.path.join(self.folder, "drive.py"),
                module,
                *args,
            ],
            cwd=self.folder,
            capture_output=True,
            text=True,
            check=True,
        )
        *figures, files = _lines(done)
        figures[-1].update(files)
        return figures[-1]

    def close(self):
        shutil.rmtree(self.folder, ignore_errors=True)


_BOOT_KEYS = ("heap_after_boot_bytes", "loaded_from_files")
_DAY_KEYS = (
    "games",
    "a_game_needs_bytes",
    "largest_free_block_after_each_game_bytes",
    "largest_free_block_bound_bytes",
    "heap_growth_after_the_first_game_bytes",
    "statements_not_applied",
    "firmware_holds_the_same_after_each_game",
    "loaded_from_files",
)


def _only(figures, keys):
    return {key: figures[key] for key in keys if key in figures}


def measure_path(run, name):
    """{"boot": {"offline": figures, "hall": figures}, "day": figures} of one path."""
    boot = {}
    for hall in ("offline", "hall"):
        figures = run("bench.hall_heap", name, *(["hall"] if hall == "hall" else []))
        boot[hall] = _only(figures, _BOOT_KEYS)
    return {"boot": boot, "day": _only(run("bench.tournament_heap", name), _DAY_KEYS)}


def rows_of_board(name, measured, out, days):
    """The figures of board ``name``: into ``out`` one entry per path and hall file
    ("esp32 frozen hall"), into ``days`` one per path ("esp32 frozen")."""
    heap, source, estimated = chip_heap(name)
    for path in PATHS:
        day = measured[path]["day"]
        game = day["a_game_needs_bytes"]
        for hall in (False, True):
            booted = measured[path]["boot"]["hall" if hall else "offline"]
            boot = booted["heap_after_boot_bytes"]
            budget = budget_bytes(heap, game)
            out["%s %s %s" % (name, path, "hall" if hall else "offline")] = {
                "real_heap_bytes": heap,
                "real_heap_source": source,
                "real_heap_estimated": estimated,
                "boot_heap_bytes": boot,
                "a_game_needs_bytes": game,
                "free_after_boot_bytes": heap - boot,
                "budget_bytes": budget,
                "holds": boot <= budget,
                "shipped": SHIPPED.get((name, path, hall), path == "frozen"),
                "loaded_from_files": booted.get("loaded_from_files", []),
            }
        days["%s %s" % (name, path)] = {
            "games": day["games"],
            "largest_free_block_after_each_game_bytes": day[
                "largest_free_block_after_each_game_bytes"
            ],
            "largest_free_block_bound_bytes": day["largest_free_block_bound_bytes"],
            "heap_growth_after_the_first_game_bytes": day["heap_growth_after_the_first_game_bytes"],
            "boot_with_a_hall_file_and_a_game_bytes": out["%s %s hall" % (name, path)][
                "boot_heap_bytes"
            ]
            + game,
            "boot_and_a_game_within_budget": out["%s %s hall" % (name, path)]["boot_heap_bytes"]
            + game
            <= heap * (100 - FREE_SHARE_PERCENT) // 100,
            "statements_not_applied": day["statements_not_applied"],
            "firmware_holds_the_same_after_each_game": day.get(
                "firmware_holds_the_same_after_each_game"
            ),
        }


def heap_figures(binary=None, stored=None, again=False):
    """The "heap" figures; frozen ones from the unix build at ``binary``, or ``stored``;
    with ``again``, every measurement as ``stored`` holds it (the budgets worked out
    again, after a chip's figure changed)."""
    lane = FrozenLane(binary) if binary and not again else None
    if not again:
        subprocess.run(["make", "-s", "mpy"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    figures = {"paths": {}, "days": {}, "measured": {}, "rule": "boot <= 0.6 x heap - game"}
    try:
        for name in BOARDS:
            if again:
                measured = stored["measured"][name]
            else:
                measured = {"mpy": measure_path(mpy_run, name)}
                if lane is not None:
                    measured["frozen"] = measure_path(lane.run, name)
                else:
                    measured["frozen"] = stored["measured"][name]["frozen"]
            figures["measured"][name] = measured
            rows_of_board(name, measured, figures["paths"], figures["days"])
        if lane is not None:
            figures["frozen_measured"] = "unix port 32-bit: %s" % lane.version()
        else:
            figures["frozen_measured"] = stored["frozen_measured"]
    finally:
        if lane is not None:
            lane.close()
    figures["let_go_lines"] = let_go_lines.counts(ROOT)
    return figures


def rows(figures):
    """(name, value, goal) rows for make bench's table."""
    out = []
    for key, f in figures["paths"].items():
        out.append(
            (
                "%s: boot, game, budget, heap (%s), bytes"
                % (key, "shipped" if f["shipped"] else "not shipped"),
                "%d, %d, %d, %d"
                % (
                    f["boot_heap_bytes"],
                    f["a_game_needs_bytes"],
                    f["budget_bytes"],
                    f["real_heap_bytes"],
                ),
                "boot <= %d (budget)" % f["budget_bytes"] if f["shipped"] else "report",
                f["boot_heap_bytes"],
            )
        )
    esp32 = figures["paths"]["esp32 frozen hall"]["boot_heap_bytes"]
    out.append(("esp32 frozen with a hall file: boot heap, bytes", esp32, "<= 40960"))
    lines = figures["let_go_lines"]
    out.append(
        (
            "let-go machinery: lines of code before, after",
            "%d, %d" % (lines["before"], lines["after"]),
            "report",
        )
    )
    return out


def heap_section(again=False):
    """make bench's "heap" figures (bench/__main__.py, SECTIONS): the frozen ones from
    the unix build at MICROPYTHON_UNIX32 if it is set, else as last written."""
    stored = None
    if os.path.exists(results.LATEST):
        with open(results.LATEST) as handle:
            stored = json.load(handle).get("heap")
    binary = os.environ.get(UNIX_ENV)
    if not binary and stored is None:
        raise SystemExit("%s is not set and bench/latest.json holds no frozen figures" % UNIX_ENV)
    return heap_figures(binary, stored, again)


def main(argv):
    return results.command("heap", heap_section("--again" in argv), rows, argv, 26)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
