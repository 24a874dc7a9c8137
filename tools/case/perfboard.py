"""The electronics on a perfboard, laid out from a board definition, to scale.

The controller's footprint (its header pins at their places on the 2.54 mm
grid), the resistors, transistors and diode the wiring tables of
docs/boards.md call for, and one header per off-board part (each display,
each lever, the keys, the buzzer, each LED, the battery) stand on the grid;
``nets(board)`` says which pads each wire joins, from the board definition's
pins alone; ``wires(board)`` draws each net as point-to-point insulated wires
between pad positions, and ``extract(board)`` reads the nets back from
those positions, as a tester with a meter would. ``svg(board)`` draws it
(docs/pictures/perfboard-BOARD.svg, drawn by ``make docs`` through tools.pictures). Host only.
"""

from tools.pictures.diagrams import INPUT_LABELS

PITCH_MM = 2.54
PX_PER_MM = 6

# Raspberry Pi Pico (and Pico W) header: physical pin -> name (Pico datasheet, pinout).
PICO_PINS = (
    "GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7",
    "GP8", "GP9", "GND", "GP10", "GP11", "GP12", "GP13", "GND", "GP14", "GP15",
    "GP16", "GP17", "GND", "GP18", "GP19", "GP20", "GP21", "GND", "GP22", "RUN",
    "GP26", "GP27", "GND", "GP28", "ADC_VREF", "3V3", "3V3_EN", "GND", "VSYS", "VBUS",
)  # fmt: skip
# ESP32-DevKitC V4 headers J2 (left, top down) and J3 (right, top down): Espressif's
# ESP32-DevKitC V4 getting-started guide, header block.
DEVKITC_J2 = (
    "3V3", "EN", "GPIO36", "GPIO39", "GPIO34", "GPIO35", "GPIO32", "GPIO33", "GPIO25",
    "GPIO26", "GPIO27", "GPIO14", "GPIO12", "GND", "GPIO13", "GPIO9", "GPIO10", "GPIO11", "5V",
)  # fmt: skip
DEVKITC_J3 = (
    "GND", "GPIO23", "GPIO22", "GPIO1", "GPIO3", "GPIO21", "GND", "GPIO19", "GPIO18",
    "GPIO5", "GPIO17", "GPIO16", "GPIO4", "GPIO0", "GPIO2", "GPIO15", "GPIO8", "GPIO7", "GPIO6",
)  # fmt: skip


def _prefix(board):
    return "GPIO" if board.CHIP == "esp32" else "GP"


def mcu_pad(board, gpio):
    """The controller's pad of GPIO ``gpio``: ``mcu.GP14`` or ``mcu.GPIO14``."""
    return "mcu.%s%d" % (_prefix(board), gpio)


def _battery_internal(board):
    """True where the controller measures the battery itself (the Pico's GP29)."""
    return board.CHIP == "rp2040" and board.BATTERY_ADC_PIN == 29


