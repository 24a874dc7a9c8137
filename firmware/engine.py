"""The timing engine: what each side is charged, given, and when its flag falls.

Implements the semantics of docs/spec/timing.md in integer milliseconds. Every method
takes ``now``, a millisecond tick value (wrapping, see ``firmware.tickmath``);
the engine never reads a clock. Side 0 is the left clock, side 1 the right.

The engine keeps the game's state machine (the side to move, the turn's
time, pauses, flags, the freeze); what a turn costs and shows under a timing
method is the side's own answer (``firmware.timing``, one class per method).
The engine and the sides own their state: other modules read ``Clock`` and
side fields but change them only through the operations here (``configure``,
``press``, ``pause``, ``add_time``, ``finish``, ``switch_controls``,
``set_moves``, ``restore``…), each of which bumps ``Clock.changes`` when it
changes the game, so the journal notices a change by comparing one number
(tests/test_ownership.py keeps it so).
"""

from micropython import const

from firmware.tickmath import ticks_add, ticks_diff
from firmware.timing import method_of

SETUP = const(0)
RUNNING = const(1)
PAUSED = const(2)
OVER = const(3)

NOBODY = const(-1)
# What a stage's name starts with (``Clock.stage_code``): a period, byo-yomi, Canadian.
STAGE_PREFIXES = ("", "byo", "can")

STATE_NAMES = ("setup", "running", "paused", "over")


