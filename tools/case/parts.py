"""The parts inside the clock's enclosure, with the dimensions the case is drawn from.

One table, ``PARTS``, each part with its outer size in millimetres (width along
the case's front, depth from front to back, height), what else the case needs to
know of it (the digit area of a display, the mounting holes of a board, the
opening a socket or a switch needs) and where each figure comes from. The
enclosure (``tools.case.model``) reads nothing else about a part, and the build
guide's parts list (docs/build.md) is printed from this table, so a figure
changed here changes the case and the list together. Host only.

Figures marked "nominal" are the vendor's rounded outline: measure the part in
hand before printing; the clearance (``tools.case.model.CLEARANCE_MM``) covers
a few tenths of a millimetre, not a different part.
"""

# name: {"size": (w, d, h) mm, "source": text, ...}
PARTS = {
    "display_056": {
        "what": '0.56" 4-digit 7-segment display on its HT16K33 backpack',
        "size": (50.4, 14.0, 19.0),  # face 50.4 x 19.0, 14.0 deep with the backpack
        "digits": (42.0, 14.2),  # the four digits and the colon, centred on the face
        "source": 'Adafruit product 878 (0.56" 7-segment backpack), product page '
        '"50.4mm x 19mm x 14mm"; digit height 14.2 mm (0.56"), digit row from the '
        "display's drawing (nominal)",
    },
    "display_120": {
        "what": '1.2" 4-digit 7-segment display on its HT16K33 backpack',
        "size": (120.0, 17.0, 44.5),
        "digits": (108.0, 30.5),
        "source": 'Adafruit product 1270 (1.2" 7-segment backpack), product page; digit '
        "height 30.5 mm (1.2\"), digit row from the display's drawing (nominal)",
    },
    "pico": {
        "what": "Raspberry Pi Pico or Pico W",
        "size": (51.0, 21.0, 4.0),  # board 1.0 mm, parts on top about 3 mm
        "holes": ((-23.5, -5.7), (-23.5, 5.7), (23.5, -5.7), (23.5, 5.7)),
        "hole_mm": 2.1,
        "source": "Raspberry Pi Pico datasheet, mechanical drawing: 51 x 21 mm, four 2.1 mm "
        "holes 47.0 mm x 11.4 mm apart; Pico W datasheet: the same outline",
    },
    "esp32_devkitc": {
        "what": "ESP32-DevKitC V4 (ESP32-WROOM-32)",
        "size": (54.4, 27.9, 9.0),
        "holes": (),
        "hole_mm": 0.0,
        "source": "Espressif ESP32-DevKitC V4 getting-started guide, board dimensions "
        "54.4 x 27.9 mm; no mounting holes: the case holds it in a cradle (nominal height)",
    },
    "cell_holder": {
        "what": "18650 cell holder, one cell, with the cell",
        "size": (77.0, 21.0, 20.5),
        "source": "Keystone 1042 18650 holder drawing, 77.0 x 20.7 x 20.4 mm outline "
        "(the cell, 18.6 x 65.2 mm, inside it)",
    },
    "microswitch": {
        "what": "lever microswitch with plunger",
        "size": (12.8, 5.8, 6.5),
        "source": "Omron D2F datasheet, dimensions: 12.8 x 5.8 x 6.5 mm body, plunger "
        "on top (travel to operate 0.5 mm)",
    },
    "key": {
        "what": "tactile key, 12 x 12 mm",
        "size": (12.0, 7.3, 12.0),  # mounted on the front: its height is its depth
        "plunger_mm": 6.0,
        "source": "Omron B3F-4055 datasheet: 12 x 12 mm body, 7.3 mm high with its "
        "plunger (round, about 6 mm across)",
    },
    "led_10mm": {
        "what": "10 mm LED with flange",
        "size": (11.0, 11.0, 13.9),
        "body_mm": 10.0,
        "flange_mm": 1.0,
        "source": "a 10 mm LED's drawing (Kingbright L-813 series): body 10.0 mm, "
        "flange 11.0 mm, 13.9 mm to the dome",
    },
    "buzzer": {
        "what": "passive piezo buzzer, 12 mm",
        "size": (12.0, 9.5, 12.0),  # against the back wall: its height is its depth
        "source": "a 12 mm passive magnetic/piezo buzzer's drawing (TDK PS1240 class): "
        "12 mm across, 9.5 mm high (nominal)",
    },
    "slide_switch": {
        "what": "slide switch (power)",
        "size": (8.6, 3.6, 3.5),
        "opening": (5.0, 2.4),  # the slot: lever travel and width with clearance
        "source": "C&K / generic SS12D00 drawing: 8.6 x 3.6 x 3.5 mm body, 1.5 mm "
        "lever, 1.5 mm travel each way",
    },
    "charger": {
        "what": "TP4056 charger module with USB-C socket",
        "size": (28.0, 17.5, 4.5),
        "opening": (9.5, 3.8),  # the USB-C receptacle's mouth, 8.94 x 3.26, with clearance
        "socket_z": 3.2,  # the receptacle's centre above the module's underside
        "source": "TP4056 USB-C module drawing, 28 x 17.5 mm (nominal); USB-C receptacle "
        "8.94 x 3.26 mm (USB Type-C specification, receptacle interface)",
    },
    "boost": {
        "what": 'MT3608 5 V boost module (1.2" displays only)',
        "size": (36.0, 17.0, 6.0),
        "source": "MT3608 boost module drawing, 36 x 17 mm (nominal)",
    },
}

# The printed parts.
PRINTED = ("shell", "base", "door", "lever_left", "lever_right")


def parts_table():
    """The parts list of docs/build.md: what, size, source; Markdown."""
    lines = ["| part | size (w x d x h mm) | source |", "|---|---|---|"]
    for name in PARTS:
        part = PARTS[name]
        size = " x ".join("%g" % value for value in part["size"])
        lines.append("| %s (`%s`) | %s | %s |" % (part["what"], name, size, part["source"]))
    return "\n".join(lines)
