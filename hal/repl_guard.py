"""The USB REPL shut while the clock holds a hall's secrets (docs/hall.md, "What a clock
in hand gives").

A hall file holds the clock's password and the Wi-Fi's. With one on the flash, boot
turns Ctrl-C on the USB serial into a plain character (``micropython.kbd_intr(-1)``):
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


def shut(inputs, kbd_intr):
    """Shut Ctrl-C unless the owner's key is held; True if shut. ``kbd_intr``:
    MicroPython's (None where there is none: nothing to shut)."""
    if kbd_intr is None or owner_key_held(inputs):
        return False
    kbd_intr(-1)
    return True
