"""Every move charged exactly when the play key and a lever are pressed inside a flash erase.

The sweep the real port ran: the clock paused, a flash erase holds core 0 (the
chip's maximum, 400 ms, or its typical 45 ms), the play key resumes inside it,
and the side to move presses its lever some milliseconds after, inside the
erase or after it. On the RP2040 both are stamped by the PIO (hal/capture.py)
at their edges; the inputs are acted on in the order of their stamps
(hal/edges.py, ``pop``). Each charged move is checked against the times the
contacts closed, computed here from the script's own instants: the turn runs
from the resume's edge to the lever's edge, the other side's from the lever's
edge on. (On the ESP32, which has no PIO, a pin handler stamps when it runs,
so the order its handlers run in is the order of its stamps; the ring's
ordering is the same code on every board, tests/test_inputs.py.)
"""

import random

import pytest

from sim.runner import Game
from sim.script import parse

START_MS = 300_000
PAUSE_AT = 2_000  # left (White) thinks from 0 to the pause
END_AT = 7_000  # both times read here


def _ready_ms(game):
    """The first whole second from which a game may start: at once, or on the esp32 (its
    levers wait for an erase) once its ring is prepared (docs/power.md)."""
    now = 0
    while game.board.app.journal.start_wait():
        now += 100
        game.run_to(now)
    return -(-max(now, game.board.latency.busy_until_ms()) // 1000) * 1000


def _run(board_name, level, erase_at, resume_at, lever_at, bounce_ms):
    """From the first instant a game may start (0 on the Pico): right's press at 0 starts
    left's clock; pause at 2 s; an erase from ``erase_at``; play pressed at
    ``resume_at``, left's lever at ``lever_at``. (left, right, running) at 7 s, and
    when the erase ended, all counted from that instant."""
    script = parse("control 300\nbounce %d\n" % bounce_ms)
    game = Game(script, board_name=board_name, latency=level)
    try:
        start = _ready_ms(game)
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


def _cases(seed, count):
    """``count`` runs of the sweep: the erase's start, the resume inside it, the lever
    0..500 ms after the resume, the contacts' bounce."""
    draw = random.Random(seed)
    cases = []
    for _ in range(count):
        erase_at = draw.randrange(3_000, 4_000)
        resume_at = erase_at + draw.randrange(1, 350)
        cases.append((erase_at, resume_at, resume_at + draw.randrange(1, 500), draw.randrange(4)))
    return cases


def _expected(resume_ms, lever_ms):
    """The times at 7 s from the stamps: left charged 2 s before the pause and its turn
    from the resume to its lever; right running from the lever on."""
    left = START_MS - PAUSE_AT - (lever_ms - resume_ms)
    right = START_MS - (END_AT - lever_ms)
    return left, right, "right"


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("level", ["max", "typical"])
def test_a_resume_and_a_move_inside_an_erase_are_charged_at_their_edges_on_the_pico(seed, level):
    for erase_at, resume_at, lever_at, bounce_ms in _cases(seed, 10):
        found, _end = _run("pico", level, erase_at, resume_at, lever_at, bounce_ms)
        case = (erase_at, resume_at, lever_at, bounce_ms)
        assert found == _expected(resume_at, lever_at), case


@pytest.mark.parametrize("offset_ms", [1, 2, 25, 30, 399])
def test_the_lever_a_few_milliseconds_after_the_resume_on_the_pico(offset_ms):
    """The port's own case: play at 4.0 s inside a 400 ms erase from 3.98 s, the lever
    ``offset_ms`` after it (30 ms: charged -14 ms on the port before the play key was
    stamped by the PIO)."""
    found, _end = _run("pico", "max", 3_980, 4_000, 4_000 + offset_ms, 3)
    assert found == _expected(4_000, 4_000 + offset_ms)