def parts(board):
    """Every part on the perfboard: {name: ((col, row) of its first pad, pad names,
    direction "down" or "right", label)}; the grid's origin top left."""
    out = {}
    if board.CHIP == "esp32":
        out["mcu"] = ((3, 2), DEVKITC_J2, "down", "ESP32-DevKitC J2")
        out["mcu_r"] = ((13, 2), DEVKITC_J3, "down", "J3")
    else:
        out["mcu"] = ((3, 2), PICO_PINS[:20], "down", "Pico pins 1-20")
        out["mcu_r"] = ((10, 2), tuple(reversed(PICO_PINS[20:])), "down", "pins 40-21")
    col = 19
    row = 2

    def header(name, pads, label):
        nonlocal row
        out[name] = ((col, row), pads, "right", label)
        row += 2

    display_pads = ("VIN", "GND", "SDA", "SCL")
    if getattr(board, "DISPLAY_KIND", "0.56in") == "1.2in":
        display_pads = ("VIN", "IO", "GND", "SDA", "SCL")
    header("J_display_left", display_pads, "left display")
    header("J_display_right", display_pads, "right display")
    for name, label in INPUT_LABELS:
        header("J_" + name, ("SIG", "GND"), label.split(" (")[0])
    header("J_buzzer", ("SIG", "GND"), "buzzer")
    for side in ("left", "right"):
        header("J_led_" + side, ("A", "K"), "%s LED" % side)
    header("J_battery", ("+", "-"), "cell, via the switch")
    # components, two rows apart, between the controller and the headers
    comp_col = 27 if board.CHIP != "esp32" else 29
    crow = 2

    def component(name, pads, label):
        nonlocal crow
        out[name] = ((comp_col, crow), pads, "right", label)
        crow += 3

    component("R_buzzer", ("1", "2"), "100 ohm")
    for side in ("left", "right"):
        component("R_base_" + side, ("1", "2"), "4.7 kohm")
        component("Q_" + side, ("E", "B", "C"), "NPN 2N3904")
        component("R_led_" + side, ("1", "2"), "240 ohm")
    if board.CHIP == "esp32":
        component("U_reg", ("IN", "GND", "OUT"), "AP2112K-3.3")
    else:
        component("D_battery", ("A", "K"), "1N5817")
    if not _battery_internal(board):
        component("R_div_top", ("1", "2"), "200 kohm")
        component("R_div_bottom", ("1", "2"), "100 kohm")
    if getattr(board, "DISPLAY_KIND", "0.56in") == "1.2in":
        component("U_boost", ("IN", "GND", "OUT"), "5 V boost")
    return out


def pads(board):
    """{pad id ("part.pad"): (col, row)}; a name used twice on a header (GND) is
    numbered: mcu.GND, mcu.GND#2, ..."""
    out = {}
    for name, ((col, row), names, direction, _) in parts(board).items():
        part = "mcu" if name == "mcu_r" else name
        for index, pad in enumerate(names):
            position = (col, row + index) if direction == "down" else (col + index, row)
            key = "%s.%s" % (part, pad)
            count = 2
            while key in out:
                key = "%s.%s#%d" % (part, pad, count)
                count += 1
            out[key] = position
    return out


def nets(board):
    """The connections, from the board definition: a list of (net name, pad ids)."""
    gnd = "mcu.GND"
    supply = "mcu.3V3"
    out = [
        ("SDA", [mcu_pad(board, board.I2C_SDA), "J_display_left.SDA", "J_display_right.SDA"]),
        ("SCL", [mcu_pad(board, board.I2C_SCL), "J_display_left.SCL", "J_display_right.SCL"]),
    ]
    for name, _ in INPUT_LABELS:
        out.append((name, [mcu_pad(board, board.INPUTS[name]), "J_%s.SIG" % name]))
    out.append(("buzzer", [mcu_pad(board, board.BUZZER_PIN), "R_buzzer.1"]))
    out.append(("buzzer_r", ["R_buzzer.2", "J_buzzer.SIG"]))
    grounds = [gnd, "J_display_left.GND", "J_display_right.GND", "J_buzzer.GND", "J_battery.-"]
    grounds += ["J_%s.GND" % name for name, _ in INPUT_LABELS]
    supplies = [supply]
    for side, attribute in (("left", "LED_LEFT"), ("right", "LED_RIGHT")):
        out.append(
            ("led_" + side, [mcu_pad(board, getattr(board, attribute)), "R_base_%s.1" % side])
        )
        out.append(("base_" + side, ["R_base_%s.2" % side, "Q_%s.B" % side]))
        out.append(("anode_" + side, ["R_led_%s.2" % side, "J_led_%s.A" % side]))
        out.append(("cathode_" + side, ["J_led_%s.K" % side, "Q_%s.C" % side]))
        grounds.append("Q_%s.E" % side)
        supplies.append("R_led_%s.1" % side)
    big = getattr(board, "DISPLAY_KIND", "0.56in") == "1.2in"
    if big:
        out.append(("5V", ["U_boost.OUT", "J_display_left.VIN", "J_display_right.VIN"]))
        supplies += ["J_display_left.IO", "J_display_right.IO"]
        grounds.append("U_boost.GND")
    else:
        supplies += ["J_display_left.VIN", "J_display_right.VIN"]
    if board.CHIP == "esp32":
        cell = ["J_battery.+", "U_reg.IN"]
        supplies.append("U_reg.OUT")
        grounds.append("U_reg.GND")
        measured = cell
    else:
        out.append(("cell", ["J_battery.+", "D_battery.A"]))
        vsys = ["D_battery.K", "mcu.VSYS"]
        if big:
            vsys.append("U_boost.IN")
        measured = vsys
    if not _battery_internal(board):
        measured.append("R_div_top.1")
        out.append(
            (
                "battery_adc",
                [mcu_pad(board, board.BATTERY_ADC_PIN), "R_div_top.2", "R_div_bottom.1"],
            )
        )
        grounds.append("R_div_bottom.2")
    out.append(("cell+" if board.CHIP == "esp32" else "VSYS", measured))
    out.append(("GND", grounds))
    out.append(("3V3", supplies))
    return out


