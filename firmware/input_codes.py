"""The clock's inputs by number (the order in which a board lists its levers and keys),
the kinds of a key's press, and how long a long press is held."""

from micropython import const

LEVER_LEFT = const(0)
LEVER_RIGHT = const(1)
KEY_PLAY = const(2)
KEY_SET = const(3)
KEY_PLUS = const(4)
KEY_MINUS = const(5)

# What a menu key's press is, as the hardware layer classifies it (hal.keys).
PENDING = const(0)  # still held, for less than the long press so far
SHORT = const(1)  # released before the long press
LONG = const(2)  # held for the long press (LONG_PRESS_MS)

LONG_PRESS_MS = const(2000)  # how long a menu key is held for a long press

NAMES = ("lever_left", "lever_right", "play", "set", "plus", "minus")
