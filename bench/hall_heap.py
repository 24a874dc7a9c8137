"""The heap the hall's network code adds at boot, measured inside MicroPython.

``node tools/mpy/run.mjs --compiled bench.hall_heap esp32 hall`` boots the
firmware (``.mpy``) on the named board with a hall file on the flash, the
simulator's ``network`` in place of the board's; without ``hall`` it boots
with no hall file. Each prints ``bench.boot_heap``'s figures; the difference
is what the hall costs: ``hal.hall_link``, its MQTT client ``hal.mqtt`` with
its buffers, ``hal.net_stream``, ``firmware.hall_message`` and the link's
objects. Nothing connects at boot (the first poll starts the connection), so
the figure is the board's.
"""

import json

from bench import boot_heap
from sim import network


def main(argv):
    name = argv[0] if argv else "esp32"
    with_hall = len(argv) > 1 and argv[1] == "hall"
    network.install()
    flash = boot_heap.settings_flash("5400+30")
    if with_hall:
        hall = {"broker": "127.0.0.1", "port": 1883, "user": "clock-1", "board": 1}
        hall["password"] = "password"
        hall["version"] = 1
        if len(argv) > 2:  # the hall's CA: the link speaks TLS
            with open(argv[2]) as handle:
                hall["ca"] = handle.read()
        with open(flash + "/hall.json", "w") as handle:
            handle.write(json.dumps(hall))

    def report(board, figures):
        figures["board"] = name
        figures["hall"] = with_hall
        figures["tls"] = bool(getattr(getattr(board.app, "hall", None), "tls", False))
        figures["link"] = getattr(board.app, "hall", None) is not None
        print(json.dumps(figures))
        board.app.hardware.stop()
        return 0

    return boot_heap.measure_boot(flash, name, report)
