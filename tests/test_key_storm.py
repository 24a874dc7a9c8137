"""A key storm: random keys and levers, with bounce, in every state of the clock.

A thousand random sequences under ``make deep`` (CI), 500 under ``make test``
(tests/depth.py), each on a fresh simulated board brought into
one state (setup, running, paused, a claim awaiting the ruling, over) by the
documented key sequences, then hit with random presses of random length (a
quarter of them long presses) at random gaps. After every press:

- nothing raises;
- a side's settled time changes only with a move, a flag, a logged arbiter
  action (an entry noted in claims.log) or a new game, and a new game is in the setup state;
- while the clock runs, only the side to move loses time (hourglass: the
  other gains what it loses);
- during a game (running, paused, a claim, over) the settings in force and the
  time controls never change, and the setup menu never opens, except through
  a logged arbiter action (a G.4 grant changes the controls) or a new game.
"""

import random

import pytest

from firmware import engine
from firmware import timecontrol as tc
from sim import vclock
from sim.runner import Game
from sim.script import parse
from tests.depth import count

SEQUENCES = count(500, 1000)
PRESSES = 6
INPUTS = ("lever_left", "lever_right", "play", "set", "plus", "minus")
WEIGHTS = (2, 2, 2, 3, 3, 3)
CONTROLS = ("300+3", "60", "90d5", "120b3", "*30", "30j5x2", "60c2/20", "2/60+1:60+1", "900")
QUICKPLAY = ("off", "g4-increment", "g4-delay", "g5", "g6")
STATES = ("setup", "running", "paused", "claim", "over")


def count_notes(claims):
    """Count the event-log entries ``claims`` notes from now on, in ``claims.noted``:
    the log itself is emptied at a new game (the journal has it on flash)."""
    claims.noted = 0
    note = claims.note

    def counted(now, what, detail):
        claims.noted += 1
        note(now, what, detail)

    claims.note = counted


def start(rng, state):
    """A fresh board brought into ``state`` by the documented key sequences."""
    control = rng.choice(CONTROLS)
    quickplay = rng.choice(QUICKPLAY)
    if state == "claim":
        control, quickplay = "900", rng.choice(("g4-increment", "g4-delay", "g5"))
    elif state == "over":
        control = rng.choice(("1+1", "*1", "1d1"))
    game = Game(parse("control %s\nquickplay %s\nbounce %d\n" % (control, quickplay, 0)))
    game.board.bounce_ms = rng.randint(0, 10)
    board = game.board
    if state != "setup":
        board.press("lever_right")  # left is White
        board.run_due(vclock.now_ms() + rng.randint(100, 1000))
    if state in ("paused", "claim"):
        game.act("pause", [])
        board.run_due(vclock.now_ms() + 500)
    if state == "claim":
        game.act("add", ["left", -840_000])  # under two minutes
        game.act("claim", [])
        assert board.app.claims.state == "open", board.app.claims.field()
    if state == "over":
        board.run_due(vclock.now_ms() + 2_500)
        assert board.app.clock.state == engine.OVER
    return game


class Snapshot:
    """What may change only for a reason, taken between two presses."""

    def __init__(self, app, now):
        clock = app.clock
        self.settings = app.settings
        self.settings_data = app.settings.to_dict()
        self.state = clock.state
        self.mover = clock.mover
        self.remaining = tuple(side.remaining_ms for side in clock.sides)
        self.moves = tuple(side.moves for side in clock.sides)
        self.flags = tuple(side.flagged for side in clock.sides)
        self.controls = tuple(side.control.text for side in clock.sides)
        self.shown = tuple(clock.shown_ms(index, now) for index in (0, 1))
        self.log = app.claims.noted
        self.menu = app.menu.active()


def check(before, after, app, where):
    """The storm's invariants between two snapshots."""
    in_game = before.state != engine.SETUP
    # a new game sets the same clock up again: back to the setup state, or new times in it
    new_game = after.state == engine.SETUP and (
        before.state != engine.SETUP
        or after.controls != before.controls
        or after.remaining != before.remaining
    )
    logged = after.log > before.log
    if new_game:
        assert after.state == engine.SETUP, where
        if in_game:
            # only the documented ways: the arbiter's sequence (logged), or after the game
            assert logged or before.state == engine.OVER, where
        return
    if in_game:
        assert after.settings is before.settings, where
        assert after.settings_data == before.settings_data, where
        assert not after.menu, where
        if not logged:
            assert after.controls == before.controls, where
    moved = after.moves != before.moves
    flagged = after.flags != before.flags
    if after.remaining != before.remaining:
        assert moved or flagged or logged, where
    steady = (
        before.state == engine.RUNNING
        and after.state == engine.RUNNING
        and before.mover == after.mover
        and not moved
        and not logged
    )
    if steady:
        other = 1 - before.mover
        hourglass = app.clock.sides[other].control.kind == tc.HOURGLASS
        if not hourglass:
            assert after.shown[other] == before.shown[other], where
        assert after.shown[before.mover] <= before.shown[before.mover], where


def storm(seed):
    rng = random.Random(seed)
    state = STATES[seed % len(STATES)]
    game = start(rng, state)
    board = game.board
    count_notes(board.app.claims)
    try:
        for number in range(PRESSES):
            name = rng.choices(INPUTS, WEIGHTS)[0]
            hold = rng.randint(2000, 2400) if rng.random() < 0.25 else rng.randint(30, 300)
            gap = rng.randint(0, 500)
            app = board.app
            before = Snapshot(app, vclock.ticks_ms())
            board.press(name, hold)
            board.run_due(vclock.now_ms() + hold + gap)
            board.settle()
            after = Snapshot(board.app, vclock.ticks_ms())
            where = "seed %d (%s), press %d: %s held %d ms" % (seed, state, number, name, hold)
            check(before, after, board.app, where)
    finally:
        game.close()
    return state


# The sequences in batches of consecutive seeds, each a test that the workers may take
# apart (one batch of them all held up the end of a run): each batch still meets every
# state, as its seeds go round STATES.
BATCH = 250


@pytest.mark.parametrize("first", range(0, SEQUENCES, BATCH))
def test_key_storm_in_every_state(first):
    seen = set()
    for seed in range(first, min(first + BATCH, SEQUENCES)):
        seen.add(storm(seed))
    assert seen == set(STATES)
