"""Charge error on the chips: random presses on the simulated board with its latency model.

For each board (``pico``, ``pico_w``, ``esp32``) and each level of the chip's
figures (``typical``, ``max``; boards/chips/), seeded games, each started a
minute after power-on (``SET_UP_MS``: the journal's ring is prepared), of Fischer 60+5
with contact bounce of 0 to 10 ms are played with random turns of 0.15 to
3 s, one in ten a long think of 5 to 60 s (periodic journal entries),
``PRESSES`` presses in all. Before each press both sides' times are
read and compared with a reckoning from the previous reading and the
presses' true instants: the charge error of the press between the two
readings is the larger of the two sides' differences (a press stamped d
late charges its player d too much and the opponent d too little).
Reported: the worst and the 99.9th percentile of those, the flash erases
while a clock ran, the readings that found the other side's clock running
(a press the chip did not see, or took after the reply), and the longest
C call in play
(``sim.latency.ChipLatency``); and a tournament day on the board's heap
(``bench/tournament_heap.py``, inside MicroPython).

``python -m bench.chip`` prints the figures (``--write``: and puts them in
bench/latest.json under ``chip``, the other keys kept); ``make bench``
writes them there too.
"""

import json
import os
import random
import subprocess
import sys

from bench import results
from sim.runner import Game
from sim.script import parse

BOARDS = ("pico", "pico_w", "esp32")
LEVELS = ("typical", "max")
PRESSES = 10_000
PER_GAME = 500
# The clock is switched on and set up a minute before each game, as for a round: time
# to prepare the journal's ring (96 blocks, one every 0.5 s; docs/power.md).
SET_UP_MS = 60_000
INCREMENT_MS = 5000
START_MS = 3_600_000


def _percentile(values, share):
    ordered = sorted(values)
    index = min(len(ordered) - 1, (len(ordered) * share + 999) // 1000 - 1)
    return ordered[max(0, index)]


def play(board_name, level, presses=PRESSES, seed=2026):
    """The errors of ``presses`` presses on ``board_name`` at ``level``: (errors, figures)."""
    rng = random.Random(seed)
    errors = []
    erases_in_play = 0
    longest_in_play = 0
    wrong_side = 0  # readings with the other side's clock running: a press not seen
    figures = {}
    while len(errors) < presses:
        bounce = rng.randint(0, 10)
        game = Game(
            parse("control 3600+5\nbounce %d\n" % bounce), board_name=board_name, latency=level
        )
        reckoned = [START_MS + INCREMENT_MS, START_MS + INCREMENT_MS]
        now = SET_UP_MS + rng.randint(0, 5000)  # set up a minute before: the ring prepared
        game.run_to(now)
        game.act("press", ["right"])  # left is White: its clock starts
        mover = 0
        for _ in range(PER_GAME):
            used = rng.randint(150, 3000)
            if rng.randint(0, 9) == 0:
                used = rng.randint(5_000, 60_000)  # a long think: periodic entries in a turn
            now += used
            game.run_to(now)
            values = dict(game.values())
            reckoned[mover] -= used
            if values["running"] != ("left" if mover == 0 else "right"):
                wrong_side += 1
            errors.append(
                max(abs(values["left"] - reckoned[0]), abs(values["right"] - reckoned[1]))
            )
            reckoned = [values["left"], values["right"]]  # the next reading: the next press alone
            game.act("press", ["left" if mover == 0 else "right"])
            reckoned[mover] += INCREMENT_MS
            mover = 1 - mover
            if len(errors) >= presses:
                break
        model = game.board.latency
        figures = model.figures()
        erases_in_play += model.erases_in_play
        longest_in_play = max(longest_in_play, model.longest_in_play_us)
        game.close()
    return errors, {
        "erases_in_play": erases_in_play,
        "readings_with_the_wrong_side_running": wrong_side,
        "longest_c_call_in_play_ms": round(longest_in_play / 1000, 3),
        "last_game": figures,
    }


def tournament_day(board_name):
    """bench/tournament_heap.py inside MicroPython (.mpy): ten games on one heap."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run(["make", "-s", "mpy"], cwd=root, check=True, stdout=subprocess.DEVNULL)
    done = subprocess.run(
        ["node", os.path.join(root, "tools", "mpy", "run.mjs"), "--compiled"]
        + ["bench.tournament_heap", board_name],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures.pop("board")
    return figures


def chip_figures(presses=PRESSES):
    """``chip`` of bench/latest.json: per board, the charge error at each level."""
    result = {}
    for board_name in BOARDS:
        entry = {"presses": presses}
        for level in LEVELS:
            errors, counted = play(board_name, level, presses)
            entry["charge_error_ms_worst"] = entry.get("charge_error_ms_worst", {})
            entry["charge_error_ms_p999"] = entry.get("charge_error_ms_p999", {})
            entry["charge_error_ms_worst"][level] = max(errors)
            entry["charge_error_ms_p999"][level] = _percentile(errors, 999)
            entry.setdefault("erases_in_play", {})[level] = counted["erases_in_play"]
            entry.setdefault("longest_c_call_in_play_ms", {})[level] = counted[
                "longest_c_call_in_play_ms"
            ]
            entry.setdefault("readings_with_the_wrong_side_running", {})[level] = counted[
                "readings_with_the_wrong_side_running"
            ]
        entry["tournament_day"] = tournament_day(board_name)
        result[board_name] = entry
    return result


def rows(figures):
    """The figures page's rows (bench/figures_page.py)."""
    lines = []
    for board_name, entry in figures.items():
        for level in LEVELS:
            lines.append(
                (
                    "charge error, %s chip model, %s figures, worst ms" % (board_name, level),
                    entry["charge_error_ms_worst"][level],
                    "<= 1" if level == "typical" else "<= 3",
                )
            )
    return lines


def main(argv):
    write = "--write" in argv
    numbers = [argument for argument in argv if argument != "--write"]
    figures = chip_figures(int(numbers[0]) if numbers else PRESSES)
    print(json.dumps(figures, indent=1, sort_keys=True))
    if write:
        results.update("chip", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
