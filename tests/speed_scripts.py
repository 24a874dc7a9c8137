"""The ``tests/scenarios/speed/*.clock`` scripts: every documented procedure keyed at
the pace of a practised hand, 0.15 s, 0.25 s and 0.35 s from one key to the next.

Each procedure is its documented key sequence (docs/arbiter.md, docs/menus.md)
in raw ``key``, ``hold`` and ``press`` statements, so the clock sees the keys
as a person presses them: a short press held 80 ms, a long press 2.1 s, and
the next key ``gap`` after the previous one's first edge (after a long press,
``gap`` after its release less the 80 ms of a short one). The expected values
come from the rules, with the arithmetic in each script's comments; they do
not depend on the pace. Every procedure of the setup menus starts from a menu
used before (it was left on another item).

``python -m tests.speed_scripts`` writes the scripts; ``tests/test_speed.py``
checks that the committed ones are these, and ``tests/test_scenarios.py``
plays them on both lanes.
"""

import os

from bench.menu_tasks import FIDE_FROM_SCRATCH
from sim.runner import LONG_HOLD_MS
from sim.world import PRESS_CONTACT_MS

GAPS_MS = (150, 250, 350)
SHORT_MS = PRESS_CONTACT_MS
HOLD_S = str(LONG_HOLD_MS / 1000)  # "2.1": held 0.1 s past the long press

# The claims' game: 15 minutes a side (rapid in every edition: 900 s is more than
# 10 minutes and, by Article 15.1, 15 minutes or more), right to move at 40 s with 1:40.
CLAIM_GAME = (
    """\
control 900
quickplay %s
at 0      press right                    # left is White
at 10     press left                     # left: 900 - 10 = 890 = 14:50
at 20     key play                       # paused; right: 900 - 10 = 890 = 14:50
# the arbiter takes 13 minutes off right (hold set, right lever, minus x 13, play):
# 14:50 - 13:00 = 1:50
at 21     hold set 2.1
at 24     key lever_right
"""
    + "".join("at %.1f    key minus\n" % (24.4 + 0.4 * n) for n in range(13))
    + """\
at 29.6   key play
at 30     key play                       # resumed: right to move with 1:50
# at 40 right has 1:50 - 10 s = 1:40, under two minutes
"""
)

# The corrections' game: right to move at 20 s, each side 14:50.
SHORT_GAME = """\
control 900
at 0      press right                    # left is White
at 10     press left                     # left: 900 - 10 = 890 = 14:50
"""

