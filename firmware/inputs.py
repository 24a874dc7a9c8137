"""The clock's inputs by number: the order in which a board lists its levers and keys."""

from micropython import const

LEVER_LEFT = const(0)
LEVER_RIGHT = const(1)
KEY_PLAY = const(2)
KEY_SET = const(3)
KEY_PLUS = const(4)
KEY_MINUS = const(5)

NAMES = ("lever_left", "lever_right", "play", "set", "plus", "minus")
