"""The board's /main.py: starts the clock on the board named in /board.txt.

``make deploy`` copies this file to the board as ``:main.py`` and writes
``board.txt`` with the board's name (a file of ``boards/``, e.g. ``esp32``).
Without that file, or with an empty one, the board is ``pico``.
"""

from firmware import main

BOARD_FILE = "/board.txt"


def board_name():
    """The name in BOARD_FILE, or main.DEFAULT_BOARD if there is none."""
    try:
        with open(BOARD_FILE) as handle:
            name = handle.read().strip()
    except OSError:
        name = ""
    return name or main.DEFAULT_BOARD


main.run(board_name())
