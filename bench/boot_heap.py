"""The heap a board's firmware takes at boot, measured inside MicroPython.

``node tools/mpy/run.mjs --compiled bench.boot_heap pico`` boots the firmware
(loaded as ``.mpy``) on the named board definition, with the simulator's
``machine`` standing in for the chip's, and prints one JSON object: the
bytes boot added to the heap, what is in use in all, and what boot
allocated on the way (garbage included). The WebAssembly port is a 32-bit
MicroPython like the RP2040 and ESP32 ports, so objects and bytecode take
the same room as on the board.

``measure_boot`` is the measurement ``bench.measure`` uses too. Nothing of the
firmware is loaded before its first figure (the settings file is written
here with plain ``json``), so every firmware module and every object boot
leaves behind is counted; the simulated chips, flash and pins, which are
hardware on a board, are not. This port collects garbage only between two
calls from JavaScript (``gc.collect()`` inside a call is deferred), so each
figure is read at the start of a new call that ``tools/mpy/run.mjs`` makes
after a full collection (each step returns the next).
"""

import gc
import json

from sim.world import SimBoard, fresh_flash

_SETTINGS_FILE = "settings.json"  # firmware.files.SETTINGS, a document of version 1


def settings_flash(control):
    """A fresh simulated flash with a settings file for ``control`` on both sides."""
    path = fresh_flash()
    document = {
        "control_left": control,
        "control_right": control,
        "quickplay": "off",
        "edition": "appendix-g",
        "version": 1,
    }
    with open(path + "/" + _SETTINGS_FILE, "w") as handle:
        handle.write(json.dumps(document))
    return path


def measure_boot(flash_root, board_name, then):
    """Boot on ``board_name`` between full collections; ``then(board, figures)`` follows.

    Returns the next step for ``tools/mpy/run.mjs``. ``figures``:
    ``heap_after_boot_bytes`` (what the firmware added to the heap in use:
    the modules the simulated board loads for it, then boot),
    ``heap_in_use_after_boot_bytes`` and ``heap_allocated_by_boot_bytes``
    (every byte those allocated, garbage included).
    """
    gc.collect()
    heap = {}

    def firmware_modules():
        # What SimBoard loads of the firmware's own (counted): the board
        # definitions, the storage (with firmware.boot.documents), adafruit_ticks.
        heap["start"] = gc.mem_alloc()
        import adafruit_ticks  # noqa: F401

        import boards  # noqa: F401
        from hal import storage, tick_source  # noqa: F401

        heap["allocated"] = gc.mem_alloc() - heap["start"]
        gc.collect()
        return world

    def world():
        # The simulated chips, flash and pins: hardware on a board (not counted).
        heap["modules"] = gc.mem_alloc() - heap["start"]
        heap["board"] = SimBoard(flash_root, bounce_ms=0, board_name=board_name)
        gc.collect()
        return boot

    def boot():
        before = gc.mem_alloc()
        heap["before"] = before
        heap["board"].boot()
        heap["allocated"] += gc.mem_alloc() - before
        gc.collect()
        return after

    def after():
        in_use = gc.mem_alloc()
        figures = {
            "heap_after_boot_bytes": heap["modules"] + in_use - heap["before"],
            "heap_in_use_after_boot_bytes": in_use,
            "heap_allocated_by_boot_bytes": heap["allocated"],
        }
        return then(heap["board"], figures)

    return firmware_modules


def main(argv):
    name = argv[0] if argv else "pico"

    def report(board, figures):
        figures["board"] = name
        print(json.dumps(figures))
        board.app.hardware.stop()
        return 0

    return measure_boot(settings_flash("5400+30"), name, report)
