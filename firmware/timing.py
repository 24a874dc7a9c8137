"""The timing methods: one class per method, each a side's clock that answers
what the engine, the claims, the frames and the arbiter ask of it.

A period's mode (sudden death, Fischer, simple delay, Bronstein) is answered by
a few functions of the mode's code (``firmware.timecontrol``); a control's
method (periods of those modes, hourglass, Japanese or Canadian byo-yomi) is
a ``Side`` class (``METHODS``, indexed by the control's kind) whose instance
keeps one player's time. The
engine (``firmware.engine``) keeps the game's state machine (who moves, the
turn's elapsed time, pauses, the freeze) and asks the side: what the turn
shows after ``elapsed`` ms, when the flag falls, what a completed move does,
what the stage is, what a correction does. Nothing branches on the method
(a method is its class); only the mode functions ask which mode is in force.
Every operation allocates nothing (ticks and presses run under ``heap_lock``,
tests/test_allocation.py, tests/mpy/methods_heap.py).

The arithmetic is docs/spec/timing.md's, in integer milliseconds.
"""

from micropython import const

# The period modes' codes, firmware.timecontrol's (tests/test_timing_methods.py checks
# they agree), as constants the compiler puts in the code: no lookup in a tick.
_NONE = const(0)
_FISCHER = const(1)
_DELAY = const(2)
_BRONSTEIN = const(3)

# --- the period modes: what a turn costs and a move gains under each ------------
# Functions of the mode's code (``_NONE``, ``_FISCHER``…), not classes:
# four classes of five methods took some 2 KB more of the boot heap.


def charged(mode, elapsed, bonus_ms):
    """What a turn of ``elapsed`` ms has taken off the shown time so far: all of it,
    but the simple delay's first ``bonus_ms``."""
    if mode == _DELAY:
        return elapsed - bonus_ms if elapsed > bonus_ms else 0
    return elapsed


def settled(mode, left, elapsed, bonus_ms):
    """The time ``left`` before a move of ``elapsed`` ms, once it is completed:
    Bronstein gives back what the move used, at most ``bonus_ms``."""
    if mode == _BRONSTEIN:
        return left - elapsed + (elapsed if elapsed < bonus_ms else bonus_ms)
    return left - charged(mode, elapsed, bonus_ms)


def gain(mode, bonus_ms):
    """What a completed move (or a grant, for the move in progress) adds: Fischer's
    increment."""
    return bonus_ms if mode == _FISCHER else 0


def start_ms(control):
    """A side's time before its first move (Fischer's increment before move 1)."""
    moves, time_ms, mode, bonus_ms = control.periods[0]
    return time_ms + gain(mode, bonus_ms)


# --- the methods: a side's clock ----------------------------------------------


