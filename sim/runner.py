"""The scenario runner: plays clock scripts on the simulated board in virtual time.

``run_files(paths)`` runs each script and returns the exit status of
docs/spec/scripts.md: 0 every ``expect`` held, 1 one failed, 2 a script is
malformed. It runs unchanged on CPython and inside MicroPython, so both
lanes print identical state lines.
"""

from firmware import arbiter, engine, timecontrol
from firmware import claims as claims_module
from firmware.input_codes import LONG_PRESS_MS
from sim import ready as ready_module
from sim import script as script_module
from sim import vclock
from sim.world import PRESS_CONTACT_MS, SimBoard, fresh_flash, remove_flash

SIDE_NAMES = ("left", "right")
# A scripted long press: held 0.1 s past the long press, so it is classified long.
LONG_HOLD_MS = LONG_PRESS_MS + 100
EVERY_TICK = "--every-tick"  # the command line's option: a step at every tick
LATENCY = "--latency="  # the command line's option: the chip's latency model, typical or max
READY = "--ready"  # the command line's option: with a latency model, the board made ready first
PRESS_GAP_MS = 320  # with the 80 ms press: a press every 0.4 s


class NotApplied(Exception):
    """An arbiter statement that cannot apply where it stands: the runner stops (exit 1)."""


# What the first key of an arbiter's sequence, held, must open (docs/arbiter.md).
OPENS = {"plus": "the claim's ruling", "set": "the time correction", "minus": "the move counter"}
_OPEN_SCREENS = {
    "plus": (arbiter.RULING, arbiter.MESSAGE),
    "set": (arbiter.ADJUST,),
    "minus": (arbiter.MOVES,),
}
_STATE_PROBLEMS = {
    engine.SETUP: "the game has not started",
    engine.RUNNING: "the clock is running: pause it first",
    engine.OVER: "the game is over",
}


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


def _copy_settings(folder, files):
    """The settings file ``fresh_flash`` wrote into ``folder``, written into ``files``."""
    from firmware import files as names
    from hal.storage import Files, Storage

    data = Storage(folder, Files()).read_bytes(names.SETTINGS)
    if data:
        with files.open(folder + "/" + names.SETTINGS, "wb") as handle:
            handle.write(data)


