"""Random games over the ground of issue-sized faults: power cuts with levers and
keys held, move-counter corrections across periods of every delay mode, displays
unplugged and plugged under the arbiter's screens, script lines up to the limit.

Each game is chosen a statement at a time on a simulated board (CPython), so
that every statement applies where it stands, and checked there against the
rules:

- after the power returns, nothing runs and no White is chosen until a lever
  or key is pressed after the boot, whatever was held through the cut
  (docs/power.md);
- a plain ``setmoves`` leaves both times as shown; ``setmoves N time`` moves
  each side's time by exactly the base times of the periods its count
  crosses, or changes nothing at all (``no | tInE``) (docs/spec/rules.md);
- a display plugged back in shows, one pass later, what the same game
  without the unplugging shows.

The games are then written as clock scripts and played on both lanes, in
resting and every-tick mode on CPython and inside MicroPython, which must print
the same lines.
"""

import random

from firmware import timecontrol as tc
from sim.runner import Game, NotApplied, run_files
from sim.script import MAX_LINE_BYTES, parse
from tests.scripting import run_cli

GAMES = 5
STEPS = 25
CONTROLS = (
    "2/60:2/60d5:60b3",
    "2/60d5:2/60:60+2",
    "1/40+2:1/40d3:40",
    "3/90b5:60d10",
    "2/60:60d5",
    "300+3",
)
HOLDABLE = ("play", "lever_left", "lever_right", "set")


