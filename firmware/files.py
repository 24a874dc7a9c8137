"""The clock's files on flash, by name, and the format version every document carries.

The one list of what the clock keeps: the storage stamps ``FORMAT_VERSION``
into each document it writes, the boot path reads these names, and the
simulator's flash holds the same files.
"""

from micropython import const

FORMAT_VERSION = const(1)  # written into every JSON document (hal.storage)

SETTINGS = "settings.json"  # each side's control and the event's rules (firmware.settings_file)
USER_SLOTS = "slots.json"  # the setup menu's user slots 1-9 (firmware.menu.items)
OLD_USER_SLOTS = "presets.json"  # their name before; boot renames it once (hal.boot)
HALL = "hall.json"  # the tournament hall's broker and account (firmware.hall_settings)
JOURNAL_HEADER = "game.json"  # the journalled game's id, controls and event rules
JOURNAL_SLOTS = ("game.j0", "game.j1")  # the journal's two alternating entries
JOURNAL_RING = "game.jr"  # the journal's ring, erased before a game (hal.journal_setup)
EVENTS = "events.log"  # the event log, one JSON line per arbiter action
OLD_EVENTS = "events.old"  # the previous game's event log
HOLD = "hold.txt"  # while it exists the board's main.py does not start the clock
BOARD = "board.txt"  # the board definition's name, for the board's main.py