class Game:
    """One script being played on one simulated board."""

    def __init__(
        self,
        script,
        board_name="sim",
        rests=True,
        latency=None,
        capture=None,
        filesystem=None,
        ready=False,
    ):
        """``filesystem``: the board's filesystem made from the flash folder (a function of
        it: ``sim.littlefs_flash.LittleFsFlash``, the real littlefs), the script's settings
        written into it; None: ``sim.flash``'s model over the folder. ``ready``: the chip
        board (``latency``) booted and its journal's ring prepared before the script's 0,
        which falls on its first tick a start may be taken at (``sim.ready``), and played
        and read as the real-port lane plays and reads its board (``run_to``, ``values``,
        ``end_values``)."""
        if ready and latency is None:
            raise ValueError("a ready board is a chip's: give it a latency level")
        self.script = script
        self.setup = (board_name, rests, latency, capture, filesystem)
        self.ready = ready
        wrap_at_ms = 0
        if ready and script.near_wrap:
            # The ticks are set at power-up to read 10 s before their wrap at the script's
            # 0: a first boot, its ticks from 0, tells when that is (the boot and its
            # preparation do not depend on the ticks' values).
            self.flash, self.board = self._booted(False, 0)
            try:
                wrap_at_ms = ready_module.ready_start_ms(self.board)
            finally:
                remove_flash(self.flash)
        self.flash, self.board = self._booted(script.near_wrap, wrap_at_ms)
        # Virtual time that is not the script's: the boot's preparation before the script's
        # 0 on a ready board, and the time the arbiter's key sequences took.
        self.offset_ms = 0
        if ready:
            self.offset_ms = ready_module.ready_start_ms(self.board)
            if self.offset_ms != wrap_at_ms and script.near_wrap:
                raise ready_module.NotReady(
                    "ready at %d ms after the boot, not at %d ms as the first boot was"
                    % (self.offset_ms, wrap_at_ms)
                )
        self.off_values = None  # while the power is off: the state line at the cut

    def _booted(self, near_wrap, wrap_at_ms):
        """A fresh flash with the script's settings, and the board booted on it."""
        script = self.script
        board_name, rests, latency, capture, filesystem = self.setup
        flash = fresh_flash(
            script.control_left, script.control_right, script.quickplay, script.edition
        )
        files = None
        if filesystem is not None:
            files = filesystem(flash)
            _copy_settings(flash, files)
        board = SimBoard(
            flash,
            script.bounce_ms,
            near_wrap,
            board_name,
            rests,
            latency,
            flash=files,
            capture=capture,  # by name: SimBoard's ring_blocks comes before them
            wrap_at_ms=wrap_at_ms,
        )
        board.boot()
        return flash, board

    def run_to(self, script_ms):
        """Advance to script time ``script_ms``, and bring the board up to that instant
        with a pass of its main loop: before every statement alike, so the stepping
        never depends on which statements print.

        On a ready chip board (``ready``: played as the real-port lane plays its board)
        the board runs up to just before the instant and makes no pass of its own: what
        the statement moves (a press) is there for the pass of that instant, as on the
        chip, whose pass woken at a tick reads the edges stamped at it, instead of one
        that the tick's own frames hold back; a read (``values``) makes no pass either,
        so reading changes nothing the chip does."""
        board = self.board
        at_ms = script_ms + self.offset_ms
        if not self.ready:
            board.run_due(at_ms)
            board.settle()
        elif vclock.now_ms() < at_ms:
            board.run_due(at_ms - 1)
            vclock.set_now(at_ms)

    def close(self):
        remove_flash(self.flash)

    def end_values(self):
        """The state line's fields at the script's end (``values``). On a ready chip board
        read as the real-port lane reads its board (tools/port/play_plan.mjs): the
        displays as the passes woken within a tick of the grid after the end left them
        (one held in the chip's C calls at their end), the clock's fields after them, its
        times and stages at the end's tick."""
        board = self.board
        if not self.ready or not board.powered:
            return self.values()
        end = vclock.now_ms()
        tick = vclock.ticks_ms()
        board.run_due(end + board.app.hardware.ticker.period_ms - 1)
        values = self.values(settle=False, tick=tick)
        return [("at", end - self.offset_ms)] + values[1:]

    def values(self, settle=True, tick=None):
        """The state line's fields, in order, as (name, value) pairs, at the current
        instant: with ``settle``, after a pass of the main loop at this instant unless
        one has run (``SimBoard.settle``), so reading twice changes nothing. On a ready
        chip board a read makes no pass of its own: the board is as the passes it made
        up to this instant left it (``run_to``). ``tick``: the tick the times and stages
        are read at (None: now's).

        While the power is off: ``state=off``, ``running=none``, the displays as
        they are (dark), and every other field as it stood at the cut.
        """
        board = self.board
        if not board.powered:
            values = []
            for name, value in self.off_values:
                if name == "at":
                    value = vclock.now_ms() - self.offset_ms
                elif name == "display":
                    value = board.display_text()
                values.append((name, value))
            return values
        if self.ready:
            board.run_due(vclock.now_ms())  # the passes the board makes at this instant
        elif settle:
            board.settle()
        clock = board.app.clock
        claims = board.app.claims
        if tick is None:
            tick = vclock.ticks_ms()
        state = engine.STATE_NAMES[clock.state]
        if claims.state == "open" and clock.state == engine.PAUSED:
            state = "claim"
        return [
            ("at", vclock.now_ms() - self.offset_ms),
            ("state", state),
            ("left", clock.shown_ms(0, tick)),
            ("right", clock.shown_ms(1, tick)),
            ("running", _side(clock.running())),
            ("white", _side(clock.white)),
            ("moves", str(clock.moves())),
            ("left_stage", clock.stage(0, tick)),
            ("right_stage", clock.stage(1, tick)),
            ("flag", _flag_field(clock)),
            ("first_flag", _side(clock.first_flag)),
            ("claim", claims.field()),
            ("result", claims.result),
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
        if action == "power":
            self.power(arguments[0] == "on")
            return
        if action == "unplug":
            board.unplug(SIDE_NAMES.index(arguments[0]))
            return
        if action == "plug":
            board.plug(SIDE_NAMES.index(arguments[0]))
            return
        if action == "brownout":
            board.brownout(SIDE_NAMES.index(arguments[0]))
            return
        if not board.powered:
            if action in ("press", "key", "hold"):  # the contact moves; nothing reads it
                name = "lever_" + arguments[0] if action == "press" else arguments[0]
                board.press(name, arguments[1] if action == "hold" else PRESS_CONTACT_MS)
            return
        clock = board.app.clock
        if action == "press":
            board.press("lever_" + arguments[0])
        elif action == "pause":
            if clock.state == engine.RUNNING:
                board.press("play")
        elif action == "resume":
            if clock.state == engine.PAUSED:
                if board.app.arbiter.screen not in (arbiter.IDLE, arbiter.MESSAGE):
                    self.arbiter_sequence_keys(
                        "resume", [("play", PRESS_CONTACT_MS)]
                    )  # leave the screen first
                board.press("play")
        elif action == "key":
            board.press(arguments[0])
        elif action == "hold":
            board.press(arguments[0], arguments[1])
        elif action in ("claim", "decide", "add", "setmoves"):
            self.arbiter_sequence(action, arguments)

    def power(self, on):
        """``power off``: the state line freezes at the cut (the board has run up to
        this instant and no further); ``power on``: boot again."""
        board = self.board
        if on:
            board.power_on()
            self.off_values = None
            return
        values = []
        for name, value in self.values(settle=False):
            if name == "state":
                value = "off"
            elif name == "running":
                value = "none"
            values.append((name, value))
        self.off_values = values
        board.power_off()

    def arbiter_sequence(self, action, arguments):
        """Carry out an arbiter statement by its documented key sequence (docs/arbiter.md).

        The keys are pressed at 0.4 s a press, a long press held 2.1 s; the time
        this takes is left out of script time (the clock is paused meanwhile).
        """
        problem = arbiter_precondition(self.board.app, action)
        if problem is not None:
            raise NotApplied("%s: %s" % (action, problem))
        self.arbiter_sequence_keys(action, arbiter_keys(self.board.app, action, arguments))

    def arbiter_sequence_keys(self, action, keys):
        """Press ``keys`` for ``action`` as ``arbiter_sequence`` does, out of script
        time, each checked against the screen it must reach."""
        board = self.board
        start = vclock.now_ms()
        try:
            for step in range(len(keys)):
                name, hold_ms = keys[step]
                before = _screen_mark(board.app)
                board.press(name, hold_ms)
                board.run_due(vclock.now_ms() + hold_ms + PRESS_GAP_MS)
                problem = check_step(board.app, keys, step, before)
                if problem is not None:
                    raise NotApplied(
                        '%s: %s (the clock showed "%s")' % (action, problem, board.display_text())
                    )
        finally:
            self.offset_ms += vclock.now_ms() - start

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


def arbiter_precondition(app, action):
    """Why an arbiter statement cannot apply now (docs/spec/scripts.md), or None."""
    state = app.clock.state
    if state != engine.PAUSED:
        return _STATE_PROBLEMS[state]
    if action == "decide" and app.claims.state not in ("open", "postponed"):
        return "no claim is open"
    return None


def _screen_mark(app):
    """What tells whether a key reached the arbiter: the clock's change count, the
    screen, its message, the log."""
    return (app.clock.changes, app.arbiter.screen, _message_until(app), len(app.claims.log))


def _message_until(app):
    """Until when the arbiter's (last) message shows."""
    return app.arbiter.message_until


def check_step(app, keys, step, before):
    """What went wrong with key ``step`` of an arbiter's sequence, or None.

    The clock never runs again during a sequence; the long press that starts it
    opens its screen; every key but the last leaves a screen of the procedure
    up; the last one leaves it (the procedure done) or shows the clock's own
    refusal, a message the key itself brought up.
    """
    name, hold_ms = keys[step]
    screen = app.arbiter.screen
    fresh_message = screen == arbiter.MESSAGE and (
        before[0] != app.clock.changes or before[2] != _message_until(app)
    )
    acted = before[0] != app.clock.changes or len(app.claims.log) != before[3]
    if app.clock.state == engine.RUNNING:
        return "the %s key let the clock run" % name
    if app.menu.active():
        return "the %s key opened the setup menu" % name
    last = step == len(keys) - 1
    if hold_ms >= LONG_PRESS_MS:  # a long press opens its procedure's screen
        if screen in _OPEN_SCREENS.get(name, ()) and (screen != arbiter.MESSAGE or fresh_message):
            return None
        if last and (acted or fresh_message):
            return None  # a claim that ended the game or was granted at once
        return "the long press of %s did not open %s" % (name, OPENS.get(name, "a procedure"))
    if not last:
        if screen == arbiter.IDLE or (screen == arbiter.MESSAGE and not fresh_message):
            return "the %s key left the procedure before its end" % name
        return None
    if screen == arbiter.IDLE or fresh_message:
        return None
    return "the %s key did not finish the procedure" % name


def arbiter_keys(app, action, arguments):
    """The key presses, as (key name, hold ms), that carry out an arbiter statement."""
    if action == "claim":
        claims = app.claims
        if claims.pending() and claims.claimant != app.clock.mover:
            # the pending claim's ruling, then the other player's claim in turn
            return [("plus", LONG_HOLD_MS), ("plus", LONG_HOLD_MS)]
        return [("plus", LONG_HOLD_MS)]
    if action == "decide":
        claims = app.claims
        postponed = claims.state == "postponed"
        keys = []
        if app.arbiter.screen != arbiter.RULING and claims.pending():
            keys = [("plus", LONG_HOLD_MS)]  # back to the ruling on the open or postponed claim
        offered = claims_module.outcomes(claims.quickplay, postponed)
        if arguments[0] not in offered:
            keys.append(("play", PRESS_CONTACT_MS))  # not offered here: leave without a ruling
            return keys
        steps = offered.index(arguments[0])
        if steps <= len(offered) - steps:
            keys += [("plus", PRESS_CONTACT_MS)] * steps
        else:  # the list wraps round: back from the first is shorter
            keys += [("minus", PRESS_CONTACT_MS)] * (len(offered) - steps)
        keys.append(("set", PRESS_CONTACT_MS))
        return keys
    if action == "add":
        side, amount = arguments
        keys = [("set", LONG_HOLD_MS), ("lever_" + side, PRESS_CONTACT_MS)]
        key = "plus" if amount >= 0 else "minus"
        left = abs(amount)
        for unit in arbiter.UNITS_MS:
            keys += [(key, PRESS_CONTACT_MS)] * (left // unit)
            left %= unit
            if not left:
                break
            keys.append(("set", PRESS_CONTACT_MS))  # on to the next, smaller unit
        keys.append(("play", PRESS_CONTACT_MS))
        return keys
    if action == "setmoves":
        wanted = arguments[0]
        current = app.clock.moves()
        key = "plus" if wanted >= current else "minus"
        apply = "set" if len(arguments) > 1 else "play"  # set: with the periods' times
        return (
            [("minus", LONG_HOLD_MS)]
            + [(key, PRESS_CONTACT_MS)] * abs(wanted - current)
            + [(apply, PRESS_CONTACT_MS)]
        )
    raise ValueError("no key sequence for %r" % action)


def _describe(field, wanted, tolerance):
    if field in script_module.TIME_FIELDS:
        text = timecontrol.describe_ms(wanted) if field != "at" else _seconds_text(wanted)
        if tolerance:
            text += "~" + _seconds_text(tolerance)
        return "%s=%s" % (field, text)
    if field == "display":
        return '%s="%s"' % (field, wanted)
    return "%s=%s" % (field, wanted)


class Player:
    """Plays a parsed script's statements on a ``Game``, in time order.

    Before each statement the board runs up to its instant, with one pass of
    the main loop there (``Game.run_to``); an ``expect`` is checked, a
    ``show`` read, any other statement acted. The runner, the live session
    (``--script``) and the manuals' pictures all play scripts through this
    one loop; what each does with a failed ``expect``, a ``show`` and a
    statement that cannot apply is its own (the methods below, to override).
    """

    def __init__(self, game):
        self.game = game
        self.finished = False  # every statement played (none stopped the play)

    def play(self, statements):
        """Play ``statements``; return 0 (every expect held), 1 (one failed, or a
        statement could not apply: play stops there) or 2 (a statement is invalid
        where it stands: play stops there)."""
        game = self.game
        status = 0
        for number, time_ms, action, arguments in statements:
            game.run_to(time_ms)
            if action == "expect":
                failed = game.failures(arguments)
                if failed:
                    status = 1
                    self.expect_failed(number, failed)
            elif action == "show":
                self.show(number)
            else:
                try:
                    game.act(action, arguments)
                except ValueError as error:
                    self.stopped(number, error)
                    return 2
                except NotApplied as problem:
                    self.stopped(number, problem)
                    return 1
        self.finished = True
        return status

    def expect_failed(self, number, failed):
        """The ``expect`` of line ``number`` did not hold: ``failed`` lists
        (field, wanted, tolerance) of the fields that differ."""

    def show(self, number):
        """A ``show`` statement at line ``number``."""

    def stopped(self, number, problem):
        """The statement of line ``number`` could not apply; play stops here."""


class ReportingPlayer(Player):
    """The runner's player: every failure and ``show`` as the lines of
    docs/spec/scripts.md, to ``out``."""

    def __init__(self, game, path, out):
        Player.__init__(self, game)
        self.path = path
        self.out = out

    def expect_failed(self, number, failed):
        wanted = " ".join(_describe(*item) for item in failed)
        self.out("%s:%d: expect failed: %s" % (self.path, number, wanted))
        self.out("  actual: " + self.game.state_line())

    def show(self, number):
        self.out(self.game.state_line())

    def stopped(self, number, problem):
        self.out("%s:%d: %s" % (self.path, number, problem))
        if isinstance(problem, NotApplied):
            self.out("  actual: " + self.game.state_line())


def run_script(
    path, text, out, rests=True, latency=None, player_class=None, capture=None, ready=False
):
    """Run one script's bytes (or text); return its exit status. With ``rests=False``
    the clock runs a step at every tick (``SimBoard``); with ``latency`` ("typical" or
    "max") the board is the Pico whose wiring the `sim` board copies, its chip's
    latencies and its journal's ring and all (``sim.latency``); with ``ready`` as well,
    booted and its ring prepared before the script's 0 (``sim.ready``). ``player_class``:
    a ``ReportingPlayer`` of the caller's (the tests' observing one), else that one.
    ``capture=False``: the levers stamped by their pin handler alone, not the chip's PIO."""
    try:
        script = script_module.parse(text)
    except script_module.ScriptError as error:
        out("%s:%d: %s" % (path, error.line, error.message))
        return 2
    try:
        game = Game(script, "pico" if latency else "sim", rests, latency, capture, ready=ready)
    except ready_module.NotReady as problem:
        out("%s: the board is not ready: %s" % (path, problem))
        return 1
    try:
        player = (player_class or ReportingPlayer)(game, path, out)
        status = player.play(script.statements)
        if player.finished:
            out("%s: end: %s" % (path, game.state_line(game.end_values())))
    finally:
        game.close()
    return status


def run_files(paths, out=print, rests=True, latency=None, player_class=None, ready=False):
    """Run every script in ``paths``; return the worst exit status. ``ready``: only with
    ``latency`` (``run_script``)."""
    if ready and latency is None:
        out("%s takes a latency level: %sLEVEL" % (READY, LATENCY))
        return 2
    worst = 0
    for path in paths:
        try:
            with open(path, "rb") as handle:  # bytes: sim.script reads them alike on both lanes
                text = handle.read(script_module.MAX_BYTES + 1)
        except OSError as error:
            out("%s: cannot read: %s" % (path, error))
            worst = 2
            continue
        status = run_script(path, text, out, rests, latency, player_class, ready=ready)
        if status > worst:
            worst = status
    return worst


def main(argv):
    """Entry point of the MicroPython lane: ``argv`` is the list of script files, after
    ``--every-tick`` if the clock is to run a step at every tick, ``--latency=typical``
    or ``--latency=max`` if the board is to be its chip, and ``--ready`` if that chip
    is to be booted and its ring prepared before the scripts' 0."""
    rests = True
    latency = None
    ready = False
    files = []
    for argument in argv:
        if argument == EVERY_TICK:
            rests = False
        elif argument.startswith(LATENCY):
            latency = argument[len(LATENCY) :]
        elif argument == READY:
            ready = True
        else:
            files.append(argument)
    return run_files(files, rests=rests, latency=latency, ready=ready)
