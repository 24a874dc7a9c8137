"""Practice for arbiters: the procedures of docs/arbiter.md as exercises on the page.

Each exercise sets a game up by a clock script played in virtual time (the
clock is then paused where the arbiter is called), says the claim or the
incident, the arbiter's decision and the keys that carry it out, and what
the clock must then show: state-line fields that ``check`` reads from the
clock's own state line once the arbiter has pressed the keys on the page.
``answer`` is the same decision as clock-script statements: the tests play
``setup``, ``answer`` and the expectation through the simulator's runner, so
every exercise's expected state is the clock's own (tests/test_web_practice.py).
"""

import json

from sim import runner
from sim import script as script_module


class Exercise:
    def __init__(self, name, title, situation, decision, keys, setup, answer, expect, shows):
        self.name = name
        self.title = title
        self.situation = situation  # the game and the claim, as the arbiter meets them
        self.decision = decision  # what the arbiter decides, and why (the rule)
        self.keys = keys  # the keys that carry it out (docs/arbiter.md)
        self.setup = setup  # a clock script that ends with the clock paused there
        self.answer = answer  # the decision as clock-script statements
        self.expect = expect  # the state-line fields the clock must then show
        self.shows = shows  # what the displays then read, in words


G5_REJECT = Exercise(
    "g5-reject",
    "G.5: a draw claim rejected",
    "Rapid, 15 minutes, quickplay finish G.5. Black (left) has 1:50 left and stops "
    "the clock: he claims that White is making no effort to win by normal means.",
    "You judge that White is trying to win: the claim is rejected and White gets "
    "two extra minutes (G.5.3c).",
    [
        "hold plus 2 s: drA on the claimant's side, CLA on the other",
        "plus three times: PoSt, Po 2, rEJ",
        "set confirms: the clock stays paused, the claimant to move",
    ],
    "control 900\nquickplay g5\nat 0 press left\nat 30 press right\nat 820 pause\n",
    ["claim", "decide reject"],
    "state=paused claim=none result=none left=1:50 right=16:30",
    "left 1.50, right 16:30: White's 14:30 and two minutes",
)
G4_GRANT = Exercise(
    "g4-grant",
    "G.4: the 5-second mode granted",
    "Rapid, 2 moves in 10 minutes then 10 minutes, quickplay finish G.4 with the "
    "increment. White (left) is in the last period with 1:50 and stops the clock to "
    "ask for the 5-second increment.",
    "You grant it: the opponent gets two minutes at once, both sides play on with 5 s "
    "a move, and the claimant's move in progress gets its 5 s now (G.4).",
    ["hold plus 2 s: drA", "plus once: GrAn", "set confirms"],
    "control 2/600:600\nquickplay g4-increment\nat 0 press right\nat 100 press left\n"
    "at 150 press right\nat 250 press left\nat 300 press right\nat 1190 pause\n",
    ["claim", "decide grant"],
    "state=paused claim=none left=1:55 right=20:20 left_stage=2 right_stage=2",
    "left 1.55 (1:50 and the 5 s), right 20:20 (18:20 and two minutes)",
)
G5_POSTPONE = Exercise(
    "g5-postpone-plus2",
    "G.5: a claim postponed, two minutes given",
    "Rapid, 15 minutes, G.5. Black (right) has 1:30 and claims a draw; you want to "
    "see more moves before deciding.",
    "You postpone the decision and give White two minutes now (G.5.3b). The claim "
    "stays marked until your final ruling.",
    ["hold plus 2 s: drA", "plus twice: PoSt, Po 2", "set confirms"],
    "control 900\nquickplay g5\nat 0 press right\nat 600 press left\nat 1410 pause\n",
    ["claim", "decide postpone+2"],
    "state=paused claim=postponed-right left=7:00 right=1:30",
    "left 7:00, right 1.30 with the point after its third digit: the claim waits",
)
G5_DRAW = Exercise(
    "g5-draw",
    "G.5: a draw claim upheld",
    "Rapid, 15 minutes, G.5. Black (left) has 1:50 and claims a draw in a dead "
    "level ending where White only plays on the clock.",
    "You uphold the claim: the game is drawn (G.5.3a).",
    ["hold plus 2 s: drA", "set confirms: the game is over, drawn"],
    "control 900\nquickplay g5\nat 0 press left\nat 30 press right\nat 820 pause\n",
    ["claim", "decide draw"],
    "state=over result=draw claim=none",
    "the game is over on the clock: a draw",
)
PENALTY = Exercise(
    "penalty",
    "A penalty: two minutes to the opponent",
    "Rapid, 15 minutes, no quickplay finish. White (left) complains that Black "
    "(right) keeps talking to him; you stop the clock.",
    "You give White two minutes (Law 12.9): the time correction, on White's side.",
    ["hold set 2 s: A- 1", "the left lever: AL 1 (minutes)", "plus twice: 2.00", "play applies it"],
    "control 900\nat 0 press right\nat 100 press left\nat 160 pause\n",
    ["add left +2:00"],
    "state=paused left=15:20 right=14:00",
    "left 15:20 (13:20 and two minutes), right 14:00",
)
MOVE_COUNT = Exercise(
    "move-count",
    "The move counter corrected",
    "Blitz, 3 moves in 2 minutes then 1 minute. The players have made two moves "
    "each, but the clock counts one: a lever was missed. White (left) is to move.",
    "You correct the count to 2 (Law 6.10.2): the next move then ends the first "
    "period. No time changes.",
    ["hold minus 2 s: n on the left, the count on the right", "plus once: 2", "play applies it"],
    "control 3/120:60\nat 0 press right\nat 10 press left\nat 20 press right\nat 25 pause\n",
    ["setmoves 2"],
    "state=paused moves=2 left_stage=1 right_stage=1 left=1:45 right=1:50",
    "left 1:45, right 1:50, the count 2",
)
EXERCISES = (G5_REJECT, G4_GRANT, G5_POSTPONE, G5_DRAW, PENALTY, MOVE_COUNT)


def find(name):
    for exercise in EXERCISES:
        if exercise.name == name:
            return exercise
    raise ValueError("no exercise %r" % (name,))


def expectations(exercise):
    """The exercise's ``expect`` fields as the script reader makes them."""
    parsed = script_module.parse("control 60\nat 0 expect " + exercise.expect + "\n")
    return parsed.statements[0][3]


def check(clock, name):
    """What the clock ``clock`` (a PageClock) shows that the exercise ``name`` does not
    expect, one line a field ("" when every field holds)."""
    game = clock.session.game
    failed = game.failures(expectations(find(name)))
    return "\n".join(runner._describe(*failure) for failure in failed)


def listing():
    """Every exercise for the page, as JSON."""
    items = []
    for exercise in EXERCISES:
        items.append(
            {
                "name": exercise.name,
                "title": exercise.title,
                "situation": exercise.situation,
                "decision": exercise.decision,
                "keys": exercise.keys,
                "setup": exercise.setup,
                "expect": exercise.expect,
                "shows": exercise.shows,
            }
        )
    return json.dumps(items)