# (name, what it shows, header and game, first key's time in s, keys, expectations).
# A key is "key NAME", "hold NAME" or "press SIDE"; an expectation is (seconds after
# the last key's first edge, the fields).
PROCEDURES = (
    (
        "claim-g5-draw",
        "G.5: pause, hold plus (drA on right's side), set: the game ends drawn.\n"
        "A play after it changes nothing.",
        CLAIM_GAME % "g5",
        40,
        ["key play", "hold plus", "key set", "key play"],
        [(5, "state=over result=draw claim=none running=none left=14:50 right=1:40")],
    ),
    (
        "claim-g5-postpone",
        "G.5: pause, hold plus, plus (PoSt), set, play: the claim is postponed and\n"
        "right plays on from 1:40; 5 s later right has 1:35.",
        CLAIM_GAME % "g5",
        40,
        ["key play", "hold plus", "key plus", "key set", "key play"],
        [(5, "state=running running=right claim=postponed-right left=14:50 right=1:35")],
    ),
    (
        "claim-g5-postpone-plus2",
        "G.5: pause, hold plus, plus twice (Po 2), set, play: postponed, and the\n"
        "opponent (left) gets +2:00 at once: 14:50 + 2:00 = 16:50; right 1:40 - 5 s.",
        CLAIM_GAME % "g5",
        40,
        ["key play", "hold plus", "key plus", "key plus", "key set", "key play"],
        [(5, "state=running running=right claim=postponed-right left=16:50 right=1:35")],
    ),
    (
        "claim-g5-reject",
        "G.5: pause, hold plus, plus three times (rEJ), set, play: rejected, the\n"
        "opponent (left) gets +2:00: 14:50 + 2:00 = 16:50; the claim is closed and\n"
        "right plays on: 1:40 - 5 s = 1:35.",
        CLAIM_GAME % "g5",
        40,
        ["key play", "hold plus", "key plus", "key plus", "key plus", "key set", "key play"],
        [(5, "state=running running=right claim=none left=16:50 right=1:35")],
    ),
    (
        "claim-g5-leave-and-return",
        "G.5: play leaves the ruling screen with the claim open; hold plus comes\n"
        "back to it; plus three times (rEJ), set, play: left 14:50 + 2:00 = 16:50,\n"
        "right 1:40 - 5 s = 1:35.",
        CLAIM_GAME % "g5",
        40,
        [
            "key play",
            "hold plus",
            "key play",
            "hold plus",
            "key plus",
            "key plus",
            "key plus",
            "key set",
            "key play",
        ],
        [(5, "state=running running=right claim=none left=16:50 right=1:35")],
    ),
    (
        "claim-g5-final-ruling",
        "G.5 b: postponed (plus, set), then the final ruling while still paused:\n"
        "hold plus (no / PoSt), set (the final ruling, drA), set: drawn; the times\n"
        "are those at the pause, left 14:50, right 1:40.",
        CLAIM_GAME % "g5",
        40,
        ["key play", "hold plus", "key plus", "key set", "hold plus", "key set", "key set"],
        [(5, "state=over result=draw claim=none running=none left=14:50 right=1:40")],
    ),
    (
        "claim-g4-draw",
        "G.4 (increment mode): pause, hold plus (drA), set: drawn.",
        CLAIM_GAME % "g4-increment",
        40,
        ["key play", "hold plus", "key set", "key play"],
        [(5, "state=over result=draw claim=none running=none left=14:50 right=1:40")],
    ),
    (
        "claim-g4-grant",
        "G.4 (increment mode): pause, hold plus, plus (GrAn), set, play: the\n"
        "opponent (left) gets +2:00: 14:50 + 2:00 = 16:50; both sides play with a 5 s\n"
        "increment and the claimant's move in progress gets its 5 s at once:\n"
        "1:40 + 5 s = 1:45; 5 s after play, 1:40.",
        CLAIM_GAME % "g4-increment",
        40,
        ["key play", "hold plus", "key plus", "key set", "key play"],
        [(5, "state=running running=right claim=none left=16:50 right=1:40")],
    ),
    (
        "claim-g4-refuse",
        "G.4: pause, hold plus, plus twice (rEF), set, play: nothing changes;\n"
        "right plays on: 1:40 - 5 s = 1:35.",
        CLAIM_GAME % "g4-increment",
        40,
        ["key play", "hold plus", "key plus", "key plus", "key set", "key play"],
        [(5, "state=running running=right claim=none left=14:50 right=1:35")],
    ),
    (
        "claim-g6-record",
        "G.6: pause, hold plus: the claim is recorded and the game ends on the\n"
        "clock; the play after it changes nothing.",
        CLAIM_GAME % "g6",
        40,
        ["key play", "hold plus", "key play"],
        [(5, "state=over claim=recorded-right running=none left=14:50 right=1:40")],
    ),
    (
        "correct-add",
        "A time correction: hold set, the left lever, plus (1 min), set (unit 2:\n"
        "seconds), plus five times, play applies, play resumes. Left 14:50 + 1:05 =\n"
        "15:55. Right to move had 900 - 10 = 890 = 14:50; 5 s after play, 14:45.",
        SHORT_GAME,
        20,
        ["key play", "hold set", "key lever_left", "key plus", "key set"]
        + ["key plus"] * 5
        + ["key play", "key play"],
        [(5, "state=running running=right left=15:55 right=14:45")],
    ),
    (
        "correct-take",
        "A time correction: hold set, the right lever, minus (-1 min), play applies,\n"
        "play resumes. Right 900 - 10 = 890 = 14:50, - 1:00 = 13:50; 5 s after\n"
        "play, 13:45. Left keeps 14:50.",
        SHORT_GAME,
        20,
        ["key play", "hold set", "key lever_right", "key minus", "key play", "key play"],
        [(5, "state=running running=right left=14:50 right=13:45")],
    ),
    (
        "correct-quick-bonus",
        "The quick penalty in the opponent's favour: hold set, the left lever, hold\n"
        "plus: +2:00 in a standard game (60 minutes a side: standard by Article 15.1\n"
        "and by A.1, which makes rapid less than 60 minutes). Left 3600 - 10 =\n"
        "3590 = 59:50, + 2:00 = 1:01:50. Right 3600 - 10 = 3590 = 59:50; 5 s after\n"
        "play, 59:45.",
        "control 3600\nat 0      press right                    # left is White\n"
        "at 10     press left                     # left: 3600 - 10 = 3590\n",
        20,
        ["key play", "hold set", "key lever_left", "hold plus", "key play"],
        [(5, "state=running running=right left=1:01:50 right=59:45")],
    ),
    (
        "correct-moves",
        "The move counter: hold minus, plus twice (1 -> 3), play applies, play\n"
        "resumes. White (left, to move) has completed 3 moves, Black 3. Left used\n"
        "10 + 10 s: 900 - 20 = 880; 5 s after play, 875 = 14:35. Right 890 = 14:50.",
        "control 900\nat 0      press right                    # left is White\n"
        "at 10     press left                     # move 1: 900 - 10 = 890\n"
        "at 20     press right                    # 900 - 10 = 890\n",
        30,
        ["key play", "hold minus", "key plus", "key plus", "key play", "key play"],
        [(5, "state=running running=left moves=3 left=14:35 right=14:50")],
    ),
    (
        "new-game",
        "A new game while paused: hold set, hold set (nEU GAnE), set; then the\n"
        "right lever starts left's clock in the new game: 900 - 5 = 895 = 14:55.",
        SHORT_GAME,
        20,
        ["key play", "hold set", "hold set", "key set", "press right"],
        [(5, "state=running running=left white=left moves=0 left=14:55 right=15:00")],
    ),
    (
        "menu-preset",
        "A preset game from a new clock (90 min + 30 s, preset 2) whose menu was\n"
        "used (left on HG): set (PrE), set (the list at the preset in force, P  2),\n"
        "right lever (the rapid group, P  8), plus twice (P 10, 25 min + 10 s), set,\n"
        "then the right lever starts left's clock: 1500 + 10 = 1510 = 25:10 each;\n"
        "5 s later left has 25:05.",
        "control 5400+30\n"
        "at 1      key set                        # the menu is used: PrE\n"
        "at 1.4    key plus                       # CUSt\n"
        "at 1.8    key plus                       # HG\n"
        "at 2.2    key play                       # and left there\n",
        3,
        ["key set", "key set", "key lever_right", "key plus", "key plus", "key set"]
        + ["press right"],
        [(5, "state=running running=left white=left left=25:05 right=25:10")],
    ),
    (
        "menu-custom",
        "40/5400+30:1800+30 on the control builder from a used menu (left on HG),\n"
        "in the 22 presses of docs/menus.md. Each side starts with 5400 + 30 s =\n"
        "1:30:30; the right lever then starts left's clock: 5 s later 1:30:25.",
        "control 300+3\n"
        "at 1      key set                        # the menu is used: PrE\n"
        "at 1.4    key plus                       # CUSt\n"
        "at 1.8    key plus                       # HG\n"
        "at 2.2    key play                       # and left there\n",
        3,
        ["key " + name for name, _ in FIDE_FROM_SCRATCH] + ["press right"],  # docs/menus.md
        [(5, "state=running running=left white=left left=1:30:25 right=1:30:30")],
    ),
)


