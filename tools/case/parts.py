"""The parts inside the clock's enclosure, with the dimensions the case is drawn from.

One table, ``PARTS``, each part with its outer size in millimetres (width along
the case's front, depth from front to back, height), what else the case needs to
know of it (the digit area of a display, the mounting holes of a board, the
opening a socket or a switch needs) and where each figure comes from. The
model (``tools.case.cad``) reads nothing else about a part, and the build
guide's parts list (docs/build.md) is printed from this table, so a figure
changed here changes the case and the list together. Host only.

Figures marked "nominal" are the vendor's rounded outline: measure the part in
hand before printing; the clearance (``tools.case.cad.CLEARANCE_MM``) covers
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
        "usb_z": 2.3,  # the micro-USB receptacle's mouth centre above the board's underside
        "usb_out": 1.3,  # how far the receptacle stands past the board's end
        "holes": ((-23.5, -5.7), (-23.5, 5.7), (23.5, -5.7), (23.5, 5.7)),
        "hole_mm": 2.1,
        "source": "Raspberry Pi Pico datasheet, mechanical drawing: 51 x 21 mm, 1 mm thick "
        "board, four 2.1 mm holes 47.0 mm x 11.4 mm apart, the micro-USB receptacle on top "
        "overhanging the end (its mouth centre 1.3 mm over the board: a top-mount Micro-B "
        "receptacle, 2.6 mm high, nominal); Pico W datasheet: the same outline",
    },
    "esp32_devkitc": {
        "what": "ESP32-DevKitC V4 (ESP32-WROOM-32)",
        "size": (54.4, 27.9, 9.0),
        "usb_z": 3.0,  # the micro-USB receptacle's mouth centre, on top of the 1.6 mm board
        "usb_out": 1.0,
        "holes": (),
        "hole_mm": 0.0,
        "source": "Espressif ESP32-DevKitC V4 getting-started guide, board dimensions "
        "54.4 x 27.9 mm; the micro-USB receptacle on top at the end away from the antenna "
        "(1.6 mm board, the mouth centre 1.4 mm over it, nominal); no mounting holes: the "
        "case holds it in a cradle (nominal height)",
    },
    "cell_holder": {
        "what": "18650 cell holder, one cell, for protected cells (70 mm), with the cell",
        "size": (21.2, 81.8, 20.9),  # lying along the case's depth, open side down
        "cell": (19.1, 70.0),  # the longest and widest protected 18650: diameter, length
        "floor_mm": 1.0,  # the holder's floor under the cell
        "contact_mm": 1.5,  # each end contact's depth along the cell, pressed by it
        "source": "the cell: a protected 18650 is 2.5 to 3 mm longer than the 65 mm bare cell "
        "and up to 0.5 mm wider (its protection board), so 70.0 x 19.1 mm at most; the holder: "
        "the Keystone 1042's end walls and contacts (77.0 - 65.2 = 11.8 mm along the cell, "
        "1.1 mm each side, 1.8 mm over it) round that cell: buy one listed for protected "
        "(70 mm) cells and check its outline against this",
    },
    "microswitch": {
        "what": "lever microswitch with plunger",
        "size": (12.8, 5.8, 6.5),
        "plunger_mm": 1.4,  # the plunger's free position above the body
        "pretravel_mm": 0.5,  # at most: the plunger closes the contact within this
        "overtravel_mm": 0.5,  # at least: the plunger may go this far past operating
        "operating_force_n": 1.47,  # at most
        "source": "Omron D2F datasheet, dimensions: 12.8 x 5.8 x 6.5 mm body, plunger "
        "on top, operating position 7.4 mm over the base (nominal), free position a "
        "pretravel above it; operating characteristics of the D2F (pin plunger): "
        "operating force 1.47 N max, pretravel 0.5 mm max, overtravel 0.5 mm min",
    },
    "key": {
        "what": "tactile key, 12 x 12 mm",
        "size": (12.0, 7.3, 12.0),  # mounted on the front: its height is its depth
        "plunger_mm": 6.0,
        "body_mm": 3.5,  # the body's height; the plunger stands 3.8 mm above it
        "source": "Omron B3F-4055 datasheet: 12 x 12 mm body 3.5 mm high, 7.3 mm high "
        "with its plunger (round, about 6 mm across)",
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
        "knob": (1.5, 4.0, 1.5),  # the lever: along the travel, out of the body, high
        "source": "C&K / generic SS12D00 drawing: 8.6 x 3.6 x 3.5 mm body, 1.5 mm "
        "lever, 1.5 mm travel each way",
    },
    "charger": {
        "what": "TP4056 charger module with USB-C socket",
        "size": (28.0, 17.5, 4.5),
        "socket_z": 3.2,  # the receptacle's centre above the module's underside
        "source": "TP4056 USB-C module drawing, 28 x 17.5 mm (nominal); USB-C receptacle "
        "8.94 x 3.26 mm (USB Type-C specification, receptacle interface)",
    },
    "boost": {
        "what": 'MT3608 5 V boost module (1.2" displays only)',
        "size": (36.0, 17.0, 6.0),
        "source": "MT3608 boost module drawing, 36 x 17 mm (nominal)",
    },
    "perfboard": {
        "what": "perfboard, 2.54 mm pitch, cut to the layout's holes",
        "size": (2.54, 2.54, 1.6),  # one hole's square; the layout gives the count
        "source": "FR-4 / FR-2 prototyping board, 1.6 mm thick, 2.54 mm (0.1 in) grid",
    },
    "socket_header": {
        "what": "female header strip, 2.54 mm, one row (the controller's socket)",
        "size": (2.54, 2.54, 8.5),  # per pin
        "source": "2.54 mm single-row female header (e.g. Samtec SSW / generic), 8.5 mm body",
    },
    "controller_header": {
        "what": "male pin header, 2.54 mm, one row, soldered under the controller",
        "size": (2.54, 2.54, 2.5),  # per pin: the plastic between the board and the socket
        "source": "2.54 mm single-row male header: 2.5 mm plastic body (generic); the "
        "Pico H's and the DevKitC's factory headers are the same strip",
    },
    "pin_header": {
        "what": "male pin header, 2.54 mm, one row (each off-board part's plug)",
        "size": (2.54, 2.54, 8.5),  # per pin: 2.5 mm plastic, 6 mm pin above it
        "source": "2.54 mm single-row pin header: 2.5 mm body, 6.0 mm mating pin (generic)",
    },
    "insert_m3": {
        "what": "heat-set insert M3, 5.7 mm (shell and base, front panel)",
        "size": (4.0, 4.0, 5.7),
        "hole_mm": 4.0,
        "source": "ruthex RX-M3x5.7 datasheet: 5.7 mm long, 4.0 mm hole, wall 1.6 mm or more",
    },
    "insert_m2": {
        "what": "heat-set insert M2, 4.0 mm (door, clamps, boards, levers)",
        "size": (3.2, 3.2, 4.0),
        "hole_mm": 3.2,
        "source": "ruthex RX-M2x4 datasheet: 4.0 mm long, 3.2 mm hole, wall 1.6 mm or more",
    },
    "screw_m3": {
        "what": "countersunk screw M3 (ISO 10642)",
        "size": (6.72, 6.72, 8.0),
        "thread_mm": 3.0,
        "head_mm": 6.72,
        "source": "ISO 10642: M3 head 6.72 mm max across, 90 degree countersink",
    },
    "screw_m2": {
        "what": "countersunk screw M2 (ISO 10642)",
        "size": (4.4, 4.4, 6.0),
        "thread_mm": 2.0,
        "head_mm": 4.4,
        "source": "ISO 10642: M2 head 4.4 mm max across, 90 degree countersink",
    },
    "screw_m2_pan": {
        "what": "pan head screw M2 (ISO 7045), where a head bears on a board's plain hole",
        "size": (4.0, 4.0, 5.0),
        "thread_mm": 2.0,
        "head_mm": 4.0,
        "head_h_mm": 1.6,
        "source": "ISO 7045: M2 head 4.0 mm across, 1.6 mm high; its flat underside bears "
        "on the board round the 2.6 mm hole",
    },
    "foot": {
        "what": "self-adhesive rubber foot, 10 mm",
        "size": (10.0, 10.0, 3.0),
        "source": "generic bumper foot 10 x 3 mm (3M Bumpon class, nominal)",
    },
    "usb_micro_plug": {
        "what": "the cable's micro-USB plug (flashing, the self-test)",
        "size": (10.6, 20.0, 8.5),  # the overmould, w x h; its length out of the case
        "metal": (6.9, 5.6, 1.85),  # the plug's shell: w, inserted length, h
        "source": "USB-IF Micro-USB Cables and Connectors Specification 1.01: Micro-B plug "
        "shell 6.85 x 1.8 mm, overmould 10.6 x 8.5 mm at most (any compliant cable fits)",
    },
    "usb_c_plug": {
        "what": "the charging cable's USB-C plug",
        "size": (12.35, 20.0, 6.5),
        "metal": (8.4, 6.7, 2.6),
        "source": "USB Type-C specification: plug shell 8.25 x 2.4 mm, overmould "
        "12.35 x 6.5 mm max",
    },
}

# How each controller is bought, and so how high it stands in its socket: its
# underside on the plastic of its male headers (a board without headers does not
# go in a socket: the parts list asks a plain Pico's maker for the two strips).
# (name, what, the plastic under the board mm): a strip soldered by hand may stand
# up to 0.5 mm off the board where it was not pressed home; every mount is checked.
MOUNTS = {
    "pico": (
        ("pico_h", "Pico H or WH: its headers fitted as sold", 2.5),
        ("pico_soldered", "Pico or Pico W: two 20-pin male headers soldered by the maker", 3.0),
    ),
    "esp32_devkitc": (("devkitc", "ESP32-DevKitC V4: its headers fitted as sold", 2.5),),
}

# PLA: the filament's density for the printed parts' mass (g/cm3).
PLA_DENSITY = 1.24


def parts_table():
    """The parts list of docs/build.md: what, size, source; Markdown."""
    lines = ["| part | size (w x d x h mm) | source |", "|---|---|---|"]
    for name in PARTS:
        part = PARTS[name]
        size = " x ".join("%g" % value for value in part["size"])
        lines.append("| %s (`%s`) | %s | %s |" % (part["what"], name, size, part["source"]))
    return "\n".join(lines)
