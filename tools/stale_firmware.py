"""Removes every copy of the clock's modules from a board's filesystem.

A board whose image has the clock frozen in (``make firmware``) must hold no
other copy of it: MicroPython looks in the filesystem's root before the
frozen modules (``sys.path`` is ``['', '.frozen', '/lib']``), so a
``/firmware`` left by ``make deploy`` would shadow them, and a copy under
``/lib`` (mip) would take flash for nothing. ``make install-frozen`` runs
this file on the board (``mpremote run``); it removes, in ``/`` and in
``/lib``, the folders and the ``.py`` and ``.mpy`` files named as the
manifest's top-level modules (``FROZEN_NAMES``, checked against manifest.py
by tests/test_frozen_image.py) and the modules the clock once shipped and
no longer imports (``RETIRED_NAMES``: a board installed before still holds
them, taking flash for nothing), and nothing else: the settings, the journal,
the hall file and ``board.txt`` stay. It runs on CPython as well (the test).
"""

import os

# The top-level names manifest.py freezes.
FROZEN_NAMES = (
    "firmware",
    "hal",
    "boards",
    "adafruit_ht16k33",
    "adafruit_bus_device",
    "adafruit_ticks",
    "board_main",
)
# Shipped by an earlier install, imported by nothing now: hal/keys.py says why the
# debouncer went.
RETIRED_NAMES = ("adafruit_debouncer",)
FOLDERS = ("", "/lib")
_DIRECTORY = 0x4000  # S_IFDIR of the mode in os.stat()[0]


def _kind(path):
    """ "dir", "file", or None if ``path`` is not there."""
    try:
        mode = os.stat(path)[0]
    except OSError:
        return None
    return "dir" if mode & _DIRECTORY else "file"


def _remove_tree(path, removed):
    for name in os.listdir(path):
        inner = path + "/" + name
        if _kind(inner) == "dir":
            _remove_tree(inner, removed)
        else:
            os.remove(inner)
            removed.append(inner)
    os.rmdir(path)
    removed.append(path + "/")


def remove_stale(root=""):
    """Remove every copy of the frozen modules under ``root`` (the filesystem's, "" on a
    board); returns the paths removed, folders ending in "/"."""
    removed = []
    for folder in FOLDERS:
        for name in FROZEN_NAMES + RETIRED_NAMES:
            path = root + folder + "/" + name
            if _kind(path) == "dir":
                _remove_tree(path, removed)
            for ending in (".py", ".mpy"):
                if _kind(path + ending) == "file":
                    os.remove(path + ending)
                    removed.append(path + ending)
    return removed


if __name__ == "__main__":
    gone = remove_stale()
    print("removed %d stale copies of the clock: %s" % (len(gone), " ".join(gone) or "none"))