class Side:
    """One player's clock under a control: settled remaining time, period,
    moves and flag. The operations every method shares; a method overrides
    what it does differently."""

    SHARES_TIME = False  # the time one side uses goes to the other (the hourglass)

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
        self.in_byo = False
        self.added_mode = _NONE  # a G.4 grant's 5-second mode over every period (NONE: none)
        self.added_ms = 0
        self.enter_mode()

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
        self.enter_mode()

    def period_mode(self):
        """The mode of the current period: the control's own, or the one a grant added."""
        return self.mode

    def enter_mode(self):
        """Take the current period's mode and bonus (or a grant's) into ``mode`` and
        ``bonus_ms``: read at every tick, set when the period or the grant changes."""
        if self.added_mode != _NONE:
            self.mode = self.added_mode
            self.bonus_ms = self.added_ms
        else:
            period = self.control.periods[self.period]
            self.mode = period[2]
            self.bonus_ms = period[3]

    def period_bonus_ms(self):
        """The increment or delay of the current period (see ``period_mode``)."""
        return self.bonus_ms

    # --- what the side shows ---

    def settled_ms(self):
        """The time the side shows when its clock is not running."""
        return self.remaining_ms

    def waiting_ms(self, elapsed):
        """The time shown while the other side's turn has run ``elapsed`` ms."""
        return self.settled_ms()

    def delay_left(self, elapsed):
        """The ms of the turn's delay still to run after ``elapsed`` (0: none)."""
        return 0

    def in_last_period(self):
        """True when no period follows the current one."""
        return True

    def passed_control(self, other):
        """True if the side shows the control-passed mark (see ``Periods``)."""
        return False

    def behind(self, done):
        """True if this side has completed fewer than ``done`` periods."""
        return False

    # --- what happens to it ---

    def flag(self, limit, other):
        """The flag falls ``limit`` ms into the turn; True if the clocks freeze
        (the game is over), ``other`` being the other side."""
        self.flagged = True
        self.can_flag = False
        last = self.in_last_period()
        if last:
            self.final = True
        if self.ends_game(last, limit, other):
            self.remaining_ms = 0
            return True
        return False

    def ends_game(self, last, limit, other):
        """True if the flag freezes the clocks (``flag``)."""
        return False

    def settle(self, shown_ms):
        """The turn stops showing ``shown_ms`` (a draw, a grant): it keeps that time."""
        self.remaining_ms = shown_ms

    def grant(self, mode, bonus_ms):
        """A G.4 grant: every period still to come is played with ``mode`` of ``bonus_ms``."""
        self.added_mode = mode
        self.added_ms = bonus_ms
        self.enter_mode()

    def restart_granted(self, shown_ms):
        """The move in progress starts again under the grant from ``shown_ms``:
        an increment is given at once (not after a flag), a delay runs afresh."""
        added = 0 if self.flagged else gain(self.mode, self.bonus_ms)
        self.remaining_ms = shown_ms + added

    def settle_turn(self, elapsed):
        """Charge the turn in progress (``elapsed`` ms) before a correction; True
        if the side took it (byo-yomi), False if the turn keeps running on."""
        return False

    def add_ms(self, delta_ms):
        """``delta_ms`` more (negative: less) of the side's own time."""
        self.remaining_ms += delta_ms

    def flag_at_zero(self):
        """A correction left the side at zero: its flag has fallen."""
        self.remaining_ms = 0
        self.flagged = True
        self.can_flag = False
        self.final = self.in_last_period()

    def clear_flag(self):
        """A correction gave the flagged side time again."""
        self.flagged = False
        self.can_flag = True
        self.final = False

    def set_moves(self, moves, turn_used):
        """The move counter corrected to ``moves`` completed; ``turn_used``: the
        paused turn's ms if the side is to move, else 0."""
        self.moves = moves

    def period_offer(self, moves):
        """The base time a correction to ``moves`` offers (``firmware.move_count``)."""
        return 0

    def quickplay_refusal(self):
        """Why a G.5 claim cannot be made under this method, or None."""
        return "special-control"


class Periods(Side):
    """Periods of moves, each in its mode (the functions above): sudden death, Fischer,
    simple delay or Bronstein; a period's time is added when its first move begins."""

    def shown_ms(self, elapsed):
        """The time shown when the side's turn has run ``elapsed`` ms."""
        bonus_ms = self.bonus_ms
        if self.mode == _DELAY:  # charged(), inline: the tick asks it of both sides
            elapsed = elapsed - bonus_ms if elapsed > bonus_ms else 0
        left = self.remaining_ms - elapsed
        return left if left > 0 else 0

    def stage_code(self, running, elapsed):
        """The stage (``engine.Clock.stage_code``): the period's number."""
        return (self.period + 1) << 2

    def flag_elapsed(self):
        """The turn's elapsed ms at which the shown time reaches zero."""
        if self.mode == _DELAY:  # the delay runs first
            return self.remaining_ms + self.bonus_ms
        return self.remaining_ms

    def delay_left(self, elapsed):
        if self.mode == _DELAY and elapsed < self.bonus_ms:
            return self.bonus_ms - elapsed
        return 0

    def in_last_period(self):
        return self.period == len(self.control.periods) - 1

    def ends_game(self, last, limit, other):
        return last and self.mode != _NONE  # an increment or a delay: frozen

    def complete_move(self, elapsed, other):
        """A move of ``elapsed`` ms completed: charge it, enter the next period
        when the move count reaches it, add an increment."""
        self.moves += 1
        if self.flagged and not self.can_flag:
            left = 0
        else:
            left = settled(self.mode, self.remaining_ms, elapsed, self.bonus_ms)
            if left < 0:
                left = 0
        if not self.final:
            control = self.control
            if (
                self.period < len(control.periods) - 1
                and self.moves == control.cumulative[self.period]
            ):
                self.period += 1
                self.enter_mode()
                left += control.periods[self.period][1]
            left += gain(self.mode, self.bonus_ms)
            if self.flagged:
                self.can_flag = left > 0
        self.remaining_ms = left

    def passed_control(self, other):
        """It has completed a period with a move count, and either the other side
        has not completed as many (it passed first) or its last move was the
        period's last (it has just passed)."""
        done = self.period
        if done == 0:
            return False
        if other.behind(done):
            return True
        return self.moves == self.control.cumulative[done - 1]

    def behind(self, done):
        return self.period < done

    def set_moves(self, moves, turn_used):
        """Each side's period becomes the one its next move belongs to; the paused
        turn in progress is charged from here on as the new period charges."""
        self.moves = moves
        before = charged(self.mode, turn_used, self.bonus_ms)
        self.period = self.control.period_of_move(moves + 1)
        self.enter_mode()
        if turn_used:
            after = charged(self.mode, turn_used, self.bonus_ms)
            self.remaining_ms += after - before
        if not self.in_last_period():
            self.final = False

    def period_offer(self, moves):
        """The base time of every period the next move (``moves + 1``) crosses
        into, negative for periods the correction goes back out of."""
        control = self.control
        wanted = control.period_of_move(moves + 1)
        offer = 0
        period = self.period
        while period < wanted:
            period += 1
            offer += control.periods[period][1]
        while period > wanted:
            offer -= control.periods[period][1]
            period -= 1
        return offer

    def quickplay_refusal(self):
        """G.5 is for a game without increment or delay, in any period or granted."""
        if self.added_mode != _NONE:
            return "has-bonus"
        for period in self.control.periods:
            if period[2] != _NONE:
                return "has-bonus"
        return None

    @staticmethod
    def game_ms(control, game_moves):
        """One period: its time + ``game_moves`` x its increment. Several: the times
        of those that begin within the first ``game_moves``, plus the increment of
        each of those moves. Delays give no time (they only spare some)."""
        total = 0
        before = 0  # moves of the earlier periods, up to game_moves
        last = len(control.periods) - 1
        for index in range(last + 1):
            if before >= game_moves:
                break
            moves, time_ms, mode, bonus_ms = control.periods[index]
            end = game_moves if index == last else min(control.cumulative[index], game_moves)
            total += time_ms + (end - before) * gain(mode, bonus_ms)
            before = end
        return total


