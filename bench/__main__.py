"""``make bench``: measure the clock and write bench/latest.json.

Figures: allocation and CPU cost of the tick and of a lever press inside
MicroPython (modules loaded as .mpy), heap after boot, simulator speed on a
6-hour game of 400 moves, and the worst charge error over 10,000 random
moves with contact bounce, against an independent reckoning of the rules.
"""

import json
import os
import platform
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench import figures_page, goals, results  # noqa: E402
from sim.runner import Game  # noqa: E402
from sim.script import parse  # noqa: E402


def simulator_speed():
    """Virtual seconds per wall second on a 6-hour game with 400 moves."""
    # Longer than a clock script may run (sim.script.MAX_SCRIPT_MS): the
    # statements are built here, not parsed.
    script = parse("control 5400+30\n")
    now = 0
    script.statements.append((2, 0, "press", ["right"]))
    for number in range(400):
        now += 54_000
        side = "left" if number % 2 == 0 else "right"
        script.statements.append((number + 3, now, "press", [side]))
    began = time.perf_counter()
    game = Game(script)
    for _, time_ms, action, arguments in script.statements:
        game.board.run_due(time_ms)
        game.act(action, arguments)
    values = dict(game.values())
    game.close()
    wall = time.perf_counter() - began
    assert values["moves"] == "200", values
    return {
        "virtual_s": now / 1000,
        "wall_s": round(wall, 3),
        "times_real_time": round(now / 1000 / wall),
    }


def charge_error(moves=10_000, seed=2026):
    """Worst |charged − reckoned| over random moves, Fischer 5 s, bounce 0–10 ms."""
    rng = random.Random(seed)
    worst = 0
    done = 0
    per_game = 1000
    while done < moves:
        bounce = rng.randint(0, 10)
        game = Game(parse("control 3600+5\nbounce %d\n" % bounce))
        reckoned = [3_605_000, 3_605_000]
        now = rng.randint(0, 5000)
        game.board.run_due(now)
        game.act("press", ["right"])  # left is White
        mover = 0
        for _ in range(per_game):
            used = rng.randint(200, 3000)
            now += used
            game.board.run_due(now)
            game.act("press", ["left" if mover == 0 else "right"])
            reckoned[mover] = reckoned[mover] - used + 5000
            values = dict(game.values())
            for side, name in ((0, "left"), (1, "right")):
                worst = max(worst, abs(values[name] - reckoned[side]))
            mover = 1 - mover
        game.close()
        done += per_game
    return {"moves": done, "worst_error_ms": worst}


def arbiter_tasks():
    """Key presses and seconds (a press every 0.4 s, long presses 2.1 s) per procedure.

    Each task sets its game up with ``setup`` (not counted), then counts the
    presses and seconds of ``steps``, and checks the result on the clock.
    """
    from sim.runner import arbiter_keys

    claim = ("claim", [])
    fide = "40/5400+30:1800+30"
    tasks = [
        # name, control, quickplay, setup, steps, {field: wanted}
        ("G.4 granted", "900", "g4-increment", [], [claim, ("decide", ["grant"])], {}),
        ("G.5 rejected", "900", "g5", [], [claim, ("decide", ["reject"])], {"right": 1_020_000}),
        ("G.5 postponed", "900", "g5", [], [claim, ("decide", ["postpone"])], {}),
        (
            "the final ruling after a postponement",
            "900",
            "g5",
            [claim, ("decide", ["postpone"])],
            [("decide", ["draw"])],
            {"result": "draw"},
        ),
        (
            "closing a claim (postponed earlier)",
            "900",
            "g5",
            [claim, ("decide", ["postpone"])],
            [("decide", ["close"])],
            {"claim": "none", "result": "none"},
        ),
        ("+2:00 penalty", "900", "g5", [], [("add", ["right", 120_000])], {"right": 1_020_000}),
        ("-1:00 correction", "900", "g5", [], [("add", ["right", -60_000])], {"right": 840_000}),
        (
            "move counter 38 -> 40",
            "900",
            "g5",
            [("setmoves", [38])],
            [("setmoves", [40])],
            {"moves": "40"},
        ),
        (
            "move counter 38 -> 40 in %s, with the period's time" % fide,
            fide,
            "off",
            [("setmoves", [38])],
            [("setmoves", [40, "time"])],
            {"moves": "40", "left_stage": "2", "right_stage": "2"},
        ),
    ]
    figures = {}
    for name, control, quickplay, setup, steps, wanted in tasks:
        game = Game(parse("control %s\nquickplay %s\nat 0 show\n" % (control, quickplay)))
        game.run_to(0)
        game.act("press", ["right"])
        game.run_to(800_000)  # 900: left shows 1:40
        game.act("pause", [])
        game.run_to(801_000)
        for action, arguments in setup:
            game.act(action, arguments)
        before_values = dict(game.values())
        presses = 0
        before = game.offset_ms
        for action, arguments in steps:
            presses += len(arbiter_keys(game.board.app, action, arguments))
            game.act(action, arguments)
        seconds = game.offset_ms - before
        values = dict(game.values())
        game.close()
        for field, value in wanted.items():
            assert values[field] == value, (name, field, values)
        if name.endswith("with the period's time"):
            for side in ("left", "right"):  # the period's 30:00 came with it
                assert values[side] - before_values[side] == 1_800_000, (name, values)
        figures[name] = {"presses": presses, "seconds": seconds / 1000, "state": values["state"]}
    return figures


