"""The clock's enclosure, laid out from a board definition and the parts table.

``layout(board)`` places every part of ``tools.case.parts`` that the board
uses (its displays by ``DISPLAY_KIND``, its controller by ``CHIP``, one cell
holder per ``BATTERY_CELLS``) and draws the printed parts around them as
boxes: each printed part is a list of solid boxes and a list of openings cut
from them, in millimetres, x along the front (left to right), y from the
front face backwards, z up from the bottom face.

The case: a shell (top and four walls, open at the bottom) with the display
windows and the four keys' holes in the front, the running-side LEDs and the
levers on top, the buzzer's holes in the back, the power switch's slot on the
right and the charger's USB socket on the left; a base plate with feet, the
controller's standoffs (or a cradle for a board without holes) and the battery
opening; the battery door; two lever caps. The levers are two caps, each a
plate with a stem through the top onto its microswitch's plunger, not a
see-saw: nothing to hinge or wear, each side's press closes its own switch
only, and both print flat without supports.

Host only (``make case``, ``tools.case.checks``).
"""

from tools.case.parts import PARTS

WALL_MM = 2.4  # shell, base and door: six perimeters of a 0.4 mm nozzle
CLEARANCE_MM = 0.5  # between a part and the case around it, and between printed parts
PRESS_FIT_MM = 0.2  # round the LEDs' bodies: the top holds them by their flange and this fit
CAP_TRAVEL_MM = 1.0  # a lever cap stands this far above the top: the press's travel
WINDOW_MARGIN_MM = 1.0  # a window's edge beyond the digits
SIDE_MM = 8.0  # inside, beside each display
MIDDLE_MM = 34.0  # between the displays: the four keys, two by two
GAP_MM = 4.0  # between rows of parts inside


def box(x0, y0, z0, x1, y1, z1):
    """An axis-aligned box, its low corner first, in hundredths of a millimetre."""
    x0, y0, z0, x1, y1, z1 = (round(v, 2) for v in (x0, y0, z0, x1, y1, z1))
    return (min(x0, x1), min(y0, y1), min(z0, z1), max(x0, x1), max(y0, y1), max(z0, z1))


def _display(board):
    return "display_120" if getattr(board, "DISPLAY_KIND", "0.56in") == "1.2in" else "display_056"


def _controller(board):
    return "esp32_devkitc" if board.CHIP == "esp32" else "pico"


class Placed:
    """A part in the case: ``boxes`` (its outline, one box or more), the faces it
    rests on (``seats``: "x-", "z+", ...), and its part name."""

    def __init__(self, name, part, boxes, seats):
        self.name = name
        self.part = part
        self.boxes = boxes
        self.seats = seats


class Layout:
    """Everything ``layout`` drew: ``outer`` (w, d, h), ``placed`` parts,
    ``printed`` {name: (solids, openings)}, ``windows`` and ``digits`` (per side:
    (x0, z0, x1, z1) on the front face)."""

    def __init__(self, board):
        self.board = board
        self.placed = []
        self.printed = {}
        self.windows = []
        self.digits = []
        self.outer = None