def _at(ms):
    return "%d.%03d" % (ms // 1000, ms % 1000)


def _times(values):
    return values["left"], values["right"]


def _base_delta(control, before, after):
    """The base times a correction from period ``before`` to ``after`` (1-based
    stage texts) offers: added going forward, taken back going backward."""
    periods = tc.parse(control).periods
    old, new = int(before) - 1, int(after) - 1
    if new >= old:
        return sum(periods[p][1] for p in range(old + 1, new + 1))
    return -sum(periods[p][1] for p in range(new + 1, old + 1))


class Fuzz:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.control = self.rng.choice(CONTROLS)
        self.bounce = self.rng.randint(0, 10)
        self.header = ["control %s" % self.control, "bounce %d" % self.bounce]
        self.game = Game(parse("\n".join(self.header) + "\n"))
        self.lines = []
        self.now = 0
        self.plugged = [True, True]
        self.powered = True
        self.shows = []  # (line index, both displays plugged and the power on)

    def values(self):
        return dict(self.game.values())

    def add(self, text, action, arguments):
        self.lines.append("at %s %s" % (_at(self.now), text))
        self.game.run_to(self.now)
        self.game.act(action, arguments)

    def show(self):
        self.game.run_to(self.now)
        self.lines.append("at %s show" % _at(self.now))
        self.shows.append((len(self.lines) - 1, self.plugged == [True, True] and self.powered))

    def wait(self, low, high):
        self.now += self.rng.randint(low, high)

    def step(self):
        rng = self.rng
        game = self.game
        game.run_to(self.now)
        if not self.powered:
            if rng.random() < 0.5:
                name = rng.choice(HOLDABLE)
                hold = rng.randint(100, 2500)
                self.add("hold %s %s" % (name, _at(hold)), "hold", [name, hold])
                # the power may return while it is held: not while the contact still
                # bounces from its press or its release (read as it stands then, a
                # bounce reads as a press after the boot)
                wait = self.bounce
                while wait <= self.bounce or hold <= wait <= hold + self.bounce:
                    wait = rng.randint(1, hold + 300)
                self.now += wait
            self.add("power on", "power", ["on"])
            self.powered = True
            self.wait(3000, 3500)  # held contacts let go, the rESt notice over
            game.run_to(self.now)
            values = self.values()
            assert values["running"] == "none", values  # no press after the boot yet
            return
        values = self.values()
        state = values["state"]
        choice = rng.random()
        if choice < 0.12:
            if rng.random() < 0.5:  # a key held through the cut
                name = rng.choice(HOLDABLE)
                hold = rng.randint(200, 2500)
                self.add("hold %s %s" % (name, _at(hold)), "hold", [name, hold])
                self.wait(1, 150)
            self.add("power off", "power", ["off"])
            self.powered = False
            self.wait(100, 2000)
            return
        if state in ("setup", "running"):
            if state == "running" and choice < 0.3:
                self.add("pause", "pause", [])
            else:
                side = values["running"] if state == "running" else rng.choice(("left", "right"))
                self.add("press %s" % side, "press", [side])
            self.wait(150, 4000)
        elif state == "paused":
            if choice < 0.3:
                self.add("resume", "resume", [])
                self.wait(150, 4000)
            elif choice < 0.6:
                self.correct_moves()
            elif choice < 0.8:
                self.replug_under_a_screen()
            else:
                amount = rng.choice((1, -1)) * rng.randint(1, 90_000)
                side = rng.choice(("left", "right"))
                text = "add %s %s%s" % (side, "+" if amount > 0 else "-", _at(abs(amount)))
                self.add(text, "add", [side, amount])
                self.wait(3500, 4000)
        else:  # over, or a claim: a cut is all there is to do
            self.add("power off", "power", ["off"])
            self.powered = False
            self.wait(100, 2000)

    def correct_moves(self):
        rng = self.rng
        before = self.values()
        moves = max(0, int(before["moves"]) + rng.randint(-3, 4))
        with_time = rng.random() < 0.5
        arguments = [moves, "time"] if with_time else [moves]
        self.add("setmoves %d%s" % (moves, " time" if with_time else ""), "setmoves", arguments)
        after = self.values()
        if not with_time:
            assert _times(after) == _times(before), (self.lines, before, after)
        elif after["display"] == "no  |tInE":  # refused whole
            for field in ("moves", "left", "right", "left_stage", "right_stage"):
                assert after[field] == before[field], (self.lines, field, before, after)
        else:
            for side in ("left", "right"):
                stage = side + "_stage"
                delta = _base_delta(self.control, before[stage], after[stage])
                assert after[side] == before[side] + delta, (self.lines, side, before, after)
        self.wait(3500, 4000)

    def replug_under_a_screen(self):
        rng = self.rng
        side = rng.choice(("left", "right"))
        self.add("unplug %s" % side, "unplug", [side])
        self.plugged[("left", "right").index(side)] = False
        self.wait(100, 500)
        screen = rng.choice(("set", "minus", "lever_left", "lever_right"))
        if screen in ("set", "minus"):
            self.add("hold %s 2.1" % screen, "hold", [screen, 2100])
            self.wait(2500, 2600)
            self.add("key plus", "key", ["plus"])
            self.wait(300, 400)
        else:
            self.add("key %s" % screen, "key", [screen])  # LEvr / rLEv for 3 s
            self.wait(500, 1500)
        self.add("plug %s" % side, "plug", [side])
        self.plugged[("left", "right").index(side)] = True
        self.wait(100, 200)
        self.show()
        if screen in ("set", "minus"):
            self.add("key play", "key", ["play"])  # the amount or count applied
        self.wait(3500, 4000)

    def play(self):
        try:
            for _ in range(STEPS):
                self.step()
                self.show()
        except NotApplied:
            self.lines.pop()  # the statement that could not apply ends the game here
        finally:
            self.game.close()
        return "\n".join(self.header + self.lines) + "\n"

    def twin(self):
        """The same game without the unplugging: what the displays should show."""
        return (
            "\n".join(
                self.header
                + [line for line in self.lines if " unplug " not in line and " plug " not in line]
            )
            + "\n"
        )


def _displays(path):
    lines = []
    run_files([str(path)], lines.append)
    return [line.split('display="')[1] for line in lines if 'display="' in line]


def test_random_cuts_corrections_and_replugs_on_both_lanes(tmp_path):
    files = []
    for seed in range(GAMES):
        fuzz = Fuzz(seed)
        text = fuzz.play()
        path = tmp_path / ("fuzz-%d.clock" % seed)
        path.write_text(text)
        files.append(str(path))
        twin = tmp_path / ("twin-%d.clock" % seed)
        twin.write_text(fuzz.twin())
        shown, should = _displays(path), _displays(twin)
        # every show prints one line, and both games play the same statements
        for index, (line_index, whole) in enumerate(fuzz.shows[: len(shown) - 1]):
            if whole:
                assert shown[index] == should[index], (seed, fuzz.lines[line_index])
    for number in range(2):  # lines up to the limit, spaces and a comment included
        long_line = "at 0 show" + " " * (MAX_LINE_BYTES - 12 - number) + "# x"
        path = tmp_path / ("long-%d.clock" % number)
        path.write_text("control 300\n" + long_line + "\n")
        files.append(str(path))
    status_py, out_py, err_py = run_cli(files)
    status_mpy, out_mpy, err_mpy = run_cli(files, mpy=True)
    every_tick = []
    run_files(files, every_tick.append, rests=False)
    assert err_py == err_mpy == ""
    assert status_py == status_mpy == 0, out_py[-3000:]
    assert out_mpy.splitlines() == out_py.splitlines() == every_tick
    assert out_py.count(": end: ") == GAMES + 2
