"""A live session on the simulated board: real time, the player's hands, and its record.

``LiveSession`` boots the firmware through the scenario runner's ``Game``
(so through ``hal.boot.start`` on a ``SimBoard``), can first play a
clock script in virtual time, and then follows a wall clock: virtual time is
the wall time since going live, times ``speed``. The window and the terminal
only call ``advance`` (fire every contact transition and timer tick due by
now), ``down``/``up`` (a contact closes / opens: a press lasts exactly as long
as the hand holds it) and ``tap`` (a press of the runner's 80 ms), and read
the chips' display RAM.

Every press is kept as a line of a clock script at the virtual instant its
contact closed, so that ``script_text()`` replays the session exactly through
``python -m sim run``. For that, a live press and its replay put the same
transitions at the same instants in the same order: a contact closes after
the timer ticks of its instant (as ``at T`` runs up to T, then presses), and
opens before them, at a millisecond where no other contact is moving.
"""

import time

from firmware import engine
from sim import machine as sim_machine
from sim import script as script_module
from sim import vclock
from sim.runner import Game, Player
from sim.world import PRESS_CONTACT_MS

LEVER_SIDES = {"lever_left": "left", "lever_right": "right"}
RECORDED_BY = "# Recorded by python -m live"


def seconds_text(ms):
    """Milliseconds as script seconds, ``S.fff``."""
    return "%d.%03d" % (ms // 1000, ms % 1000)


def press_statement(name, held_ms):
    """The clock-script action of a press of ``name`` held ``held_ms``."""
    if held_ms == PRESS_CONTACT_MS:
        if name in LEVER_SIDES:
            return "press " + LEVER_SIDES[name]
        return "key " + name
    return "hold %s %s" % (name, seconds_text(held_ms))


class _SessionPlayer(Player):
    """The starting script's player: a failed ``expect`` or a statement that cannot
    apply is one line to ``out``, with the state line there."""

    def __init__(self, game, out):
        Player.__init__(self, game)
        self.out = out

    def expect_failed(self, number, failed):
        self.out("line %d: expect failed; actual: %s" % (number, self.game.state_line()))

    def show(self, number):
        self.out(self.game.state_line())

    def stopped(self, number, problem):
        self.out("line %d: %s; actual: %s" % (number, problem, self.game.state_line()))


class LiveSession:
    """The clock on the simulated board, following a wall clock from ``go_live()``."""

    def __init__(self, script_text, board_name="sim", speed=1, clock=None, hall_file=None):
        if not speed > 0:
            raise ValueError("the speed factor must be above 0, got %r" % (speed,))
        self.script_text = script_text
        self.script = script_module.parse(script_text)  # ScriptError if malformed
        self.board_name = board_name
        self.speed = speed
        self.clock = clock or time.monotonic  # MicroPython's time has none: the page's own
        self.game = Game(self.script, board_name)
        self.held = {}  # name -> (virtual ms its contact closed, order of the press)
        self.presses = []  # (virtual ms, order, statement) of the live presses
        self.order = 0
        self.origin_wall = None
        self.origin_ms = 0
        self.end_values = None
        if hall_file is not None:
            self._join_hall(hall_file)

    @property
    def board(self):
        return self.game.board

    def _join_hall(self, hall_file):
        """Put the hall file on the simulated flash and power the board up again with it:
        a board with a network then joins the hall (docs/hall.md)."""
        from sim import network

        with open(hall_file, "rb") as handle:
            data = handle.read()
        network.install()
        with open(self.game.flash + "/hall.json", "wb") as handle:
            handle.write(data)
        self.board.power_off()
        self.board.power_on()

    def poll_hall(self):
        """The hall link's turn between passes, as the board's main loop gives it."""
        app = self.board.app
        link = getattr(app, "hall", None) if app is not None else None
        if link is not None:
            link.poll(app, vclock.ticks_ms())
            while link.writing():  # the loop does not idle while a message is part written
                link.poll(app, vclock.ticks_ms())

    # --- the script the session starts from --------------------------------

    def play_script(self, out):
        """Play the script's statements in virtual time; return 1 if an ``expect`` failed
        or a statement could not apply (play stops there, as the runner does)."""
        return _SessionPlayer(self.game, out).play(self.script.statements)

    # --- time --------------------------------------------------------------

    def go_live(self):
        """From now on, virtual time follows the wall clock."""
        self.origin_wall = self.clock()
        self.origin_ms = vclock.now_ms()

    def wall_ms(self):
        """Virtual ms the wall clock has reached (never behind virtual time)."""
        elapsed = (self.clock() - self.origin_wall) * 1000 * self.speed
        return max(self.origin_ms + round(elapsed), vclock.now_ms())

    def advance(self):
        """Fire everything due before the wall clock's millisecond; return the ms reached.

        The current millisecond stays open, so a contact that opens now still
        opens before that instant's timer tick, as it does in a replay.
        """
        reached = max(self.wall_ms() - 1, vclock.now_ms())
        self._let_go_long_holds(reached)
        self.board.run_due(reached)
        self.poll_hall()
        return reached

    def ms_to_next(self):
        """Virtual ms until the next timer tick or contact transition (None: nothing)."""
        due = []
        for timer in sim_machine.timers():
            if timer.next_due is not None:
                due.append(timer.next_due)
        if self.board.pending:
            due.append(self.board.pending[0][0])
        if not due:
            return None
        return max(0, min(due) - vclock.now_ms())

    # --- hands -------------------------------------------------------------

    def down(self, name):
        """The contact ``name`` closes now and stays closed until ``up(name)``."""
        if name in self.held:
            return
        self.board.pin_of(name)  # ValueError for a key the board lacks
        now = self.wall_ms()
        self.board.run_due(now)  # a contact closes after the timer ticks of its instant
        self.board.close_contact(name, now)
        self.board.run_due(now)
        self.order += 1
        self.held[name] = (now, self.order)

    def up(self, name):
        """The contact ``name`` opens: now, or 80 ms after it closed if that is later."""
        self._let_go_long_holds(self.wall_ms() - 1)
        if name not in self.held:
            return
        closed_ms, order = self.held.pop(name)
        board = self.board
        now = self.wall_ms()
        if now > vclock.now_ms():
            board.run_due(now - 1)  # the contact opens before the timer ticks of its instant
        release = max(
            now, vclock.now_ms() + 1, closed_ms + PRESS_CONTACT_MS, closed_ms + board.bounce_ms + 1
        )
        while self._contact_moving(release, release + board.bounce_ms):
            release += 1
        board.open_contact(name, release)
        statement = press_statement(name, release - closed_ms)
        self.presses.append((closed_ms, order, statement))

    def _let_go_long_holds(self, reached):
        """A contact held ``script.MAX_HOLD_MS`` (the longest ``hold`` a script can
        say) by ``reached`` opens at that instant by itself, so that whatever the
        session records replays, at any ``speed``."""
        for name in list(self.held):
            closed_ms, order = self.held[name]
            release = closed_ms + script_module.MAX_HOLD_MS
            if release > reached:
                continue
            del self.held[name]
            while self._contact_moving(release, release + self.board.bounce_ms):
                release -= 1
            self.board.run_due(release - 1)  # it opens before the timer ticks of its instant
            self.board.open_contact(name, release)
            self.presses.append((closed_ms, order, press_statement(name, release - closed_ms)))

    def tap(self, name):
        """A press of the runner's 80 ms (what ``key NAME`` and ``press SIDE`` do)."""
        self.down(name)
        self.up(name)

    def can_cut_power(self):
        return hasattr(self.board, "power_off")

    def toggle_power(self):
        """Cut the power now, or restore it (the firmware boots again from flash)."""
        now = self.wall_ms()
        self.board.run_due(now)
        statement = "power on" if not self.board.powered else "power off"
        self.game.act("power", statement.split()[1:])
        self.order += 1
        self.presses.append((now, self.order, statement))

    def release_all(self):
        for name in list(self.held):
            self.up(name)

    def _contact_moving(self, first_ms, last_ms):
        for entry in self.board.pending:
            if first_ms <= entry[0] <= last_ms:
                return True
        return False

    # --- what the clock shows ------------------------------------------------

    def status(self):
        """State name, move count and claim of the clock, read without touching it."""
        app = self.board.app
        if app is None:
            return "power off"
        state = engine.STATE_NAMES[app.clock.state]
        claim = app.claims.field()
        return "%s  moves %d%s" % (
            state,
            app.clock.moves(),
            "" if claim == "none" else "  " + claim,
        )

    def buzzer_sounding(self):
        pin = getattr(self.board.board, "BUZZER_PIN", None)
        pwm = sim_machine.pwm_of(pin) if pin is not None else None
        return pwm is not None and pwm.active and pwm.duty > 0 and pwm.frequency > 0

    def leds(self):
        """The running-side LEDs (left, right): True lit, False dark, None absent."""
        board = self.board.board
        lit = []
        for name in ("LED_LEFT", "LED_RIGHT"):
            pin = getattr(board, name, None)
            lit.append(None if pin is None else sim_machine.pin_level(pin) == 1)
        return lit

    # --- the record --------------------------------------------------------

    def finish(self):
        """Release every held key and run until the last contact settles; the end state line."""
        self.release_all()
        last = self.wall_ms()
        for entry in self.board.pending:
            last = max(last, entry[0])
        self.board.run_due(last)
        self.end_values = self.game.values()
        return self.game.state_line(self.end_values)

    def script_text_recorded(self, note=""):
        """The session as a clock script: the starting script, the presses, the end state.

        Call after ``finish()``; its last line expects every field of the end state line.
        """
        offset = self.game.offset_ms
        lines = [self.script_text.rstrip("\n"), ""]
        lines.append(RECORDED_BY + (": " + note if note else ""))
        for closed_ms, _, statement in sorted(self.presses):
            lines.append("at %s %s" % (seconds_text(closed_ms - offset), statement))
        end = vclock.now_ms() - offset
        line = self.game.state_line(self.end_values)
        lines.append("at %s expect %s" % (seconds_text(end), line))
        return "\n".join(lines) + "\n"

    def close(self):
        self.game.close()


def header_text(control, board_name):
    """The header of a session started from a time control alone."""
    lines = ["control " + control]
    if board_name != "sim":
        lines.append("# board %s; scripts replay on the sim board's wiring" % board_name)
    return "\n".join(lines) + "\n"