def layout(board):
    """The enclosure of ``board`` (a board definition module or namespace)."""
    t = WALL_MM
    c = CLEARANCE_MM
    out = Layout(board)
    display = PARTS[_display(board)]
    dw, dd, dh = display["size"]
    controller_name = _controller(board)
    controller = PARTS[controller_name]
    cw, cd, ch = controller["size"]
    holder = PARTS["cell_holder"]
    hw, hd, hh = holder["size"]
    cells = getattr(board, "BATTERY_CELLS", 1)
    switch = PARTS["microswitch"]
    sw, sd, sh = switch["size"]
    led = PARTS["led_10mm"]
    key = PARTS["key"]
    buzzer = PARTS["buzzer"]
    slide = PARTS["slide_switch"]
    charger = PARTS["charger"]

    inner_w = 2 * dw + MIDDLE_MM + 2 * SIDE_MM
    width = inner_w + 2 * t
    # Inside, front to back: the displays, a gap, the controller row, a gap, the cells.
    row_depth = max(cd, charger["size"][1], PARTS["boost"]["size"][1])
    depth = t + dd + GAP_MM + row_depth + GAP_MM + hd + c + t
    display_z0 = t + 8.0
    top_in = display_z0 + dh + 8.0  # the top's underside
    height = top_in + t
    out.outer = (round(width, 2), round(depth, 2), round(height, 2))

    # --- the displays, their windows, the keys between them ------------------
    x_left = t + SIDE_MM
    x_right = width - t - SIDE_MM - dw
    rails = []
    for side, x0 in enumerate((x_left, x_right)):
        out.placed.append(
            Placed(
                ("display_left", "display_right")[side],
                _display(board),
                [box(x0, t, display_z0, x0 + dw, t + dd, display_z0 + dh)],
                ("y-", "z-"),
            )
        )
        digits_w, digits_h = display["digits"]
        cx = x0 + dw / 2
        cz = display_z0 + dh / 2
        out.digits.append(
            (cx - digits_w / 2, cz - digits_h / 2, cx + digits_w / 2, cz + digits_h / 2)
        )
        m = WINDOW_MARGIN_MM
        out.windows.append(
            (
                cx - digits_w / 2 - m,
                cz - digits_h / 2 - m,
                cx + digits_w / 2 + m,
                cz + digits_h / 2 + m,
            )
        )
        rails.append(box(x0, t, display_z0 - t, x0 + dw, t + 6.0, display_z0))
    kw, kd, kh = key["size"]
    mid = width / 2
    key_holes = []
    zc = display_z0 + dh / 2
    for row, col, name in ((0, 0, "play"), (0, 1, "set"), (1, 0, "plus"), (1, 1, "minus")):
        kx0 = mid - kw - 1.5 if col == 0 else mid + 1.5
        kz0 = zc + 1.5 if row == 0 else zc - kh - 1.5
        out.placed.append(
            Placed("key_" + name, "key", [box(kx0, t, kz0, kx0 + kw, t + kd, kz0 + kh)], ("y-",))
        )
        p = key["plunger_mm"] / 2 + c
        kcx, kcz = kx0 + kw / 2, kz0 + kh / 2
        key_holes.append(box(kcx - p, -1, kcz - p, kcx + p, t + 1, kcz + p))

    # --- the controller row: charger at the left wall, the controller, the boost ---
    row_y0 = t + dd + GAP_MM
    chw, chd, chh = charger["size"]
    pad_z = t + WALL_MM  # on a pad, so the wall under its socket is a wall's thickness
    out.placed.append(
        Placed(
            "charger",
            "charger",
            [box(t, row_y0, pad_z, t + chw, row_y0 + chd, pad_z + chh)],
            ("x-", "z-"),
        )
    )
    charger_pad = box(t + 4.0, row_y0 + 2.0, t, t + chw - 4.0, row_y0 + chd - 2.0, pad_z)
    ow, oh = charger["opening"]
    usb_y = row_y0 + chd / 2
    usb_z = pad_z + charger["socket_z"]
    usb_hole = box(-1, usb_y - ow / 2, usb_z - oh / 2, t + 1, usb_y + ow / 2, usb_z + oh / 2)
    cx0 = t + chw + GAP_MM
    base_solids = [charger_pad]
    base_openings = []
    if controller["holes"]:
        board_z0 = t + 5.0
        for hx, hy in controller["holes"]:
            px, py = cx0 + cw / 2 + hx, row_y0 + cd / 2 + hy
            base_solids.append(box(px - 2.5, py - 2.5, t, px + 2.5, py + 2.5, board_z0))
            r = controller["hole_mm"] / 2
            base_openings.append(box(px - r, py - r, t + 1.0, px + r, py + r, board_z0 + 1))
    else:
        board_z0 = t
        for y_edge, sign in ((row_y0, -1), (row_y0 + cd, 1)):
            inner = y_edge + sign * c
            base_solids.append(box(cx0, inner, t, cx0 + cw, inner + sign * 2.0, t + 4.0))
    out.placed.append(
        Placed(
            "controller",
            controller_name,
            [box(cx0, row_y0, board_z0, cx0 + cw, row_y0 + cd, board_z0 + ch)],
            ("z-",),
        )
    )
    if getattr(board, "DISPLAY_KIND", "0.56in") == "1.2in":
        bw, bd, bh = PARTS["boost"]["size"]
        bx0 = cx0 + cw + GAP_MM
        out.placed.append(
            Placed("boost", "boost", [box(bx0, row_y0, t, bx0 + bw, row_y0 + bd, t + bh)], ("z-",))
        )

    # --- the cells at the back, over the battery door -------------------------
    holder_y0 = depth - t - c - hd
    holders_x1 = width - t - SIDE_MM
    holder_boxes = []
    for index in range(cells):
        hx1 = holders_x1 - index * (hw + GAP_MM)
        holder_boxes.append(box(hx1 - hw, holder_y0, t, hx1, holder_y0 + hd, t + hh))
        out.placed.append(
            Placed("cells_%d" % (index + 1), "cell_holder", [holder_boxes[-1]], ("z-",))
        )
    door_x0 = min(b[0] for b in holder_boxes) + 4.0
    door_x1 = max(b[3] for b in holder_boxes) - 4.0
    door_y0, door_y1 = holder_y0 + 3.0, holder_y0 + hd - 3.0
    door_opening = box(door_x0, door_y0, -1, door_x1, door_y1, t + 1)
    door_plate = box(door_x0 + c, door_y0 + c, 0, door_x1 - c, door_y1 - c, t)
    door_lip = box(door_x0 - 3.0, door_y0 - 2.0, -1.2, door_x1 + 3.0, door_y1 + 2.0, 0)

    # --- on top: the levers over their microswitches, the LEDs in front of them ---
    levers = []
    lever_holes = []
    led_holes = []
    shelves = []
    stem_w, stem_d = 8.0, 4.0
    for side, x0 in enumerate((x_left, x_right)):
        cx = x0 + dw / 2
        sy1 = depth - t
        sz1 = top_in - 3.0
        sbox = box(cx - sw / 2, sy1 - sd, sz1 - sh, cx + sw / 2, sy1, sz1)
        name = ("left", "right")[side]
        out.placed.append(Placed("switch_" + name, "microswitch", [sbox], ("y+", "z-", "z+")))
        shelves.append(
            box(cx - sw / 2 - 2, sy1 - sd - 2, sz1 - sh - t, cx + sw / 2 + 2, sy1, sz1 - sh)
        )
        scy = sy1 - sd / 2
        stem = box(
            cx - stem_w / 2,
            scy - stem_d / 2,
            sz1,
            cx + stem_w / 2,
            scy + stem_d / 2,
            height + CAP_TRAVEL_MM,
        )
        plate_y1 = depth - t
        plate = box(
            cx - 18,
            plate_y1 - 22,
            height + CAP_TRAVEL_MM,
            cx + 18,
            plate_y1,
            height + CAP_TRAVEL_MM + 4,
        )
        levers.append(("lever_" + name, [stem, plate]))
        out.placed.append(Placed("lever_" + name, "lever", [stem, plate], ("z-",)))
        lever_holes.append(
            box(
                cx - stem_w / 2 - c,
                scy - stem_d / 2 - c,
                top_in - 1,
                cx + stem_w / 2 + c,
                scy + stem_d / 2 + c,
                height + 1,
            )
        )
        # the LED, between the display and the lever
        lw, _, lh = led["size"]
        ly = t + dd + 4.0 + lw / 2
        flange = box(
            cx - lw / 2, ly - lw / 2, top_in - led["flange_mm"], cx + lw / 2, ly + lw / 2, top_in
        )
        r = led["body_mm"] / 2
        body = box(cx - r, ly - r, top_in, cx + r, ly + r, top_in - led["flange_mm"] + lh)
        out.placed.append(Placed("led_" + name, "led_10mm", [flange, body], ("z+",)))
        f = PRESS_FIT_MM
        led_holes.append(
            box(cx - r - f, ly - r - f, top_in - 1, cx + r + f, ly + r + f, height + 1)
        )

    # --- the buzzer on the back wall, its holes ----------------------------------
    bzw, bzd, bzh = buzzer["size"]
    bz_z1 = top_in - c
    bz = box(mid - bzw / 2, depth - t - bzd, bz_z1 - bzh, mid + bzw / 2, depth - t, bz_z1)
    out.placed.append(Placed("buzzer", "buzzer", [bz], ("y+",)))
    buzzer_holes = []
    bzc = bz_z1 - bzh / 2
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            hx, hz = mid + i * 4.0, bzc + j * 4.0  # 1.6 mm holes, 2.4 mm webs
            buzzer_holes.append(
                box(hx - 0.8, depth - t - 1, hz - 0.8, hx + 0.8, depth + 1, hz + 0.8)
            )

    # --- the power switch on the right wall ---------------------------------------
    slw, sld, slh = slide["size"]  # its long side along the wall (y), the lever out (x)
    sly = row_y0 + 6.0
    slz = t + 10.0
    out.placed.append(
        Placed(
            "power_switch",
            "slide_switch",
            [box(width - t - sld, sly, slz, width - t, sly + slw, slz + slh)],
            ("x+",),
        )
    )
    so_w, so_h = slide["opening"]
    slot = box(
        width - t - 1,
        sly + slw / 2 - so_w / 2,
        slz + slh / 2 - so_h / 2,
        width + 1,
        sly + slw / 2 + so_w / 2,
        slz + slh / 2 + so_h / 2,
    )

    # --- the printed parts --------------------------------------------------------
    # Each printed part: ("add" | "cut", boxes) steps in order.
    windows = [box(x0, -1, z0, x1, t + 1, z1) for (x0, z0, x1, z1) in out.windows]
    openings = windows + key_holes + led_holes + lever_holes + buzzer_holes + [slot, usb_hole]
    out.printed["shell"] = [
        ("add", [box(0, 0, t, width, depth, height)]),
        ("cut", [box(t, t, t, width - t, depth - t, top_in)]),
        ("add", rails + shelves),
        ("cut", openings),
    ]
    feet = []
    lip_x0 = door_lip[0]
    for fx, fy in ((6, 6), (width - 16, 6), (6, depth - 16), (lip_x0 - 14, depth - 16)):
        feet.append(box(fx, fy, -2.0, fx + 10, fy + 10, 0))
    out.printed["base"] = [
        ("add", [box(0, 0, 0, width, depth, t)] + feet + base_solids),
        ("cut", [door_opening] + base_openings),
    ]
    out.printed["door"] = [("add", [door_plate, door_lip])]
    for name, boxes in levers:
        out.printed[name] = [("add", boxes)]
    out.placed.append(Placed("door", "door", [door_plate, door_lip], ("z+",)))
    return out
