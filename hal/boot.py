"""The clock's entry point: builds a board and the core, the same path on a board and in
the simulator.

``start(board_name)`` builds the board's hardware, reads the settings and
returns the running app; ``run(board_name)`` does that and loops forever.
The modules only boot uses (the folder ``firmware/boot/``, the hardware's
builder ``hal.board_io``) stay loaded: every board's heap budget holds them
(docs/architecture.md, "What the heap pays for").
"""

import micropython

# First of all, before a module of the clock is read: Ctrl-C on the USB serial is a plain
# character (``start`` opens it again once it knows no hall file is on the flash, or that
# the owner holds ``set``: ``hal.repl_guard``).
if hasattr(micropython, "kbd_intr"):
    micropython.kbd_intr(-1)

import boards  # noqa: E402  (after the shut, on purpose; so below)
from firmware import engine, files, settings_file  # noqa: E402
from firmware.app import App  # noqa: E402

DEFAULT_BOARD = "pico"


def start(board_name=DEFAULT_BOARD, flash_root=None, filesystem=None, ring_blocks=None, ticks=None):
    """Boot the clock on ``board_name`` and return the app, interrupts enabled.

    ``filesystem`` is what the storage goes through: the board's own
    (``hal.storage.Files``) unless a simulated board passes its flash model.
    ``ring_blocks``: the journal's ring, if not the board's ``JOURNAL_RING_BLOCKS``
    (0: the slot files alone, which the tests that spoil them write).
    ``ticks``: the tick counter the journal's ring reads after a block, if not the
    board's (a simulated chip's model, which holds the loop without moving time).
    """
    # Shut again for every boot in one interpreter (a simulated board's); before this
    # line nothing of the flash has been read.
    kbd_intr = getattr(micropython, "kbd_intr", None)
    if kbd_intr is not None:
        kbd_intr(-1)
    from hal import board_io

    board = boards.load(board_name)
    if filesystem is None:
        from hal.storage import Files

        filesystem = Files()
    hardware = board_io.build(board, filesystem, flash_root)
    storage = hardware.storage
    if storage.exists(files.OLD_USER_SLOTS) and not storage.exists(files.USER_SLOTS):
        storage.rename(files.OLD_USER_SLOTS, files.USER_SLOTS)  # the slots a board saved before
    settings = settings_file.load(storage)
    left, right = settings.controls()
    app = App(hardware, left, right, settings.quickplay, settings.edition, settings.penalty_ms)
    app.keep_settings(settings)
    for display in hardware.displays:
        display.dim(settings.brightness)
    from firmware.boot import resume
    from hal.journal_store import JournalStore
    from hal.tick_source import ticks_ms

    ring = getattr(board, "JOURNAL_RING_BLOCKS", 0) if ring_blocks is None else ring_blocks
    store = JournalStore(storage, ring, getattr(board, "JOURNAL_WHOLE_PAGES", True))
    if ticks is not None:
        store.read_ticks_from(ticks)
    resume.attach(app, store, settings, board.TICK_MS)
    # The ring's first blocks, before the interrupts start: a clock set up for a new
    # game prepares its ring before a start; a game in progress never (no erase in it).
    if app.clock.state == engine.SETUP and store.is_preparing():
        store.prepare(store.ticks())
    if getattr(board, "NETWORK", False) and storage.exists(files.HALL):
        from hal import (
            hall_link,  # a board with a radio and a hall file: firmware.hall_settings
            repl_guard,  # its secrets: Ctrl-C kept shut unless the owner holds ``set``
        )

        repl_guard.keep_shut(hardware.inputs, kbd_intr)
        app.join_hall(hall_link.attach(app, storage))
    elif kbd_intr is not None:
        kbd_intr(3)  # no hall's secrets on the flash: Ctrl-C as it always was
    hardware.inputs.disarm_closed(ticks_ms())
    hardware.start()
    return app


def run(board_name=DEFAULT_BOARD):
    """Boot and run the clock forever (a board's ``main.py`` calls this)."""
    if hasattr(micropython, "alloc_emergency_exception_buf"):
        micropython.alloc_emergency_exception_buf(100)
    app = start(board_name)
    from hal.runtime import loop

    loop(app, app.hardware, app.hall)
