"""The board's /main.py: starts the clock on the board named in /board.txt.

``make deploy`` copies this file to the board as ``:main.py`` and writes
``board.txt`` with the board's name (a file of ``boards/``, e.g. ``esp32``);
a frozen image holds it as the module ``board_main`` (manifest.py), and
``make install-frozen`` writes a ``/main.py`` that imports it.
Without that file, or with an empty one, the board is ``pico``.

While ``/hold.txt`` exists the board stays at the prompt instead: the
clock, and with it the watchdog that cannot be stopped once started, stays
off. ``make deploy`` and ``make selftest`` write it and reset the board
before they copy anything, and remove it when done.
"""

import micropython

# First of all, before a module of the clock is read: Ctrl-C on the USB serial is a
# plain character (hal.boot opens it again once it knows no hall file is on the flash,
# or that the owner holds set; docs/hall.md, "What a clock in hand gives").
if hasattr(micropython, "kbd_intr"):
    micropython.kbd_intr(-1)

from firmware import files  # noqa: E402  (after the shut, on purpose)

BOARD_FILE = "/" + files.BOARD
HOLD_FILE = "/" + files.HOLD


def board_name(default):
    """The name in BOARD_FILE, or ``default`` if there is none."""
    try:
        with open(BOARD_FILE) as handle:
            name = handle.read().strip()
    except OSError:
        name = ""
    return name or default


def held():
    try:
        open(HOLD_FILE).close()
    except OSError:
        return False
    return True


if held():
    if hasattr(micropython, "kbd_intr"):
        micropython.kbd_intr(3)  # the prompt, for make deploy and make selftest
    print(
        "main.py: %s is there, so the clock is not started (make deploy, make selftest)" % HOLD_FILE
    )
else:
    from hal import boot

    boot.run(board_name(boot.DEFAULT_BOARD))
