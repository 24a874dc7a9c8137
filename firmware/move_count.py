"""The time the arbiter's correction of the move counter (Laws 6.10.2) offers
(docs/arbiter.md, docs/spec/rules.md); the correction itself is the clock's
``Clock.set_moves``.

Loaded when the counter's screen first comes up (``firmware.arbiter``).
"""

from firmware.engine import NOBODY


def period_time_offer(clock, index, white_moves):
    """The time a correction of the move counter to ``white_moves`` offers side
    ``index``: the base time of every period its next move crosses into (taken
    back, negative, for periods the correction goes back out of); never an
    increment. 0 when no boundary is crossed or the control has no periods."""
    if clock.white == NOBODY:
        return 0
    moves = white_moves if index == clock.white or clock.mover == clock.white else white_moves - 1
    return clock.sides[index].period_offer(moves)
