"""The simulator's figures: its speed, the exact charge of random moves, the arbiter's procedures.

- ``simulator_speed_6h_400_moves``: virtual seconds per wall second on a 6-hour
  game of 400 moves;
- ``charge_error_10000_moves``: the worst charge error over 10,000 random moves
  with contact bounce, against an independent reckoning of the rules;
- ``arbiter_tasks``: the key presses and seconds of each arbiter's procedure
  (docs/arbiter.md), each checked on the clock.

``python -m bench.simulator`` prints the figures (``--write``: and puts them in
bench/latest.json under their keys); ``make bench`` writes them there too.
"""

import random
import sys
import time

from bench import figure_rows, results
from bench.figure_rows import Figure
from sim.runner import Game
from sim.script import parse

CHARGE_ERROR = Figure(
    "worst charge error, 10,000 random moves with bounce, ideal board",
    "charge_error_10000_moves.worst_error_ms",
    "ms",
    "0 ms",
)
SPEED = Figure(
    "simulator speed, 6-hour game of 400 moves",
    "simulator_speed_6h_400_moves.times_real_time",
    "× real time",
    "≥ 1000×",
)
TASK_GOAL_S = "< 60 s"  # FIDE's Guidelines III: a penalty applied within a minute


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


def simulator_figures():
    """The three keys' figures."""
    return {
        "simulator_speed_6h_400_moves": simulator_speed(),
        "charge_error_10000_moves": charge_error(),
        "arbiter_tasks": arbiter_tasks(),
    }


def rows(figures):
    """The section's table (``make bench``, ``python -m bench.simulator``): the charge
    error and the speed, then each procedure's presses and seconds."""
    table = figure_rows.table_rows((SPEED, CHARGE_ERROR), None, figures)
    for name, task in figures.get("arbiter_tasks", {}).items():
        table.append(
            (
                "keys for %s: presses, seconds" % name,
                "%d, %.1f" % (task["presses"], task["seconds"]),
                TASK_GOAL_S,
                task["seconds"],
            )
        )
    return table


def main(argv):
    return results.command(None, simulator_figures(), rows, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
