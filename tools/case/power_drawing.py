"""The power path's wiring drawing: cell, charger, switch, then the board's supply.

``connections(board)`` lists every wire of the power path from the board
definition: the cell's holder to the charger's B+ and B-, the charger's OUT+
through the slide switch to the perfboard's battery header, OUT- to it too; on
the perfboard, the Pico's Schottky diode to VSYS (and the 1.2" displays' boost
converter from VSYS), or the ESP32's regulator to 3V3. ``svg(board)`` draws it
(docs/pictures/power-BOARD.svg, ``make docs``). The perfboard's own wires are
``tools.case.perfboard``'s; this drawing and that layout meet at ``J_battery``.
Host only.
"""

from tools.case import perfboard

# The blocks left to right, each with its terminals top to bottom.
_BLOCKS = {
    "cell": ("18650 cell in its holder", ("+", "-")),
    "charger": ("TP4056 charger (USB-C)", ("B+", "B-", "OUT+", "OUT-")),
    "switch": ("slide switch", ("in", "out")),
    "J_battery": ("perfboard: J_battery", ("+", "-")),
}


def connections(board):
    """[(from "block.terminal", to "block.terminal", what)] every wire of the power path."""
    out = [
        ("cell.+", "charger.B+", "cell +"),
        ("cell.-", "charger.B-", "cell -"),
        ("charger.OUT+", "switch.in", "protected +"),
        ("switch.out", "J_battery.+", "switched +"),
        ("charger.OUT-", "J_battery.-", "GND"),
    ]
    parts = perfboard.parts(board)
    if "D_battery" in parts:
        out.append(("J_battery.+", "D_battery.A", "cell +"))
        out.append(("D_battery.K", "controller.VSYS", "VSYS"))
    if "U_reg" in parts:
        out.append(("J_battery.+", "U_reg.IN", "cell +"))
        out.append(("U_reg.OUT", "controller.3V3", "3V3"))
    if "U_boost" in parts:
        out.append(("controller.VSYS", "U_boost.IN", "VSYS"))
        out.append(("U_boost.OUT", "displays.VIN", "5 V"))
    return out


def blocks(board):
    """{block: (label, terminals)}: the fixed blocks and the board's supply parts."""
    out = dict(_BLOCKS)
    parts = perfboard.parts(board)
    if "D_battery" in parts:
        out["D_battery"] = ("Schottky 1N5817", ("A", "K"))
        out["controller"] = ("Pico", ("VSYS",))
    if "U_reg" in parts:
        out["U_reg"] = ("AP2112K-3.3 (1 uF in, 1 uF out)", ("IN", "OUT"))
        out["controller"] = ("ESP32-DevKitC", ("3V3",))
    if "U_boost" in parts:
        out["U_boost"] = ("MT3608 boost, 5.0 V", ("IN", "OUT"))
        out["displays"] = ('1.2" backpacks', ("VIN",))
    return out


def svg(board):
    """The drawing as SVG text."""
    top = 40
    places = {}
    shapes = []
    for index, (name, (label, terminals)) in enumerate(blocks(board).items()):
        x = 20 + index * 190
        y = top + (index % 2) * 30
        h = 30 + 22 * len(terminals)
        shapes.append(
            '<rect x="%d" y="%d" width="160" height="%d" fill="#f4f1e8" stroke="#333"/>'
            '<text x="%d" y="%d" font-size="11" font-family="sans-serif">%s</text>'
            % (x, y, h, x + 5, y + 15, _escape(label))
        )
        for k, terminal in enumerate(terminals):
            ty = y + 32 + 22 * k
            places["%s.%s" % (name, terminal)] = (x, ty, x + 160)
            shapes.append(
                '<text x="%d" y="%d" font-size="11" font-family="monospace">%s</text>'
                % (x + 8, ty + 4, _escape(terminal))
            )
    lines = []
    for a, b, what in connections(board):
        ax, ay, ax1 = places[a]
        bx, by, bx1 = places[b]
        x0, x1 = (ax1, bx) if ax < bx else (ax, bx1)
        colour = "#c0392b" if "-" not in what and what != "GND" else "#222"
        mid = (x0 + x1) / 2
        lines.append(
            '<polyline points="%g,%g %g,%g %g,%g %g,%g" fill="none" stroke="%s" '
            'stroke-width="2"/><text x="%g" y="%g" font-size="9" font-family="sans-serif" '
            'fill="#555">%s</text>'
            % (x0, ay, mid, ay, mid, by, x1, by, colour, mid + 3, (ay + by) / 2 - 3, _escape(what))
        )
    width = 20 + len(blocks(board)) * 190 + 20
    height = top + 30 + 30 + 22 * 4 + 40
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
        'viewBox="0 0 %d %d"><rect width="100%%" height="100%%" fill="#fffef9"/>%s%s</svg>\n'
        % (width, height, width, height, "".join(shapes), "".join(lines))
    )


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