def micropython_figures():
    subprocess.run(["make", "-s", "mpy"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return micropython_run()


def micropython_run():
    """The hot paths' figures from inside MicroPython (build/mpy made already)."""
    return results.micropython_json(ROOT, "bench.measure")


def tick_beside_first_release():
    """The tick's CPU, the first release's and this tree's in one run (bench/first_release.py)."""
    from bench import first_release

    return first_release.side_by_side(micropython_run)


def first_release_rows(figures):
    from bench import first_release

    return first_release.rows(figures)


def board_heap(name="pico"):
    """Heap the firmware takes at boot on board ``name`` (.mpy modules, inside MicroPython)."""
    subprocess.run(["make", "-s", "mpy"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    done = subprocess.run(
        ["node", runner, "--compiled", "bench.boot_heap", name],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    print(
        "heap after boot on board %s (.mpy, MicroPython 32-bit): %d bytes, %d in use in all"
        % (name, figures["heap_after_boot_bytes"], figures["heap_in_use_after_boot_bytes"])
    )
    return figures


# The measurements of their own modules, in the order make bench prints them: (key in
# bench/latest.json, the module of bench/, its function giving the figures).
SECTIONS = (
    ("live_simulator", "live_simulator", "live_simulator_figures"),  # make sim, its CPU
    ("power", "power", "power_figures"),  # the journal: writes, wear, restored error
    ("chip", "chip", "chip_figures"),  # the charge error on each board's chip model
    ("capture_sweep", "capture_sweep", "capture_sweep_figures"),  # resume and lever in an erase
    ("wakeups", "wakeups", "wakeup_figures"),  # the main loop's wake-ups per state (model)
    ("preparation", "preparation", "preparation_figures"),  # the ring before the start
    ("menu_tasks", "menu_tasks", "menu_task_figures"),  # the setup menus beside the DGT 3000
    ("hall_page", "hall_page", "hall_page_figures"),  # the hall's page on a phone and a wall
    ("web", "web", "web_figures"),  # the clock in a web page: first draw, bytes, CPU, scripts
    ("journal", "journal", "journal_figures"),  # power cuts at every byte, real littlefs
    ("heap", "heap", "heap_section"),  # every board on its real heap, .mpy and frozen
    ("core", "core", "core_figures"),  # timing methods, mutation check, tick beside before
)


def section(module, function):
    """``bench.<module>.<function>()``'s figures and the module's rows of them."""
    import importlib

    figures_of = importlib.import_module("bench." + module)
    figures = getattr(figures_of, function)()
    return figures, figures_of.rows(figures)


def hall():
    """200 clocks on one broker, the page's latency, CPU, bytes, heap (bench/hall.py)."""
    from bench import hall as figures_of

    return figures_of.figures_and_rows()


def main():
    figures = {
        "machine": platform.machine(),
        "python": platform.python_version(),
        "micropython": micropython_figures(),
        "simulator_speed_6h_400_moves": simulator_speed(),
        "charge_error_10000_moves": charge_error(),
        "arbiter_tasks": arbiter_tasks(),
        "heap_after_boot_pico": board_heap("pico"),
        "tick_beside_first_release": tick_beside_first_release(),
    }
    mpy = figures["micropython"]
    rows = [
        ("bytes allocated per tick (MicroPython)", mpy["alloc_bytes_per_tick"], "0"),
        ("tick runs with the heap locked", mpy["tick_runs_with_heap_locked"], "True"),
        ("bytes allocated per lever press, IRQ to display", mpy["alloc_bytes_per_press"], "0"),
        ("press runs with the heap locked", mpy["press_runs_with_heap_locked"], "True"),
        (
            "heap used by the firmware after boot (.mpy), bytes",
            mpy["heap_after_boot_bytes"],
            "<= pico .mpy budget (heap)",
        ),
        ("CPU us per tick (WebAssembly port)", round(mpy["cpu_us_per_tick"], 1), "< 100"),
        (
            "CPU us per tick, a step at every tick (none at rest)",
            round(mpy["cpu_us_per_stepping_tick"], 1),
            "< 100",
        ),
        ("CPU us per display frame", round(mpy["cpu_us_per_display_frame"], 1), "report"),
        *first_release_rows(figures["tick_beside_first_release"]),
        (
            "simulator speed, 6 h game of 400 moves (x real time)",
            figures["simulator_speed_6h_400_moves"]["times_real_time"],
            ">= 1000",
        ),
        (
            "worst charge error over 10,000 moves with bounce, ms",
            figures["charge_error_10000_moves"]["worst_error_ms"],
            "0",
        ),
    ]
    for name, task in figures["arbiter_tasks"].items():
        rows.append(
            (
                "keys for %s: presses, seconds" % name,
                "%d, %.1f" % (task["presses"], task["seconds"]),
                "< 60 s",
                task["seconds"],
            )
        )
    for key, module, function in SECTIONS:
        figures[key], more = section(module, function)
        rows += more
    figures["hall"], hall_rows = hall()
    rows += hall_rows
    figures["build"], build_rows = section("build", "build_figures")  # battery, case
    rows += build_rows
    goals.print_table(rows)
    os.makedirs(os.path.join(ROOT, "bench"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "latest.json"), "w") as handle:
        json.dump(figures, handle, indent=2, sort_keys=True)
        handle.write("\n")
    print("written to bench/latest.json")
    figures_page.main()  # docs/figures.md, from the file just written


if __name__ == "__main__":
    main()