class Hourglass(Side):
    """One sand-glass: what the side to move uses goes to the other side."""

    SHARES_TIME = True

    def shown_ms(self, elapsed):
        left = self.remaining_ms - elapsed
        return left if left > 0 else 0

    def waiting_ms(self, elapsed):
        return self.remaining_ms + elapsed

    def stage_code(self, running, elapsed):
        return 4

    def flag_elapsed(self):
        return self.remaining_ms

    def ends_game(self, last, limit, other):
        other.receive(limit)
        return True

    def complete_move(self, elapsed, other):
        self.moves += 1
        self.remaining_ms -= elapsed
        other.receive(elapsed)

    def receive(self, ms):
        """The other side's turn passed ``ms`` to this side."""
        self.remaining_ms += ms

    @staticmethod
    def game_ms(control, game_moves):
        """Its starting time."""
        return control.periods[0][1]


class Byoyomi(Side):
    """Main time, then byo-yomi (``in_byo``): what both byo-yomi methods share."""

    def reset(self):
        super().reset()
        self.in_byo = self.remaining_ms == 0

    def settled_ms(self):
        return self.block_ms if self.in_byo else self.remaining_ms

    def add_ms(self, delta_ms):
        """In byo-yomi, of the period or block it is in (the periods to come keep
        their length); main time brought to zero starts the byo-yomi."""
        if self.in_byo:
            self.block_ms += delta_ms
            if self.byo_left == 0:  # time given after the flag: a last period, a block's move
                self.byo_left = 1
        else:
            self.remaining_ms += delta_ms
            self.in_byo = self.remaining_ms == 0

    def flag_at_zero(self):
        super().flag_at_zero()
        self.in_byo = True  # no period or block time left
        self.block_ms = 0
        self.byo_left = 0


