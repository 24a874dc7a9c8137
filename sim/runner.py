"""The scenario runner: plays clock scripts on the simulated board in virtual time.

``run_files(paths)`` runs each script and returns the exit status of
SCENARIOS.md: 0 every ``expect`` held, 1 one failed, 2 a script is
malformed. It runs unchanged on CPython and inside MicroPython, so both
lanes print identical state lines.
"""

from firmware import engine, timecontrol
from sim import script as script_module
from sim import vclock
from sim.world import SimBoard, fresh_flash, remove_flash

SIDE_NAMES = ("left", "right")


def _side(index):
    return SIDE_NAMES[index] if index >= 0 else "none"


def _flag_field(clock):
    left = clock.sides[0].flagged
    right = clock.sides[1].flagged
    if left and right:
        return "both"
    if left:
        return "left"
    if right:
        return "right"
    return "none"


def _seconds_text(ms):
    return "%d.%03d" % (ms // 1000, ms % 1000)


class Game:
    """One script being played on one simulated board."""

    def __init__(self, script):
        self.script = script
        self.flash = fresh_flash(script.control_left, script.control_right)
        self.board = SimBoard(self.flash, script.bounce_ms, script.near_wrap)
        self.board.boot()

    def close(self):
        remove_flash(self.flash)

    def values(self):
        """The state line's fields, in order, as (name, value) pairs."""
        board = self.board
        board.settle()
        clock = board.app.clock
        tick = vclock.ticks_ms()
        return [
            ("at", vclock.now_ms()),
            ("state", engine.STATE_NAMES[clock.state]),
            ("left", clock.shown_ms(0, tick)),
            ("right", clock.shown_ms(1, tick)),
            ("running", _side(clock.running())),
            ("white", _side(clock.white)),
            ("moves", str(clock.moves())),
            ("left_stage", clock.stage(0, tick)),
            ("right_stage", clock.stage(1, tick)),
            ("flag", _flag_field(clock)),
            ("first_flag", _side(clock.first_flag)),
            ("claim", "none"),
            ("result", "none"),
            ("display", board.display_text()),
        ]

    def state_line(self, values=None):
        if values is None:
            values = self.values()
        words = []
        for name, value in values:
            if name == "at":
                text = _seconds_text(value)
            elif name in ("left", "right"):
                text = timecontrol.describe_ms(value)
            elif name == "display":
                text = '"%s"' % value
            else:
                text = value
            words.append("%s=%s" % (name, text))
        return " ".join(words)

    def act(self, action, arguments):
        board = self.board
        clock = board.app.clock
        if action == "press":
            board.press("lever_" + arguments[0])
        elif action == "pause":
            if clock.state == engine.RUNNING:
                board.press("play")
        elif action == "resume":
            if clock.state == engine.PAUSED:
                board.press("play")
        elif action == "key":
            board.press(arguments[0])
        elif action == "hold":
            board.press(arguments[0], arguments[1])
        elif action == "unplug":
            board.unplug(SIDE_NAMES.index(arguments[0]))
        elif action == "plug":
            board.plug(SIDE_NAMES.index(arguments[0]))

    def failures(self, expectations):
        """The expectations that do not hold now."""
        actual = {}
        for name, value in self.values():
            actual[name] = value
        failed = []
        for field, wanted, tolerance in expectations:
            value = actual[field]
            if field in script_module.TIME_FIELDS:
                slack = tolerance or 0
                if value < wanted - slack or value > wanted + slack:
                    failed.append((field, wanted, tolerance))
            elif value != wanted:
                failed.append((field, wanted, tolerance))
        return failed


def _describe(field, wanted, tolerance):
    if field in script_module.TIME_FIELDS:
        text = timecontrol.describe_ms(wanted) if field != "at" else _seconds_text(wanted)
        if tolerance:
            text += "~" + _seconds_text(tolerance)
        return "%s=%s" % (field, text)
    if field == "display":
        return '%s="%s"' % (field, wanted)
    return "%s=%s" % (field, wanted)


def run_script(path, text, out):
    """Run one script's text; return its exit status."""
    try:
        script = script_module.parse(text)
    except script_module.ScriptError as error:
        out("%s:%d: %s" % (path, error.line, error.message))
        return 2
    game = Game(script)
    status = 0
    try:
        for number, time_ms, action, arguments in script.statements:
            game.board.run_due(time_ms)
            if action == "expect":
                failed = game.failures(arguments)
                if failed:
                    status = 1
                    wanted = " ".join(_describe(*item) for item in failed)
                    out("%s:%d: expect failed: %s" % (path, number, wanted))
                    out("  actual: " + game.state_line())
            elif action == "show":
                out(game.state_line())
            else:
                try:
                    game.act(action, arguments)
                except ValueError as error:
                    out("%s:%d: %s" % (path, number, error))
                    return 2
        out("%s: end: %s" % (path, game.state_line()))
    finally:
        game.close()
    return status


def run_files(paths, out=print):
    """Run every script in ``paths``; return the worst exit status."""
    worst = 0
    for path in paths:
        try:
            with open(path) as handle:
                text = handle.read()
        except OSError as error:
            out("%s: cannot read: %s" % (path, error))
            worst = 2
            continue
        status = run_script(path, text, out)
        if status > worst:
            worst = status
    return worst


def main(argv):
    """Entry point of the MicroPython lane: ``argv`` is the list of script files."""
    return run_files(argv)