def wires(board):
    """The wires: ((col, row), (col, row)) pairs, each net a chain in its listed order."""
    where = pads(board)
    out = []
    for _, members in nets(board):
        for a, b in zip(members, members[1:], strict=False):
            out.append((where[a], where[b]))
    return out


def extract(board, wire_list=None):
    """The nets the wires make, read back from the pad positions: a set of frozensets
    of pad ids (a pad no wire reaches is in none)."""
    at = {position: pad for pad, position in pads(board).items()}
    parent = {}

    def find(p):
        while parent.setdefault(p, p) != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for a, b in wire_list if wire_list is not None else wires(board):
        if a not in at or b not in at:
            raise ValueError("a wire ends off a pad: %s-%s" % (a, b))
        parent[find(at[a])] = find(at[b])
    groups = {}
    for pad in parent:
        groups.setdefault(find(pad), set()).add(pad)
    return {frozenset(group) for group in groups.values()}


def screw_holes(board):
    """The holes drilled out for the M2 screws onto the standoffs: one hole in from
    each corner (a 2.6 mm hole a pitch and a half from the edges), clear of every
    part: the controller starts a column further in for the one at the top left."""
    cols, rows = size(board)
    return ((1, 1), (cols - 2, 1), (1, rows - 2), (cols - 2, rows - 2))


def size(board):
    """The perfboard's columns and rows."""
    cols = rows = 0
    for (col, row), names, direction, _ in parts(board).values():
        end = (col + len(names), row + 1) if direction == "right" else (col + 1, row + len(names))
        cols, rows = max(cols, end[0]), max(rows, end[1])
    return cols + 2, rows + 2


def routes(board):
    """Each wire as it is laid on the back, with the net it belongs to: along the
    grid, from its first pad along the row to the second pad's column, then along
    that column: (net, [(col, row), ...]), two or three points."""
    where = pads(board)
    out = []
    for net, members in nets(board):
        for first, second in zip(members, members[1:], strict=False):
            a, b = where[first], where[second]
            if a[0] == b[0] or a[1] == b[1]:
                out.append((net, [a, b]))
            else:
                out.append((net, [a, (b[0], a[1]), b]))
    return out


# One colour a net, so wires that share a line of holes stay told apart.
NET_COLOURS = ("#3b6fb6", "#c0392b", "#27864a", "#8e44ad", "#d35400", "#16a085", "#7f8c8d",
               "#b7950b", "#2c3e50", "#e84393")  # fmt: skip


FONT_PX = 8  # labels
PIN_FONT_PX = 7  # the controller's pin names
CHAR_EM = 0.6  # a sans-serif character's width, in font sizes (an estimate on the wide side)
TITLE_PX = 30


