"""The USB REPL shut while the clock holds a hall's secrets (docs/hall.md, "What a clock
in hand gives").

A hall file holds the clock's password and the Wi-Fi's. Boot turns Ctrl-C on the USB
serial into a plain character (``micropython.kbd_intr(-1)``) with its first line, before
it reads anything, and keeps it so with a hall file on the flash:
the running clock can no longer be interrupted into the REPL, where the file could be
read, without restarting it (which the arbiter sees: the clock starts again from its
journal). The owner's way back: hold ``set`` while powering the clock on, and the
REPL stays open for that run (``make hall-flash`` and ``mpremote`` work as before).
"""

from firmware.input_codes import NAMES

OWNER_KEY = "set"


def owner_key_held(inputs):
    """Whether the owner's key is closed now (``inputs``: ``hal.edges.EdgeRing``)."""
    return inputs.held(NAMES.index(OWNER_KEY))


CTRL_C = 3


def keep_shut(inputs, kbd_intr):
    """Boot shut Ctrl-C with its first line (``hal.boot``); with the hall's secrets on
    the flash it stays shut unless the owner's key is held, which opens it again. True
    if it stays shut. ``kbd_intr``: MicroPython's (None where there is none)."""
    if kbd_intr is None:
        return False
    if owner_key_held(inputs):
        kbd_intr(CTRL_C)
        return False
    return True
