"""Diagrams for the manuals, as SVG text: a board's wiring and the firmware's data flow.

``wiring_svg(board)`` draws what a board definition (``boards/<name>.py``)
says: the I2C pins and the two display addresses, every lever and key with
its pin and polarity, the buzzer, the running-side indicators and the
battery measurement, the displays' character height and the CPU clock. It
reads nothing else, so the picture cannot disagree with the pin map the
firmware uses. ``data_flow_svg()`` is the path of a lever press
from its first contact edge to the display chip's memory.
"""

import boards
from tools.pictures.displays import number

INK = "#1f2328"
PAPER = "#ffffff"
BOARD_FILL = "#e8f1e4"
PART_FILL = "#f4f4f4"
DISPLAY_FILL = "#2a1b1a"
DISPLAY_INK = "#ff6a4d"
WIRE = "#3b6fb6"
GROUND = "#555555"
FONT = 'font-family="sans-serif"'

# Inputs by firmware name, and what a builder calls them.
INPUT_LABELS = (
    ("lever_left", "left lever (microswitch)"),
    ("lever_right", "right lever (microswitch)"),
    ("play", "play/pause key"),
    ("set", "set key"),
    ("plus", "plus key"),
    ("minus", "minus key"),
)
_PIN_PREFIX = {"rp2040": "GP", "rp2040w": "GP", "esp32": "GPIO"}  # the Pico W: GP too
_PULLS = {"up": "internal pull-up", "down": "internal pull-down"}
_ROW = 34
_TOP = 70


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _text(x, y, text, size=14, anchor="start", fill=INK, bold=False):
    weight = ' font-weight="bold"' if bold else ""
    return '<text x="%s" y="%s" %s font-size="%d" text-anchor="%s" fill="%s"%s>%s</text>' % (
        number(x),
        number(y),
        FONT,
        size,
        anchor,
        fill,
        weight,
        _escape(text),
    )


def _rect(x, y, width, height, fill, stroke=INK, radius=4):
    return (
        '<rect x="%s" y="%s" width="%s" height="%s" rx="%d" fill="%s" stroke="%s" '
        'stroke-width="1.5"/>'
        % (number(x), number(y), number(width), number(height), radius, fill, stroke)
    )


def _line(x1, y1, x2, y2, colour=WIRE, width=2):
    return '<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"/>' % (
        number(x1),
        number(y1),
        number(x2),
        number(y2),
        colour,
        number(width),
    )


def _dot(x, y, colour=WIRE):
    return '<circle cx="%s" cy="%s" r="3.5" fill="%s"/>' % (number(x), number(y), colour)


def _svg(width, height, title, body):
    head = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        'role="img">' % (width, height, width, height),
        "<title>%s</title>" % _escape(title),
        '<rect width="%d" height="%d" fill="%s"/>' % (width, height, PAPER),
    ]
    return "\n".join(head + body + ["</svg>"]) + "\n"


def pin_name(board, pin):
    """``GP14`` on an RP2040, ``GPIO14`` on an ESP32."""
    return "%s%d" % (_PIN_PREFIX.get(getattr(board, "CHIP", ""), "GPIO"), pin)


def _right_rows(board):
    """(pin text, part text, kind) for the parts on the board's right-hand side."""
    closed = "to GND" if board.ACTIVE_LOW else "to 3V3"
    pull = _PULLS.get(boards.input_pull(board), "external pull resistor")
    rows = []
    for name, label in INPUT_LABELS:
        if name in board.INPUTS:
            rows.append((pin_name(board, board.INPUTS[name]), label, "switch", closed, pull))
    buzzer = getattr(board, "BUZZER_PIN", None)
    if buzzer is not None:
        rows.append((pin_name(board, buzzer), "passive piezo buzzer (PWM)", "part", "to GND", ""))
    high = getattr(board, "LED_ACTIVE_HIGH", True)
    size = getattr(board, "LED_DIAMETER_MM", None)
    current = getattr(board, "LED_CURRENT_MA", None)
    led = "indicator"
    if size and current:
        led = "indicator, %d mm LED %d mA" % (size, current)
    led_to = "via NPN" if high else "active low"
    for attribute, side in (("LED_LEFT", "left"), ("LED_RIGHT", "right")):
        pin = getattr(board, attribute, None)
        if pin is not None:
            rows.append((pin_name(board, pin), "%s %s" % (side, led), "part", led_to, ""))
    battery = getattr(board, "BATTERY_ADC_PIN", None)
    if battery is not None:
        share, whole = getattr(board, "BATTERY_DIVIDER", (1, 1))
        low_mv = getattr(board, "BATTERY_LOW_MV", None)
        note = "the ADC sees %d/%d of it" % (share, whole)
        if low_mv is not None:
            note += ", low below %d mV" % low_mv
        rows.append((pin_name(board, battery) + " (ADC)", "battery", "part", note, ""))
    return rows


