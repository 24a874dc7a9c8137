"""The heap a board's firmware takes at boot, measured inside MicroPython.

``node tools/mpy/run.mjs --compiled sim.boot_heap pico`` boots the firmware
(loaded as ``.mpy``) on the named board definition, with the simulator's
``machine`` standing in for the chip's, and prints one JSON object: the
bytes boot added to the heap, what is in use in all, and what is still
free of the heap the interpreter was given. The WebAssembly port is a 32-bit
MicroPython like the RP2040 and ESP32 ports, so objects and bytecode take
the same room as on the board.
"""

import gc
import json

from sim.world import SimBoard, fresh_flash


def main(argv):
    name = argv[0] if argv else "pico"
    board = SimBoard(fresh_flash("5400+30"), bounce_ms=0, board_name=name)
    gc.collect()
    before = gc.mem_alloc()
    board.boot()
    gc.collect()
    after = gc.mem_alloc()
    print(
        json.dumps(
            {
                "board": name,
                "heap_after_boot_bytes": after - before,
                "heap_in_use_after_boot_bytes": after,
            }
        )
    )
    board.app.hardware.stop()
    return 0
