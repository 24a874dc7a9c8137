"""A tournament day leaves nothing behind: after each game the firmware holds what it
held after the first.

The day of ``bench/tournament_heap.py`` (menus, corrections, a power cut, the
arbiter's new game, the menu back to the day's first control, the journal's
ring whole again; on the Pico W the hall link, its Wi-Fi down and up) is
played here, and after each game the firmware's objects are walked
(``firmware_shape`` of bench/tournament_heap.py): from the app and from every
module of firmware/ and hal/, through attributes, lists, tuples, dicts and
sets, stopping at the simulator's objects (they stand for the chip's
hardware and are not counted). Each container's place and length, each
buffer's, must be what they were after the first game: an event log, a
cache or a list that kept entries from game to game shows here, whatever the
collector does. ``make bench`` makes the same check inside MicroPython over
ten games (``firmware_holds_the_same_after_each_game``). (The heap in use
itself is ``make bench``'s figure: inside MicroPython's WebAssembly port its
collector is conservative and the heap's addresses are small numbers, so
that figure moves by a few KB from game to game whatever the firmware does;
see docs/power.md.)
"""

import pytest

from bench import tournament_heap as day

GAMES = 4  # the first power cut falls in the third


def _day(board_name):
    """The firmware's shape after each of the day's first ``GAMES`` games."""
    game = day.start_day(board_name)
    try:
        base = 0
        shapes = []
        for statements, length in day.day_games(GAMES):
            for statement in statements:
                assert day.play_statement(game, base, statement), statement
            base = day.finish_game(game, base, length)
            shapes.append(day.firmware_shape(game.board.app))
    finally:
        game.close()
    return shapes


@pytest.mark.parametrize("board_name", ["pico", "pico_w"])
def test_no_game_leaves_the_firmware_holding_more_than_the_first(board_name):
    shapes = _day(board_name)
    first = shapes[0]
    assert any(path.endswith("claims.log") for path, _, _ in first)  # the walk reaches it
    for number, shape in enumerate(shapes[1:], 2):
        grown = sorted(set(shape) - set(first))
        assert not grown, "after game %d, unlike the first: %s" % (number, grown[:5])
