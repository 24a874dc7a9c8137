"""The play key and a lever inside a flash erase on the simulated Pico: every move charged exactly?

The real port's sweep (issue 43): the clock paused, a flash erase holds the
CPU (the W25Q16JV's maximum, 400 ms, or its typical 45 ms), the play key
resumes inside it and the side to move presses its lever 1 to 500 ms after,
inside the erase or after it. ``SEEDS`` x ``CASES`` seeded runs at each level
of the chip's figures, with the PIO's RX DREQ played as a credit and as a
level (``sim.rp2_dma.set_dreq``). Each run's times at 7 s are compared with
the reckoning from the contacts' instants: the turn runs from the resume's
edge to the lever's, the opponent's from the lever's on. Reported per DREQ
and level: the runs, the moves charged wrongly, the presses lost (the clock
not running for the opponent at the end: a resume or a move not taken), the
worst charge error in ms.

``python -m bench.capture_sweep`` prints the figures (``--write``: and puts them
in bench/latest.json under ``capture_sweep``); ``make bench`` writes them too.
"""

import random
import sys

from bench import figure_rows, results
from bench.figure_rows import Figure
from sim import rp2_dma
from sim.runner import Game
from sim.script import parse

LEVELS = ("typical", "max")
DREQS = ("credit", "level")
SEEDS = 5
CASES = 20  # runs a seed
START_MS = 300_000  # control 300: five minutes each
PAUSE_AT = 2_000  # left (White) thinks from 0 to the pause
END_AT = 7_000  # both times read here


def ready_ms(game):
    """The first whole second from which a game may start on the board: at once, or
    (a board whose levers wait for an erase) once its ring is prepared."""
    now = 0
    while game.board.app.journal.start_wait():
        now += 100
        game.run_to(now)
    return -(-max(now, game.board.latency.busy_until_ms()) // 1000) * 1000


def run_case(board_name, level, erase_at, resume_at, lever_at, bounce_ms):
    """From the first instant a game may start: right's press at 0 starts left's clock;
    pause at 2 s; an erase from ``erase_at``; play pressed at ``resume_at``, left's lever
    at ``lever_at``. (left, right, running) at 7 s, and when the erase ended, all
    counted from that instant."""
    script = parse("control 300\nbounce %d\n" % bounce_ms)
    game = Game(script, board_name=board_name, latency=level)
    try:
        start = ready_ms(game)
        game.run_to(start)
        game.act("press", ["right"])
        game.run_to(start + PAUSE_AT)
        game.act("pause", [])
        game.run_to(start + erase_at - 20)
        model = game.board.latency
        model.cursor_us = max(model.cursor_us, (start + erase_at) * 1000)
        model.erase_block()
        erase_end = model.cursor_us // 1000 - start
        game.run_to(start + resume_at)
        game.act("resume", [])
        game.run_to(start + lever_at)
        game.act("press", ["left"])
        game.run_to(start + END_AT)
        values = dict(game.values())
        return (values["left"], values["right"], values["running"]), erase_end
    finally:
        game.close()


def cases(seed, count):
    """``count`` runs: the erase's start in the pause, the resume 1 to 349 ms into it, the
    lever 1 to 499 ms after the resume, the contacts' bounce 0 to 3 ms."""
    draw = random.Random(seed)
    drawn = []
    for _ in range(count):
        erase_at = draw.randrange(3_000, 4_000)
        resume_at = erase_at + draw.randrange(1, 350)
        lever_at = resume_at + draw.randrange(1, 500)
        drawn.append((erase_at, resume_at, lever_at, draw.randrange(4)))
    return drawn


def sweep(dreq, level, seeds=SEEDS, count=CASES):
    """The figures of the sweep with the DREQ as ``dreq`` at ``level``."""
    rp2_dma.set_dreq(dreq)
    try:
        runs = wrong = lost = worst = 0
        for seed in range(seeds):
            for erase_at, resume_at, lever_at, bounce_ms in cases(seed, count):
                found, _end = run_case("pico", level, erase_at, resume_at, lever_at, bounce_ms)
                left, right, running = found
                runs += 1
                charged = START_MS - PAUSE_AT - left
                error = abs(charged - (lever_at - resume_at))
                error = max(error, abs(START_MS - (END_AT - lever_at) - right))
                if running != "right":
                    lost += 1
                if error or running != "right":
                    wrong += 1
                worst = max(worst, error)
        return {
            "runs": runs,
            "charged_wrongly": wrong,
            "presses_lost": lost,
            "worst_error_ms": worst,
        }
    finally:
        rp2_dma.set_dreq("credit")


def capture_sweep_figures(seeds=SEEDS, count=CASES):
    """Every DREQ and level's figures: {dreq: {level: sweep}}."""
    figures = {}
    for dreq in DREQS:
        figures[dreq] = {}
        for level in LEVELS:
            figures[dreq][level] = sweep(dreq, level, seeds, count)
    return figures


LEVEL_NAMES = {"typical": "typical", "max": "maxima"}
# (what, field of a sweep, unit, goal)
SWEEP_FIGURES = (
    ("runs", "runs", "", "report"),
    ("worst error", "worst_error_ms", "ms", "0 ms"),
    ("presses lost", "presses_lost", "", "0"),
    ("moves wrong", "charged_wrongly", "", "0"),
)


def declared():
    """Each DREQ and level's figures (bench/figure_rows.py)."""
    return tuple(
        Figure(
            "play and lever in an erase, Pico model, DREQ a %s, %s: %s"
            % (dreq, LEVEL_NAMES[level], what),
            "capture_sweep.%s.%s.%s" % (dreq, level, field),
            unit,
            goal,
        )
        for dreq in DREQS
        for level in LEVELS
        for what, field, unit, goal in SWEEP_FIGURES
    )


def rows(figures):
    """The section's table (``make bench``, ``python -m bench.capture_sweep``)."""
    return figure_rows.table_rows(declared(), "capture_sweep", figures)


def main(argv):
    return results.command("capture_sweep", capture_sweep_figures(), rows, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
