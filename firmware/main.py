"""The firmware's entry point: the same path on a board and in the simulator.

``start(board_name)`` builds the board's hardware, reads the settings and
returns the running app; ``run(board_name)`` does that and loops forever.
"""

import micropython

import boards
from firmware import settings as settings_module
from firmware.app import App

DEFAULT_BOARD = "pico"


def start(board_name=DEFAULT_BOARD, flash_root=None):
    """Boot the clock on ``board_name`` and return the app, interrupts enabled."""
    from hal.board_io import Hardware

    board = boards.load(board_name)
    hardware = Hardware(board, flash_root)
    settings = settings_module.load(hardware.storage)
    left, right = settings.controls()
    app = App(hardware, left, right, settings.quickplay, settings.edition)
    app.settings = settings
    from firmware import resume
    from hal.journal_store import JournalStore

    resume.attach(app, JournalStore(hardware.storage), settings, board.TICK_MS)
    hardware.start()
    return app


def run(board_name=DEFAULT_BOARD):
    """Boot and run the clock forever (a board's ``main.py`` calls this)."""
    if hasattr(micropython, "alloc_emergency_exception_buf"):
        micropython.alloc_emergency_exception_buf(100)
    app = start(board_name)
    from hal.runtime import loop

    loop(app, app.hardware)
