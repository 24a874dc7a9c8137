"""The clock's entry point: builds a board and the core, the same path on a board and in
the simulator.

``start(board_name)`` builds the board's hardware, reads the settings and
returns the running app; ``run(board_name)`` does that and loops forever.
The modules only boot uses (``firmware.resume``, ``firmware.journal_read``,
``firmware.documents``, the time-control parser ``firmware.control_parser``
and this module) are let go once the game is back, for a garbage collection
to reclaim; their names stay interned, as every loaded module's do.
"""

import sys

import micropython

import boards
from firmware import files
from firmware import settings as settings_module
from firmware.app import App

DEFAULT_BOARD = "pico"


def start(board_name=DEFAULT_BOARD, flash_root=None, filesystem=None):
    """Boot the clock on ``board_name`` and return the app, interrupts enabled.

    ``filesystem`` is what the storage goes through: the board's own
    (``hal.storage.Files``) unless a simulated board passes its flash model.
    """
    from hal.board_io import Hardware

    board = boards.load(board_name)
    if filesystem is None:
        from hal.storage import Files

        filesystem = Files()
    hardware = Hardware(board, filesystem, flash_root)
    storage = hardware.storage
    if storage.exists(files.OLD_USER_SLOTS) and not storage.exists(files.USER_SLOTS):
        storage.rename(files.OLD_USER_SLOTS, files.USER_SLOTS)  # the slots a board saved before
    settings = settings_module.load(storage)
    left, right = settings.controls()
    app = App(hardware, left, right, settings.quickplay, settings.edition, settings.penalty_ms)
    app.settings = settings
    from firmware import resume
    from hal.journal_store import JournalStore

    resume.attach(app, JournalStore(storage), settings, board.TICK_MS)
    if getattr(board, "NETWORK", False) and storage.exists(files.HALL):
        from hal import hall_link  # a board with a radio and a hall file: firmware.hall_settings

        app.hall = hall_link.attach(app, storage)
    _let_go(_BOOT_ONLY)
    hardware.start()
    return app


# Modules boot alone uses: the files read at boot, the journal's reading, the
# restoring of a game, the parsing of the controls (the menus load it again), and
# this module itself (``run`` goes on in its frame; a new boot imports it again).
_BOOT_ONLY = (
    "firmware.resume",
    "firmware.journal_read",
    "firmware.documents",
    "firmware.control_parser",
    "hal.boot",
)


def _let_go(names):
    """Drop the modules ``names`` (already imported) from ``sys.modules`` and their
    package, so that nothing holds them any more."""
    for name in names:
        sys.modules.pop(name, None)
        dot = name.rfind(".")
        package = sys.modules.get(name[:dot])
        if package is not None and hasattr(package, name[dot + 1 :]):
            delattr(package, name[dot + 1 :])


def run(board_name=DEFAULT_BOARD):
    """Boot and run the clock forever (a board's ``main.py`` calls this)."""
    if hasattr(micropython, "alloc_emergency_exception_buf"):
        micropython.alloc_emergency_exception_buf(100)
    app = start(board_name)
    from hal.runtime import loop

    loop(app, app.hardware, getattr(app, "hall", None))
