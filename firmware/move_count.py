"""The arbiter's correction of the move counter (Laws 6.10.2): the periods it sets and
the base times it offers (docs/arbiter.md, docs/spec/rules.md).

Loaded when the counter's screen first comes up (``firmware.arbiter``).
"""

from firmware import timecontrol as tc
from firmware.engine import NOBODY


def set_moves(clock, white_moves):
    """Correct the move counter of ``clock`` (paused or not started); False if it cannot.

    White has completed ``white_moves``; Black as many if White is to move, else
    one fewer. Each side's period becomes the one its next move belongs to; no
    time is added or taken by the correction itself: the side to move shows what
    it showed, its turn charged from here on as the new period charges (a delay
    the new period has or lacks hands over no time). A flag that fell in the last
    period no longer stops the periods once the correction leaves that period.
    In a Canadian block the moves left follow the corrected count (one fewer
    move made, one more left), at least one and at most the block's count: a
    block ends only with a move.
    """
    if clock.white == NOBODY or white_moves < 0:
        return False
    black = 1 - clock.white
    black_moves = white_moves if clock.mover == clock.white else white_moves - 1
    if black_moves < 0:
        return False
    for index, moves in ((clock.white, white_moves), (black, black_moves)):
        side = clock.sides[index]
        if side.control.kind == tc.CANADIAN and side.in_byo:
            # the block's moves follow the count (RULES: a correction edits the
            # block's moves too), never below one nor past the block's own count
            left = side.byo_left + side.moves - moves
            side.byo_left = 1 if left < 1 else min(left, side.control.byo_count)
        side.moves = moves
        if side.control.kind == tc.STAGES:
            turn = index == clock.mover and side.can_flag  # its time still counts
            charged = turn and _turn_charge(clock, side)
            side.period = side.control.period_of_move(moves + 1)
            if turn:
                side.remaining_ms += _turn_charge(clock, side) - charged
            if side.period != len(side.control.periods) - 1:
                side.final = False
    clock.changes += 1
    return True


def _turn_charge(clock, side):
    """What the paused turn in progress takes off ``side``'s shown time, the side to
    move, under its current period."""
    used = clock.turn_used
    if side.period_mode() == tc.DELAY:
        used -= side.period_bonus_ms()
    return used if used > 0 else 0


def period_time_offer(clock, index, white_moves):
    """The time a correction of the move counter to ``white_moves`` offers side
    ``index``: the base time of every period its next move crosses into (taken
    back, negative, for periods the correction goes back out of); never an
    increment. 0 when no boundary is crossed or the control has no periods."""
    side = clock.sides[index]
    control = side.control
    if clock.white == NOBODY or control.kind != tc.STAGES:
        return 0
    moves = white_moves if index == clock.white or clock.mover == clock.white else white_moves - 1
    wanted = control.period_of_move(moves + 1)
    offer = 0
    period = side.period
    while period < wanted:
        period += 1
        offer += control.periods[period][1]
    while period > wanted:
        offer -= control.periods[period][1]
        period -= 1
    return offer
