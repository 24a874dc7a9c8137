"""The timing engine: what each side is charged, given, and when its flag falls.

Implements the semantics of docs/spec/timing.md in integer milliseconds. Every method
takes ``now``, a millisecond tick value (wrapping, see ``firmware.tickmath``);
the engine never reads a clock. Side 0 is the left clock, side 1 the right.

The engine owns its state: other modules read ``Clock`` and ``Side`` fields
but change them only through the operations here (``configure``, ``press``,
``pause``, ``add_time``, ``finish``, ``switch_controls``, ``restore``…), each of
which bumps ``Clock.changes`` when it changes the game, so the journal
notices a change by comparing one number (tests/test_ownership.py keeps it so).
"""

from micropython import const

from firmware import timecontrol as tc
from firmware.tickmath import ticks_add, ticks_diff

SETUP = const(0)
RUNNING = const(1)
PAUSED = const(2)
OVER = const(3)

NOBODY = const(-1)
# What a stage's name starts with (``Clock.stage_code``): a period, byo-yomi, Canadian.
STAGE_PREFIXES = ("", "byo", "can")

STATE_NAMES = ("setup", "running", "paused", "over")


class Side:
    """One player's clock: settled remaining time, period, moves and flag."""

    def __init__(self, control):
        self.control = control
        self.reset()

    def reset(self):
        """Back to the start of the control (a new game)."""
        control = self.control
        self.remaining_ms = control.start_ms()  # main time for byo-yomi controls
        self.period = 0
        self.moves = 0
        self.flagged = False
        self.can_flag = True  # False once the flag fell and the time shown stays at zero
        self.final = False  # the flag fell in the last period: nothing is added any more
        self.byo_left = control.byo_count  # Japanese periods, Canadian moves left in the block
        self.block_ms = control.byo_ms  # the Canadian block's time left, the Japanese period's
        self.in_byo = control.kind in (tc.JAPANESE, tc.CANADIAN) and self.remaining_ms == 0
        self.added_mode = tc.NONE  # a G.4 grant's 5-second mode over every period (NONE: none)
        self.added_ms = 0

    def restore(self, fields, added_mode, added_ms):
        """Take back the state a journal entry kept: ``fields`` as
        ``firmware.journal.side_fields`` reads them (remaining ms, period, flag
        bits: flagged, can flag, final, in byo-yomi; moves, byo-yomi count,
        block ms), and a G.4 grant's mode (``tc.NONE``: none)."""
        (self.remaining_ms, self.period, flags, self.moves, self.byo_left, self.block_ms) = fields
        self.flagged = bool(flags & 1)
        self.can_flag = bool(flags & 2)
        self.final = bool(flags & 4)
        self.in_byo = bool(flags & 8)
        self.added_mode = added_mode
        self.added_ms = added_ms

    def period_mode(self):
        """The mode of the current period: the control's own, or the one a grant added."""
        if self.added_mode != tc.NONE:
            return self.added_mode
        return self.control.periods[self.period][2]

    def period_bonus_ms(self):
        """The increment or delay of the current period (see ``period_mode``)."""
        if self.added_mode != tc.NONE:
            return self.added_ms
        return self.control.periods[self.period][3]

    def settled_ms(self):
        """The time the side shows when its clock is not running."""
        kind = self.control.kind
        if not self.in_byo or kind == tc.STAGES or kind == tc.HOURGLASS:
            return self.remaining_ms
        if kind == tc.JAPANESE and self.byo_left == 0:
            return 0
        return self.block_ms