class Japanese(Byoyomi):
    """Japanese byo-yomi: ``byo_count`` periods of ``byo_ms``; a move inside a
    period starts the next move's period whole, a period run out is used up."""

    def settled_ms(self):
        if self.in_byo and self.byo_left == 0:
            return 0
        return Byoyomi.settled_ms(self)

    def shown_ms(self, elapsed):
        left = self.remaining_ms
        if elapsed < left:
            return left - elapsed
        over = elapsed - left - self.block_ms  # past the current period
        if over < 0:
            return -over
        byo_ms = self.control.byo_ms
        if over // byo_ms >= self.byo_left - 1:
            return 0
        return byo_ms - over % byo_ms

    def stage_code(self, running, elapsed):
        if self.flagged:
            return 1
        if running and elapsed >= self.remaining_ms:
            over = elapsed - self.remaining_ms - self.block_ms
            left = self.byo_left - (0 if over < 0 else over // self.control.byo_ms + 1)
            return (left << 2) | 1
        return (self.byo_left << 2) | 1 if self.in_byo else 4

    def flag_elapsed(self):
        return self.remaining_ms + self.block_ms + (self.byo_left - 1) * self.control.byo_ms

    def complete_move(self, elapsed, other):
        self.moves += 1
        if self.flagged:
            self.remaining_ms = 0
            self.byo_left = 0
            self.block_ms = 0
        elif elapsed < self.remaining_ms:
            self.remaining_ms -= elapsed
        else:
            byo_ms = self.control.byo_ms
            over = elapsed - self.remaining_ms - self.block_ms
            if over >= 0:
                self.byo_left -= over // byo_ms + 1
            self.remaining_ms = 0
            self.block_ms = byo_ms  # every move's period starts whole
            self.in_byo = True

    def settle_turn(self, elapsed):
        if elapsed < self.remaining_ms:
            self.remaining_ms -= elapsed
            return True
        over = elapsed - self.remaining_ms - self.block_ms  # past the period
        self.remaining_ms = 0
        self.in_byo = True
        if over < 0:
            self.block_ms = -over
        else:
            byo_ms = self.control.byo_ms
            self.byo_left -= over // byo_ms + 1
            self.block_ms = byo_ms - over % byo_ms
        return True

    @staticmethod
    def game_ms(control, game_moves):
        """Main time plus a period renewed at each of ``game_moves``."""
        return control.periods[0][1] + game_moves * control.byo_ms


class Canadian(Byoyomi):
    """Canadian byo-yomi: blocks of ``byo_count`` moves in ``byo_ms``; a block
    completed in time starts the next whole."""

    def shown_ms(self, elapsed):
        if self.in_byo:
            left = self.block_ms - elapsed
        elif elapsed >= self.remaining_ms:
            left = self.control.byo_ms - (elapsed - self.remaining_ms)
        else:
            left = self.remaining_ms - elapsed
        return left if left > 0 else 0

    def stage_code(self, running, elapsed):
        if self.in_byo:
            return (self.byo_left << 2) | 2
        if running and elapsed >= self.remaining_ms:
            return (self.control.byo_count << 2) | 2
        return 4

    def flag_elapsed(self):
        if self.in_byo:
            return self.block_ms
        return self.remaining_ms + self.control.byo_ms

    def complete_move(self, elapsed, other):
        self.moves += 1
        control = self.control
        if self.flagged:
            self.remaining_ms = 0
            self.block_ms = 0
            return
        if self.in_byo:
            self.block_ms -= elapsed
            self.byo_left -= 1
        elif elapsed < self.remaining_ms:
            self.remaining_ms -= elapsed
            return
        else:
            self.block_ms = control.byo_ms - (elapsed - self.remaining_ms)
            self.byo_left = control.byo_count - 1
            self.remaining_ms = 0
            self.in_byo = True
        if self.byo_left == 0:
            self.block_ms = control.byo_ms
            self.byo_left = control.byo_count

    def settle_turn(self, elapsed):
        if elapsed < self.remaining_ms:
            self.remaining_ms -= elapsed
        else:
            self.block_ms -= elapsed - self.remaining_ms  # past the main time, into the block
            self.remaining_ms = 0
            self.in_byo = True
        return True

    def set_moves(self, moves, turn_used):
        """In a block the moves left follow the corrected count (one fewer move
        made, one more left), at least one and at most the block's count: a block
        ends only with a move."""
        if self.in_byo:
            left = self.byo_left + self.moves - moves
            count = self.control.byo_count
            self.byo_left = 1 if left < 1 else left if left < count else count
        self.moves = moves

    @staticmethod
    def game_ms(control, game_moves):
        """Main time plus a block for every ``byo_count`` of ``game_moves`` begun."""
        blocks = (game_moves + control.byo_count - 1) // control.byo_count
        return control.periods[0][1] + blocks * control.byo_ms


METHODS = (Periods, Hourglass, Japanese, Canadian)  # by tc.STAGES, HOURGLASS, JAPANESE, CANADIAN


def method_of(control):
    """The class of the timing method ``control`` is played with."""
    return METHODS[control.kind]