def labels(board):
    """Every text of the drawing: (x, y of the baseline, font px, anchor, text)."""
    scale = PITCH_MM * PX_PER_MM
    out = []

    def xy(col, row):
        return (col + 0.5) * scale, (row + 0.5) * scale + TITLE_PX

    for name, ((col, row), names, _, label) in parts(board).items():
        x, y = xy(col, row)
        # the label on the free row above the part, from its first pad
        if name[0] in "RQDU" and name[1] == "_":  # a component: which one, and its value
            label = "%s %s" % (name, label)
        out.append((x - scale / 2, y - scale / 2 - 3, FONT_PX, "start", label))
        if name in ("mcu", "mcu_r"):
            # the controller's pins by name, outside its two rows
            left = name == "mcu"
            for index, pin in enumerate(names):
                px, py = xy(col, row + index)
                out.append(
                    (
                        px - 6 if left else px + 6,
                        py + 2.5,
                        PIN_FONT_PX,
                        "end" if left else "start",
                        pin,
                    )
                )
    return out


def text_box(x, y, size, anchor, text):
    """The box (x0, y0, x1, y1) a label covers, its width estimated."""
    width = len(text) * size * CHAR_EM
    x0 = x - width if anchor == "end" else x
    return (x0, y - size, x0 + width, y + size * 0.25)


def svg(board):
    """The perfboard to scale, its parts and the controller's pins labelled, every
    wire drawn along the grid on the back, the standoffs' screw holes marked."""
    cols, rows = size(board)
    scale = PITCH_MM * PX_PER_MM
    texts = labels(board)
    board_w, board_h = cols * scale, rows * scale
    title = "%s: perfboard %d x %d holes (%.1f x %.1f mm), wires on the back" % (
        board.NAME,
        cols,
        rows,
        cols * PITCH_MM,
        rows * PITCH_MM,
    )
    ends = [text_box(*t)[2] for t in texts] + [text_box(6, 20, 12, "start", title)[2]]
    width = int(max([board_w] + [end + 4 for end in ends]))
    height = int(board_h + TITLE_PX)

    def xy(position):
        return (position[0] + 0.5) * scale, (position[1] + 0.5) * scale + TITLE_PX

    body = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
        % (width, height, width, height),
        "<title>perfboard of %s (%.1f x %.1f mm)</title>"
        % (board.NAME, cols * PITCH_MM, rows * PITCH_MM),
        '<rect width="%d" height="%d" fill="#ffffff"/>' % (width, height),
        '<rect x="0" y="%d" width="%.1f" height="%.1f" fill="#d9c7a0"/>'
        % (TITLE_PX, board_w, board_h),
        '<text x="6" y="20" font-family="sans-serif" font-size="12">%s</text>' % title,
    ]
    for col in range(cols):
        for row in range(rows):
            x, y = xy((col, row))
            body.append('<circle cx="%.1f" cy="%.1f" r="2" fill="#8a7650"/>' % (x, y))
    for col, row in screw_holes(board):
        x, y = xy((col, row))  # the M2 screws onto the standoffs (tools/case/drawing.py)
        body.append('<circle cx="%.1f" cy="%.1f" r="6" fill="#ffffff" stroke="#1f2328"/>' % (x, y))
    for (col, row), names, direction, _ in parts(board).values():
        x, y = xy((col, row))
        n = len(names)
        w, h = (n * scale, scale) if direction == "right" else (scale, n * scale)
        body.append(
            '<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#1f2328"/>'
            % (x - scale / 2, y - scale / 2, w, h)
        )
    names = [net for net, _ in nets(board)]
    for net, route in routes(board):
        points = " ".join("%.1f,%.1f" % xy(point) for point in route)
        colour = NET_COLOURS[names.index(net) % len(NET_COLOURS)]
        body.append(
            '<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"><title>%s</title>'
            "</polyline>" % (points, colour, net)
        )
    for position in pads(board).values():
        x, y = xy(position)
        body.append('<circle cx="%.1f" cy="%.1f" r="3" fill="#b87333"/>' % (x, y))
    for x, y, font, anchor, text in texts:
        body.append(
            '<text x="%.1f" y="%.1f" font-family="sans-serif" font-size="%d" '
            'text-anchor="%s">%s</text>' % (x, y, font, anchor, text)
        )
    body.append("</svg>")
    return "\n".join(body) + "\n"