class Clock:
    """Both clocks, the side to move, pauses, flags and the freeze."""

    def __init__(self, left_control, right_control=None):
        if right_control is None:
            right_control = left_control
        self.changes = 0  # bumped by every operation that changes the game
        self.sides = (Side(left_control), Side(right_control))
        self.new_game()

    def configure(self, left_control, right_control):
        """New controls (the settings changed): a new game with them."""
        self.sides[0].control = left_control
        self.sides[1].control = right_control
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
        elapsed = self.elapsed(now)
        control = side.control
        kind = control.kind
        if index != self.mover:
            if kind == tc.HOURGLASS:
                return side.remaining_ms + elapsed
            return side.settled_ms()
        if side.flagged and not side.can_flag:
            return 0
        left = side.remaining_ms
        if kind == tc.STAGES:
            delay_ms = side.period_bonus_ms()
            if side.period_mode() != tc.DELAY:
                left -= elapsed
            elif elapsed > delay_ms:
                left -= elapsed - delay_ms
        elif kind == tc.HOURGLASS:
            left -= elapsed
        elif kind == tc.JAPANESE:
            if elapsed < left:
                return left - elapsed
            over = elapsed - left - side.block_ms  # past the current period
            if over < 0:
                return -over
            if over // control.byo_ms >= side.byo_left - 1:
                return 0
            return control.byo_ms - over % control.byo_ms
        elif side.in_byo:
            left = side.block_ms - elapsed
        elif elapsed >= left:
            left = control.byo_ms - (elapsed - left)
        else:
            left -= elapsed
        return left if left > 0 else 0

    def stage(self, index, now):
        """The period a side is in: ``"1"``, ``"2"``…, ``"byoN"`` or ``"canM"``."""
        code = self.stage_code(index, now)
        return STAGE_PREFIXES[code & 3] + str(code >> 2)

    def stage_code(self, index, now):
        """``stage`` as one number, allocating nothing (the hall message writes it):
        the stage's number times 4 plus its prefix's index in ``STAGE_PREFIXES``."""
        side = self.sides[index]
        control = side.control
        kind = control.kind
        if kind == tc.STAGES:
            return (side.period + 1) << 2
        if kind == tc.HOURGLASS:
            return 4
        running = index == self.mover and self.in_turn() and not side.flagged
        elapsed = self.elapsed(now) if running else 0
        if kind == tc.JAPANESE:
            if side.flagged:
                return 1
            if running and elapsed >= side.remaining_ms:
                over = elapsed - side.remaining_ms - side.block_ms
                left = side.byo_left - (0 if over < 0 else over // control.byo_ms + 1)
                return (left << 2) | 1
            return (side.byo_left << 2) | 1 if side.in_byo else 4
        if side.in_byo:
            return (side.byo_left << 2) | 2
        if running and elapsed >= side.remaining_ms:
            return (control.byo_count << 2) | 2
        return 4

    def in_delay(self, now):
        """True while the running side is still inside its simple delay."""
        if self.state != RUNNING:
            return False
        side = self.sides[self.mover]
        if side.control.kind != tc.STAGES or side.flagged and not side.can_flag:
            return False
        return side.period_mode() == tc.DELAY and self.elapsed(now) < side.period_bonus_ms()

    def moves(self):
        """The move counter: moves completed by White."""
        if self.white == NOBODY:
            return 0
        return self.sides[self.white].moves

    def running(self):
        return self.mover if self.state == RUNNING else NOBODY

    # --- events ----------------------------------------------------------

    def _flag_elapsed(self, side):
        """Elapsed turn time at which the mover's shown time reaches zero."""
        control = side.control
        kind = control.kind
        left = side.remaining_ms
        if kind == tc.STAGES:
            return left + side.period_bonus_ms() if side.period_mode() == tc.DELAY else left
        if kind == tc.JAPANESE:
            return left + side.block_ms + (side.byo_left - 1) * control.byo_ms
        if kind == tc.CANADIAN:
            return side.block_ms if side.in_byo else left + control.byo_ms
        return left

    def update(self, now):
        """Let the running side's flag fall if its time has run out by ``now``."""
        if self.state != RUNNING:
            return
        side = self.sides[self.mover]
        if not side.can_flag:
            return
        limit = self._flag_elapsed(side)
        if self.elapsed(now) >= limit:
            self._flag(side, limit)

    def _flag(self, side, limit):
        control = side.control
        self.changes += 1
        side.flagged = True
        side.can_flag = False
        last = control.kind != tc.STAGES or side.period == len(control.periods) - 1
        if last:
            side.final = True
        if self.first_flag == NOBODY:
            self.first_flag = self.mover
        freeze = control.kind == tc.HOURGLASS or (
            last and control.kind == tc.STAGES and side.period_mode() != tc.NONE
        )
        if freeze:
            if control.kind == tc.HOURGLASS:
                self.sides[1 - self.mover].remaining_ms += limit
            side.remaining_ms = 0
            self.turn_used = 0
            self.turn_start = ticks_add(self.turn_start, limit)
            self.state = OVER

    def press(self, index, now):
        """A lever press on side ``index`` at tick ``now``; True if it changed the clock."""
        if self.state == SETUP:
            self.white = 1 - index
            self.state = RUNNING
        else:
            if self.state != RUNNING or index != self.mover:
                return False
            self.update(now)
            if self.state != RUNNING:
                return False
            self._complete_move(index, self.elapsed(now))
        self.mover = 1 - index
        self.turn_start = now
        self.turn_used = 0
        self.changes += 1
        return True

    def _complete_move(self, index, elapsed):
        side = self.sides[index]
        control = side.control
        kind = control.kind
        side.moves += 1
        if kind == tc.STAGES:
            self._settle_stage(side, elapsed)
        elif kind == tc.HOURGLASS:
            side.remaining_ms -= elapsed
            self.sides[1 - index].remaining_ms += elapsed
        elif side.flagged:
            side.remaining_ms = 0
            side.byo_left = 0 if kind == tc.JAPANESE else side.byo_left
            side.block_ms = 0
        elif kind == tc.JAPANESE:
            if elapsed < side.remaining_ms:
                side.remaining_ms -= elapsed
            else:
                over = elapsed - side.remaining_ms - side.block_ms
                if over >= 0:
                    side.byo_left -= over // control.byo_ms + 1
                side.remaining_ms = 0
                side.block_ms = control.byo_ms  # every move's period starts whole
                side.in_byo = True
        else:
            self._settle_canadian(side, elapsed)

    def _settle_stage(self, side, elapsed):
        control = side.control
        mode = side.period_mode()
        bonus_ms = side.period_bonus_ms()
        if side.flagged and not side.can_flag:
            left = 0
        elif mode == tc.DELAY:
            left = side.remaining_ms - (elapsed - bonus_ms if elapsed > bonus_ms else 0)
        elif mode == tc.BRONSTEIN:
            left = side.remaining_ms - elapsed + (elapsed if elapsed < bonus_ms else bonus_ms)
        else:
            left = side.remaining_ms - elapsed
        if left < 0:
            left = 0
        if not side.final:
            last = len(control.periods) - 1
            if side.period < last and side.moves == control.cumulative[side.period]:
                side.period += 1
                left += control.periods[side.period][1]
            if side.period_mode() == tc.FISCHER:
                left += side.period_bonus_ms()
            if side.flagged:
                side.can_flag = left > 0
        side.remaining_ms = left

    def _settle_canadian(self, side, elapsed):
        control = side.control
        if side.in_byo:
            side.block_ms -= elapsed
            side.byo_left -= 1
        elif elapsed < side.remaining_ms:
            side.remaining_ms -= elapsed
            return
        else:
            side.block_ms = control.byo_ms - (elapsed - side.remaining_ms)
            side.byo_left = control.byo_count - 1
            side.remaining_ms = 0
            side.in_byo = True
        if side.byo_left == 0:
            side.block_ms = control.byo_ms
            side.byo_left = control.byo_count

    def switch_controls(self, mode, bonus_ms, now):
        """A G.4 grant: both sides play every period still to come with ``mode``
        (``tc.FISCHER`` or ``tc.DELAY``) of ``bonus_ms``; the periods and their
        times stay. The move in progress starts again in the new mode: with the
        increment the side to move gets it at once, with the delay a fresh delay
        runs when play resumes."""
        mover = self.sides[self.mover]
        mover.remaining_ms = self.shown_ms(self.mover, now)
        self.turn_used = 0
        for side in self.sides:
            side.added_mode = mode
            side.added_ms = bonus_ms
        if mode == tc.FISCHER and not mover.flagged:
            mover.remaining_ms += bonus_ms
        self.changes += 1

    def add_time(self, index, delta_ms, now):
        """Side ``index`` gets ``delta_ms`` more (negative: less) of its own time:
        in byo-yomi, of the period or block it is in (for the side to move the
        turn so far is charged first, the move not completed), the periods to
        come keeping their length; main time brought to zero starts the
        byo-yomi. The checks and the flag are the caller's (``firmware.claims``)."""
        side = self.sides[index]
        byo = side.control.kind >= tc.JAPANESE
        if byo and index == self.mover and self.in_turn() and side.can_flag:
            elapsed = self.elapsed(now)
            self.turn_used = 0
            if elapsed < side.remaining_ms:
                side.remaining_ms -= elapsed
            else:
                over = elapsed - side.remaining_ms - side.block_ms  # past the period or block
                side.remaining_ms = 0
                side.in_byo = True
                if over < 0 or side.control.kind == tc.CANADIAN:
                    side.block_ms = -over
                else:
                    byo_ms = side.control.byo_ms
                    side.byo_left -= over // byo_ms + 1
                    side.block_ms = byo_ms - over % byo_ms
        if side.in_byo:
            side.block_ms += delta_ms
            if side.byo_left == 0:  # time given after the flag: a last period, a block's move
                side.byo_left = 1
        else:
            side.remaining_ms += delta_ms
            side.in_byo = byo and side.remaining_ms == 0
        self.changes += 1

    def finish(self, now):
        """End the game at ``now`` without a flag (a draw, a G.6 claim): the
        clocks freeze at the times they show, the turn used up."""
        self.sides[self.mover].remaining_ms = self.shown_ms(self.mover, now)
        self.turn_used = 0
        self.state = OVER
        self.changes += 1

    def flag_at_zero(self, index):
        """An arbiter's correction left side ``index`` at 0:00.000: its flag has
        fallen, as when its time runs out (it stays at zero until time is given)."""
        side = self.sides[index]
        if index == self.mover:
            self.turn_used = 0
        side.remaining_ms = 0
        side.flagged = True
        side.can_flag = False
        control = side.control
        side.final = control.kind != tc.STAGES or side.period == len(control.periods) - 1
        if control.kind >= tc.JAPANESE:  # byo-yomi: no period or block time left
            side.in_byo = True
            side.block_ms = 0
            side.byo_left = 0
        if self.first_flag == NOBODY:
            self.first_flag = index
        self.changes += 1

    def clear_flag(self, index):
        """An arbiter's correction gave flagged side ``index`` time again: its flag
        is no longer shown (the event log keeps that it fell)."""
        side = self.sides[index]
        side.flagged = False
        side.can_flag = True
        side.final = False
        if self.first_flag == index:
            other = 1 - index
            self.first_flag = other if self.sides[other].flagged else NOBODY
        self.changes += 1

    def pause(self, now):
        """Stop both clocks; the turn keeps what it used so far."""
        if self.state != RUNNING:
            return False
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