def _seconds(ms):
    text = "%d.%03d" % (ms // 1000, ms % 1000)
    return text.rstrip("0").rstrip(".")


def script(name, gap_ms):
    """The text of ``speed/NAME-GAP.clock``."""
    entry = [procedure for procedure in PROCEDURES if procedure[0] == name][0]
    _, about, game, start_s, keys, expectations = entry
    lines = ["# %s" % line for line in about.splitlines()]
    lines.append(
        "# Keyed at %.2f s from one key to the next (a long press: held 2.1 s)." % (gap_ms / 1000)
    )
    lines.append("# Generated by tests/speed_scripts.py; the values hold at any pace.")
    lines.append(game.rstrip("\n"))
    now = start_s * 1000
    last = now
    for key in keys:
        verb, what = key.split()
        last = now
        if verb == "hold":
            lines.append("at %-8s hold %s %s" % (_seconds(now), what, HOLD_S))
            now += LONG_HOLD_MS + gap_ms - SHORT_MS
        else:
            lines.append("at %-8s %s %s" % (_seconds(now), verb, what))
            now += gap_ms
    for after_s, fields in expectations:
        lines.append("at %-8s expect %s" % (_seconds(last + after_s * 1000), fields))
    return "\n".join(lines) + "\n"


def names():
    """Every script's file name and text."""
    result = []
    for entry in PROCEDURES:
        for gap in GAPS_MS:
            result.append(("%s-%d.clock" % (entry[0], gap), script(entry[0], gap)))
    return result


def write(folder):
    for file_name, text in names():
        with open(os.path.join(folder, file_name), "w") as handle:
            handle.write(text)


if __name__ == "__main__":
    write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios", "speed"))