class Clock:
    """Both clocks, the side to move, pauses, flags and the freeze."""

    def __init__(self, left_control, right_control=None):
        if right_control is None:
            right_control = left_control
        self.changes = 0  # bumped by every operation that changes the game
        self.configure(left_control, right_control)

    def configure(self, left_control, right_control):
        """New controls (the settings changed): a new game with them, each side
        a clock of its control's timing method (``firmware.timing``)."""
        self.sides = (
            method_of(left_control)(left_control),
            method_of(right_control)(right_control),
        )
        self.new_game()

    def new_game(self):
        """Both sides back to the start of their controls, nobody to move."""
        for side in self.sides:
            side.reset()
        self.state = SETUP
        self.mover = NOBODY
        self.white = NOBODY
        self.first_flag = NOBODY
        self.turn_start = 0  # tick at which the current run of the turn began
        self.turn_used = 0  # ms of the turn used before that run (pauses)
        self.changes += 1

    def restore(self, state, mover, white, first_flag, turn_used):
        """Take back a journalled game (the sides through ``Side.restore``): a
        clock that was running comes back paused, the turn having used
        ``turn_used``."""
        self.state = PAUSED if state == RUNNING else state
        self.mover = mover
        self.white = white
        self.first_flag = first_flag
        self.turn_used = turn_used
        self.turn_start = 0
        self.changes += 1

    # --- reading ---------------------------------------------------------

    def elapsed(self, now):
        """Running time of the current turn, pauses excluded."""
        if self.state == RUNNING:
            return self.turn_used + ticks_diff(now, self.turn_start)
        return self.turn_used

    def in_turn(self):
        return self.state == RUNNING or self.state == PAUSED

    def shown_ms(self, index, now):
        """The remaining time side ``index`` shows at ``now``."""
        side = self.sides[index]
        if not self.in_turn():
            return side.settled_ms()
        if index != self.mover:  # its time moves only if the mover's goes to it
            return side.waiting_ms(self.elapsed(now)) if side.SHARES_TIME else side.settled_ms()
        if side.flagged and not side.can_flag:
            return 0
        return side.shown_ms(self.elapsed(now))

    def stage(self, index, now):
        """The period a side is in: ``"1"``, ``"2"``…, ``"byoN"`` or ``"canM"``."""
        code = self.stage_code(index, now)
        return STAGE_PREFIXES[code & 3] + str(code >> 2)

    def stage_code(self, index, now):
        """``stage`` as one number, allocating nothing (the hall message writes it):
        the stage's number times 4 plus its prefix's index in ``STAGE_PREFIXES``."""
        side = self.sides[index]
        running = index == self.mover and self.in_turn() and not side.flagged
        return side.stage_code(running, self.elapsed(now) if running else 0)

    def delay_left(self, now):
        """The ms of the running side's simple delay still to run (0: none, or over)."""
        if self.state != RUNNING:
            return 0
        side = self.sides[self.mover]
        if side.flagged and not side.can_flag:
            return 0
        return side.delay_left(self.elapsed(now))

    def in_delay(self, now):
        """True while the running side is still inside its simple delay."""
        return self.delay_left(now) > 0

    def moves(self):
        """The move counter: moves completed by White."""
        if self.white == NOBODY:
            return 0
        return self.sides[self.white].moves

    def running(self):
        return self.mover if self.state == RUNNING else NOBODY

    # --- events ----------------------------------------------------------

    def update(self, now):
        """Let the running side's flag fall if its time has run out by ``now``."""
        if self.state != RUNNING:
            return
        side = self.sides[self.mover]
        if not side.can_flag:
            return
        limit = side.flag_elapsed()
        if self.elapsed(now) >= limit:
            self._flag(side, limit)

    def _flag(self, side, limit):
        self.changes += 1
        if self.first_flag == NOBODY:
            self.first_flag = self.mover
        if side.flag(limit, self.sides[1 - self.mover]):  # the clocks freeze: the game is over
            self.turn_used = 0
            self.turn_start = ticks_add(self.turn_start, limit)
            self.state = OVER

    def press(self, index, now):
        """A lever press on side ``index`` at tick ``now``; True if it changed the clock.
        A press stamped before the run of the turn began (``not_before_turn``) counts
        from that start: a move is never charged less than what the turn used before."""
        if self.state == SETUP:
            self.white = 1 - index
            self.state = RUNNING
        else:
            if self.state != RUNNING or index != self.mover:
                return False
            now = self.not_before_turn(now)
            self.update(now)
            if self.state != RUNNING:
                return False
            self.sides[index].complete_move(self.elapsed(now), self.sides[1 - index])
        self.mover = 1 - index
        self.turn_start = now
        self.turn_used = 0
        self.changes += 1
        return True

    def switch_controls(self, mode, bonus_ms, now):
        """A G.4 grant: both sides play every period still to come with ``mode``
        (``tc.FISCHER`` or ``tc.DELAY``) of ``bonus_ms``; the periods and their
        times stay. The move in progress starts again in the new mode: with the
        increment the side to move gets it at once, with the delay a fresh delay
        runs when play resumes."""
        shown = self.shown_ms(self.mover, now)
        self.turn_used = 0
        for side in self.sides:
            side.grant(mode, bonus_ms)
        self.sides[self.mover].restart_granted(shown)
        self.changes += 1

    def add_time(self, index, delta_ms, now):
        """Side ``index`` gets ``delta_ms`` more (negative: less) of its own time:
        in byo-yomi, of the period or block it is in (for the side to move the
        turn so far is charged first, the move not completed), the periods to
        come keeping their length; main time brought to zero starts the
        byo-yomi. The checks and the flag are the caller's (``firmware.claims``)."""
        side = self.sides[index]
        if index == self.mover and self.in_turn() and side.can_flag:
            if side.settle_turn(self.elapsed(now)):
                self.turn_used = 0
        side.add_ms(delta_ms)
        self.changes += 1

    def set_moves(self, white_moves):
        """Correct the move counter (Laws 6.10.2; paused or not started); False,
        changing nothing, if it cannot be.

        White has completed ``white_moves``; Black as many if White is to move,
        else one fewer. Each side's period becomes the one its next move belongs
        to; no time is added or taken by the correction itself: the side to move
        shows what it showed, its turn charged from here on as the new period
        charges (a delay the new period has or lacks hands over no time). A flag
        that fell in the last period no longer stops the periods once the
        correction leaves that period. In a Canadian block the moves left follow
        the corrected count, at least one and at most the block's count."""
        if self.white == NOBODY or white_moves < 0:
            return False
        black = 1 - self.white
        black_moves = white_moves if self.mover == self.white else white_moves - 1
        if black_moves < 0:
            return False
        for index, moves in ((self.white, white_moves), (black, black_moves)):
            side = self.sides[index]
            turn = index == self.mover and side.can_flag  # its time still counts
            side.set_moves(moves, self.turn_used if turn else 0)
        self.changes += 1
        return True

    def finish(self, now):
        """End the game at ``now`` without a flag (a draw, a G.6 claim): the
        clocks freeze at the times they show, the turn used up."""
        self.sides[self.mover].settle(self.shown_ms(self.mover, now))
        self.turn_used = 0
        self.state = OVER
        self.changes += 1

    def flag_at_zero(self, index):
        """An arbiter's correction left side ``index`` at 0:00.000: its flag has
        fallen, as when its time runs out (it stays at zero until time is given)."""
        if index == self.mover:
            self.turn_used = 0
        self.sides[index].flag_at_zero()
        if self.first_flag == NOBODY:
            self.first_flag = index
        self.changes += 1

    def clear_flag(self, index):
        """An arbiter's correction gave flagged side ``index`` time again: its flag
        is no longer shown (the event log keeps that it fell)."""
        self.sides[index].clear_flag()
        if self.first_flag == index:
            other = 1 - index
            self.first_flag = other if self.sides[other].flagged else NOBODY
        self.changes += 1

    def not_before_turn(self, now):
        """``now``, or the tick the running turn's run began if ``now`` is before it: the
        floor of every charge. The hardware acts on the inputs in the order of their
        stamps (hal.edges), so this holds only a stamp the hardware could not order."""
        if ticks_diff(now, self.turn_start) < 0:
            return self.turn_start
        return now

    def pause(self, now):
        """Stop both clocks; the turn keeps what it used so far (never less: a pause
        stamped before the run began is taken at its start)."""
        if self.state != RUNNING:
            return False
        now = self.not_before_turn(now)
        self.update(now)
        if self.state != RUNNING:
            return False
        self.turn_used = self.elapsed(now)
        self.state = PAUSED
        self.changes += 1
        return True

    def resume(self, now):
        """Continue with the same side to move."""
        if self.state != PAUSED:
            return False
        self.turn_start = now
        self.state = RUNNING
        self.changes += 1
        return True