def board_title(board):
    """What the board is, from the first line of its module's docstring."""
    doc = getattr(board, "__doc__", None) or ""
    first = doc.strip().split("\n")[0].split(":")[0].strip()
    return first or "%s (%s)" % (board.NAME, getattr(board, "CHIP", "?"))


def wiring_svg(board):
    """The wiring of ``board`` (a module of ``boards/``) as an SVG document."""
    rows = _right_rows(board)
    width = 1100
    board_x, board_width = 380, 210
    board_height = max(len(rows), 6) * _ROW + 30
    height = _TOP + board_height + 70
    title = "%s: the wiring of boards/%s.py" % (board_title(board), board.NAME)
    body = [
        _text(width / 2, 32, title, size=17, anchor="middle", bold=True),
        _rect(board_x, _TOP, board_width, board_height, BOARD_FILL, radius=8),
        _text(
            board_x + board_width / 2, _TOP + board_height + 22, board.NAME, 15, "middle", INK, True
        ),
    ]
    # The I2C bus on the left: four wires, each tapped by both displays. The 1.2"
    # backpacks' LEDs take 5 V from a boost converter, their logic (IO) 3V3.
    big = getattr(board, "DISPLAY_KIND", "0.56in") == "1.2in"
    bus = (
        ("SDA", pin_name(board, board.I2C_SDA), WIRE),
        ("SCL", pin_name(board, board.I2C_SCL), WIRE),
        ("+", "5V boost, IO 3V3" if big else "3V3", WIRE),
        ("-", "GND", GROUND),
    )
    display_x, display_width, display_height = 30, 236, 76
    display_tops = (_TOP, _TOP + display_height + 24)
    for index, (signal, pin, colour) in enumerate(bus):
        y = _TOP + 30 + index * _ROW
        x = display_x + display_width + 16 + index * 14  # this wire's riser
        stubs = [top + 16 + index * 15 for top in display_tops]
        body.append(_text(board_x + 8, y + 5, pin, 13))
        body.append(_line(x, y, board_x, y, colour))
        body.append(_dot(board_x, y, colour))
        body.append(_line(x, min(stubs + [y]), x, max(stubs + [y]), colour))
        for stub in stubs:
            body.append(_line(display_x + display_width, stub, x, stub, colour, 1.5))
            body.append(_dot(x, stub, colour))
            body.append(
                _text(display_x + display_width - 6, stub + 4, signal, 11, "end", DISPLAY_INK)
            )
    body.append(
        _text(
            board_x + 8,
            _TOP + 30 + 4 * _ROW,
            "I2C%d, %d kHz" % (board.I2C_ID, board.I2C_FREQ // 1000),
            12,
        )
    )
    notes = ["tick every %d ms" % board.TICK_MS]
    cpu = getattr(board, "CPU_FREQ_HZ", None)
    if cpu:
        notes.append("CPU at %d MHz" % (cpu // 1_000_000))
    watchdog = getattr(board, "WATCHDOG_MS", None)
    if watchdog:
        notes.append("watchdog %s s" % number(watchdog / 1000))
    for index, note in enumerate(notes):
        body.append(_text(board_x + 8, _TOP + 30 + (5 + index) * _ROW, note, 12))
    height_mm = getattr(board, "DIGIT_HEIGHT_MM", None)
    digits = ", %d mm digits" % height_mm if height_mm else ""
    for (label, address), top in zip(
        (("left display", board.DISPLAY_LEFT), ("right display", board.DISPLAY_RIGHT)),
        display_tops,
        strict=True,
    ):
        bridged = ["A%d" % bit for bit in range(3) if (address - 0x70) >> bit & 1]
        jumper = " ".join(bridged) + " bridged" if bridged else "no jumper"
        body += [
            _rect(display_x, top, display_width, display_height, DISPLAY_FILL, radius=6),
            _text(display_x + 12, top + 30, "HT16K33" + digits, 14, fill=DISPLAY_INK, bold=True),
            _text(display_x + 12, top + 48, label, 13, fill=DISPLAY_INK),
            _text(display_x + 12, top + 66, "0x%02X, %s" % (address, jumper), 12, fill=DISPLAY_INK),
        ]
    # Levers, keys and outputs on the right.
    part_x = 700
    for index, (pin, label, kind, to, pull) in enumerate(rows):
        y = _TOP + 30 + index * _ROW
        body.append(_text(board_x + board_width - 8, y + 5, pin, 13, "end"))
        body.append(_dot(board_x + board_width, y))
        body.append(_line(board_x + board_width, y, part_x, y))
        if kind == "switch":
            # an open contact: a short lever over a gap
            body.append(_line(part_x, y, part_x + 14, y - 10, INK, 2))
            body.append(_line(part_x + 18, y, part_x + 30, y, GROUND, 2))
            body.append(_text(part_x + 38, y + 5, "%s, %s" % (label, to), 13))
            body.append(_text(board_x + board_width + 10, y - 6, pull, 11, fill=GROUND))
        else:
            body.append(_text(part_x + 8, y + 5, label + (", " + to if to else ""), 13))
    return _svg(width, height, title, body)


# The path of a lever press, top to bottom: (what, where).
DATA_FLOW = (
    ("lever contact closes", "the microswitch; bounce follows"),
    ("pin interrupt, first edge", "hal/edges.py: input number + tick into a preallocated ring"),
    ("main loop wakes", "hal/runtime.py: service() on an edge or a timer tick (hal/ticker.py)"),
    ("App.step(now)", "firmware/app.py: drains the ring, keys, flags, redraw"),
    ("engine", "firmware/engine.py: Clock.press(side, tick) charges the move exactly"),
    ("frames", "firmware/frames.py: render_side() writes 5 segment bytes"),
    ("SegmentDisplay", "hal/displays.py: show_frame(), one I2C write, only on change"),
    ("HT16K33 display RAM", "the chip (sim/ht16k33.py in the simulator): 16 bytes"),
)


def data_flow_svg():
    """A lever press from its first contact edge to the display chip, as SVG."""
    width = 760
    box_width, box_height, gap = 520, 50, 22
    x = (width - box_width) / 2
    top = 60
    height = top + len(DATA_FLOW) * (box_height + gap) + 40
    title = "From a lever edge to the display"
    body = [_text(width / 2, 34, title, size=18, anchor="middle", bold=True)]
    for index, (what, where) in enumerate(DATA_FLOW):
        y = top + index * (box_height + gap)
        fill = DISPLAY_FILL if index == len(DATA_FLOW) - 1 else PART_FILL
        ink = DISPLAY_INK if index == len(DATA_FLOW) - 1 else INK
        body += [
            _rect(x, y, box_width, box_height, fill, radius=8),
            _text(x + 16, y + 21, what, 15, fill=ink, bold=True),
            _text(x + 16, y + 40, where, 12, fill=ink),
        ]
        if index:
            arrow_top = y - gap
            middle = width / 2
            body += [
                _line(middle, arrow_top, middle, y - 7, INK, 2),
                '<polygon points="%s,%s %s,%s %s,%s" fill="%s"/>'
                % (
                    number(middle - 6),
                    number(y - 8),
                    number(middle + 6),
                    number(y - 8),
                    number(middle),
                    number(y),
                    INK,
                ),
            ]
    side_x = x + box_width + 14
    body += [
        _text(side_x, top + box_height + gap + 20, "interrupt:", 12, fill=GROUND),
        _text(side_x, top + box_height + gap + 36, "stores, leaves", 12, fill=GROUND),
        _text(side_x, top + 3 * (box_height + gap) + 20, "no allocation", 12, fill=GROUND),
        _text(side_x, top + 3 * (box_height + gap) + 36, "during a game", 12, fill=GROUND),
    ]
    return _svg(width, height, title, body)
