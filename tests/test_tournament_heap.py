"""A tournament day leaves nothing behind: after each game the firmware holds what it
held after the first.

The day of ``bench/tournament_heap.py`` (menus, corrections, a power cut, the
arbiter's new game, the menu back to the day's first control, the journal's
ring whole again; on the Pico W the hall link, its Wi-Fi down and up) is
played here, and after each game the firmware's objects are walked: from the
app and from every module of firmware/ and hal/, through attributes, lists,
tuples, dicts and sets, stopping at the simulator's objects (they stand for
the chip's hardware and are not counted). Each container's place and length,
each buffer's, must be what they were after the first game: an event log, a
cache or a list that kept entries from game to game shows here, whatever the
collector does. (The heap in use itself is ``make bench``'s figure: inside
MicroPython's WebAssembly port its collector is conservative and the heap's
addresses are small numbers, so that figure moves by a few hundred bytes
from game to game whatever the firmware does; see docs/power.md.)
"""

import sys

import pytest

from bench import tournament_heap as day

GAMES = 4  # the first power cut falls in the third


def _shape(root, path, out, seen):
    """(path, kind, length) of every container and buffer reachable from ``root``."""
    kind = type(root)
    if kind in (type(None), bool, int, str, float) or id(root) in seen:
        return
    seen.add(id(root))
    if kind in (bytes, bytearray) or kind.__name__ == "array":
        out.append((path, kind.__name__, len(root)))
    elif kind in (list, tuple, set, frozenset):
        out.append((path, kind.__name__, len(root)))
        for index, item in enumerate(sorted(root, key=repr) if kind in (set, frozenset) else root):
            _shape(item, "%s[%d]" % (path, index), out, seen)
    elif kind is dict:
        out.append((path, "dict", len(root)))
        for key, item in root.items():
            _shape(item, "%s{%s}" % (path, key), out, seen)
    elif not kind.__module__.startswith("sim") and hasattr(root, "__dict__"):
        if isinstance(root, type) or kind.__name__ in ("module", "function", "method"):
            return
        for name in sorted(vars(root)):
            _shape(vars(root)[name], "%s.%s" % (path, name), out, seen)


def firmware_shape(app):
    """The shape of what the firmware holds: from ``app`` and its modules' globals."""
    out = []
    seen = set()
    _shape(app, "app", out, seen)
    for name in sorted(sys.modules):
        if name.split(".")[0] in ("firmware", "hal"):
            for key, item in sorted(vars(sys.modules[name]).items()):
                _shape(item, "%s.%s" % (name, key), out, seen)
    return out


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
            shapes.append(firmware_shape(game.board.app))
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
