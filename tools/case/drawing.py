"""The solids: every bought part at its place, the printed parts drawn round them.

``draw(assembly)`` fills a ``tools.case.cad.Assembly`` from a
``tools.case.frame.Frame``: first the bought parts, then the front panel, the
body, the base, the door, the levers and the clamps, each cut for the parts it
holds and the screws that hold it. Host only.
"""

from tools.case import battery, joints, levers, perfboard
from tools.case.cad import (
    _AXIS,
    CLEARANCE_MM,
    COLUMN_MM,
    WALL_MM,
    _countersunk,
    box,
    countersink,
    rod,
)
from tools.case.frame import KEY_PROUD_MM, PITCH, Frame
from tools.case.parts import PARTS

WINDOW_MARGIN_MM = 1.0  # a window's edge beyond the digits
# A board (the perfboard, the key board) has plain 2.6 mm holes: a countersunk head
# would bear on the hole's edge, so a pan head's flat underside sits on the board.
_PAN = "screw_m2_pan"


def _union(solids):
    out = solids[0]
    for solid in solids[1:]:
        out = out + solid
    return out


_HELD_IN = {"body": "body", "front": "front", "base": "base", "lever": "levers", "clamp": "front"}


class _Fixings:
    """Screws and inserts as they are placed, and the holes and bosses they need."""

    def __init__(self, assembly):
        self.a = assembly
        self.count = {}

    def screw(self, at, along, size, length, deep, through, into, step, pan=False):
        """A countersunk screw, its head's face at ``at``, through the part
        ``through`` into a heat-set insert whose mouth is ``deep`` along the screw,
        in the part ``into``; returns (the countersink to cut from ``through``, ``deep``
        long, and the insert's hole to cut from ``into``). ``pan``: a pan head
        instead, its underside at ``at`` on ``through``'s face (a board's plain hole)."""
        kind = "screw_" + size
        ins = "insert_" + size
        n = self.count[kind] = self.count.get(kind, 0) + 1
        name, insert_name = "%s_%d" % (kind, n), "insert_%s_%d" % (size, n)
        self.a.lengths[name] = length
        if pan:
            return self._pan(at, along, length, deep, through, into, step, name, insert_name)
        spec = PARTS[ins]
        hole, long = spec["hole_mm"], spec["size"][2]
        if not deep + 2.0 <= length <= deep + long - 0.2:
            raise ValueError("%s: %g mm does not end in its insert" % (name, length))
        axis = _AXIS[along]
        mouth = tuple(at[i] + axis[i] * deep for i in range(3))
        d = PARTS[kind]["thread_mm"]
        insert_solid = rod(mouth, along, long, hole) - rod(mouth, along, long, d)
        self.a.add(
            name, kind, _countersunk(at, along, kind, length), (through, insert_name), step=step
        )
        # an insert goes in with the part that holds it
        held = _HELD_IN.get(into.split("_")[0], step)
        self.a.add(insert_name, ins, insert_solid, (into, name, through), step=held)
        self.a.bosses.append((into, insert_name, mouth, along, long))
        return countersink(at, along, kind, deep), rod(mouth, along, long + 0.3, hole)

    def _pan(self, at, along, length, deep, through, into, step, name, insert_name):
        spec, ins = PARTS[_PAN], PARTS["insert_m2"]
        hole, long = ins["hole_mm"], ins["size"][2]
        if not deep + 2.0 <= length <= deep + long - 0.2:
            raise ValueError("%s: %g mm does not end in its insert" % (name, length))
        axis = _AXIS[along]
        back = {"+z": "-z", "-z": "+z", "+y": "-y", "-y": "+y"}[along]
        mouth = tuple(at[i] + axis[i] * deep for i in range(3))
        solid = rod(at, back, spec["head_h_mm"], spec["head_mm"]) + rod(
            at, along, length, spec["thread_mm"]
        )
        d = spec["thread_mm"]
        self.a.add(name, _PAN, solid, (through, insert_name), step=step)
        held = _HELD_IN.get(into.split("_")[0], step)
        insert_solid = rod(mouth, along, long, hole) - rod(mouth, along, long, d)
        self.a.add(insert_name, "insert_m2", insert_solid, (into, name, through), step=held)
        self.a.bosses.append((into, insert_name, mouth, along, long))
        return None, rod(mouth, along, long + 0.3, hole)


def draw(a):
    f = Frame(a.board)
    a.frame = f
    t, c = WALL_MM, CLEARANCE_MM
    W, D, H = f.W, f.D, f.H
    a.outer = (W, D, H)
    fix = _Fixings(a)
    rb2 = f.rb2
    cuts = {"front": [], "body": [], "base": [], "door": []}
    adds = {"front": [], "body": [], "base": []}

    # --- the displays, their clamps, the key board -----------------------------
    dw, dd, dh = f.dw, f.dd, f.dh
    digits_w, digits_h = PARTS[f.display]["digits"]
    for side, x0 in zip(("left", "right"), f.display_x, strict=True):
        z0 = f.display_z
        a.add(
            "display_" + side,
            f.display,
            box(x0, t, z0, x0 + dw, t + dd, z0 + dh),
            ("front", "clamp_" + side),
            step="front",
        )
        cx, cz = x0 + dw / 2, z0 + dh / 2
        digits = (cx - digits_w / 2, cz - digits_h / 2, cx + digits_w / 2, cz + digits_h / 2)
        m = WINDOW_MARGIN_MM
        window = (digits[0] - m, digits[1] - m, digits[2] + m, digits[3] + m)
        a.digits.append(digits)
        a.windows.append(window)
        cuts["front"].append(box(window[0], -1, window[1], window[2], t + 1, window[3]))
        # two bosses above and below hold the clamp; ribs either side place the display
        clamp_cuts = []
        for bz in (z0 - c - rb2, z0 + dh + c + rb2):
            adds["front"].append(rod((cx, t, bz), "+y", dd, 2 * rb2))
            sink, hole = fix.screw(
                (cx, t + dd + t, bz), "-y", "m2", 6.0, t, "clamp_" + side, "front", "front"
            )
            clamp_cuts.append(sink)
            cuts["front"].append(hole)
        for rx in (x0 - c - t, x0 + dw + c):
            adds["front"].append(box(rx, t, cz - 5, rx + t, t + dd / 2, cz + 5))
        clamp = box(cx - 5, t + dd, z0 - c - 2 * rb2, cx + 5, t + dd + t, z0 + dh + c + 2 * rb2)
        a.add(
            "clamp_" + side,
            "printed",
            clamp - _union(clamp_cuts),
            ("front", "display_" + side),
            bed="-y",
            step="front",
        )
    key = PARTS["key"]
    kw, kd, kh = key["size"]
    body_h = key["body_mm"]
    plunger = kd - body_h
    ky0 = -KEY_PROUD_MM + plunger  # the key body's front
    kb_y0 = ky0 + body_h  # the key board's front
    mid, zc = f.mid, f.zc
    names = ("play", "set", "plus", "minus")
    for index, name in enumerate(names):
        kx = mid + (-1 if index % 2 == 0 else 1) * (1.5 + kw / 2)
        kz = zc + (1 if index < 2 else -1) * (1.5 + kh / 2)
        solid = box(kx - kw / 2, ky0, kz - kh / 2, kx + kw / 2, kb_y0, kz + kh / 2) + rod(
            (kx, -KEY_PROUD_MM, kz), "+y", plunger, key["plunger_mm"]
        )
        a.add("key_" + name, "key", solid, ("key_board",), step="front")
        cuts["front"].append(rod((kx, -1, kz), "+y", t + 2, key["plunger_mm"] + 2 * c))
    kb = box(mid - 19.5, kb_y0, zc - 14.5, mid + 19.5, kb_y0 + 1.6, zc + 14.5)
    kb_touch = ["key_" + n for n in names] + ["front"]
    for sx in (-17.5, 17.5):
        adds["front"].append(rod((mid + sx, t, zc), "+y", kb_y0 - t, 2 * rb2))
        _, hole = fix.screw(
            (mid + sx, kb_y0 + 1.6, zc),
            "-y",
            "m2",
            5.0,
            1.6,
            "key_board",
            "front",
            "front",
            pan=True,
        )
        kb = kb - rod((mid + sx, kb_y0 - 1, zc), "+y", 4, 2.6)
        cuts["front"].append(hole)
        kb_touch.append("screw_m2_%d" % fix.count["screw_m2"])
    a.add("key_board", "perfboard", kb, kb_touch, step="front")

    # --- the perfboard, its headers, the controller -------------------------------
    pb_t = PARTS["perfboard"]["size"][2]
    x0, y1 = f.pb_x0, f.pb_y1
    board = box(x0, y1 - f.pb_d, f.pb_z, x0 + f.pb_w, y1, f.pb_z + pb_t)
    pb_touch = ["base"]
    corners = perfboard.screw_holes(a.board)
    for col, row in corners:
        px, py = f.pad_xy(col, row)
        adds["base"].append(rod((px, py, t), "+z", f.pb_z - t, 2 * rb2))
        _, hole = fix.screw(
            (px, py, f.pb_z + pb_t), "-z", "m2", 5.0, pb_t, "perfboard", "base", "board", pan=True
        )
        board = board - rod((px, py, f.pb_z - 1), "+z", pb_t + 2, 2.6)
        cuts["base"].append(hole)
        pb_touch.append("screw_m2_%d" % fix.count["screw_m2"])
    layout = perfboard.parts(a.board)
    ctl_rows = []
    for name, ((col, row), pads, direction, _) in layout.items():
        if name.startswith(("R_", "Q_", "D_", "U_")):
            continue  # the small parts: below the headers' height
        kind = "socket_header" if name in ("mcu", "mcu_r") else "pin_header"
        n = len(pads)
        ax, ay = f.pad_xy(col, row)
        hz = PARTS[kind]["size"][2]
        z0 = f.pb_z + pb_t
        if direction == "down":
            solid = box(
                ax - PITCH / 2,
                ay + PITCH / 2 - n * PITCH,
                z0,
                ax + PITCH / 2,
                ay + PITCH / 2,
                z0 + hz,
            )
        else:
            solid = box(
                ax - PITCH / 2,
                ay - PITCH / 2,
                z0,
                ax - PITCH / 2 + n * PITCH,
                ay + PITCH / 2,
                z0 + hz,
            )
        touches = ["perfboard"] + (["controller"] if kind == "socket_header" else [])
        a.add("header_" + name, kind, solid, touches, step="board")
        pb_touch.append("header_" + name)
        if kind == "socket_header":
            ctl_rows.append((ax, ay, ay - (n - 1) * PITCH))
    a.add("perfboard", "perfboard", board, pb_touch, step="board")
    ctl = PARTS[f.controller]
    cl, cw, ch = ctl["size"]  # long side along y
    cx = sum(r[0] for r in ctl_rows) / 2
    cy = (ctl_rows[0][1] + ctl_rows[0][2]) / 2
    z = f.ctl_z
    # the controller's own male headers: their plastic between its board and the socket
    for suffix, (ax, ay0, ay1) in zip(("", "_r"), ctl_rows, strict=True):
        a.add(
            "header_controller" + suffix,
            "controller_header",
            box(ax - PITCH / 2, ay1 - PITCH / 2, f.sock_z, ax + PITCH / 2, ay0 + PITCH / 2, z),
            ("header_mcu" + suffix, "controller"),
            step="board",
        )
    solid = box(cx - cw / 2, cy - cl / 2, z, cx + cw / 2, cy + cl / 2, z + ch)
    uz = z + ctl["usb_z"]
    mouth = cy + cl / 2 + ctl["usb_out"]
    # the receptacle: its shell round the mouth, back into the board's outline
    solid = solid + box(cx - 4.0, mouth - 5.0, max(uz - 1.5, z), cx + 4.0, mouth, uz + 1.5)
    a.add(
        "controller",
        f.controller,
        solid,
        ("header_mcu", "header_mcu_r", "header_controller", "header_controller_r"),
        step="board",
    )
    a.usb.append(("controller", "usb_micro_plug", (cx, mouth, uz)))
    plug = PARTS["usb_micro_plug"]
    ow, _, oh = plug["size"]
    # one opening for the plug of every mount: from the lowest's to the highest's
    top = uz + f.ctl_rise
    cuts["body"].append(
        box(cx - ow / 2 - c, D - t - 1, uz - oh / 2 - c, cx + ow / 2 + c, D + 1, top + oh / 2 + c)
    )

    # --- the charger, the buzzer, the power switch -------------------------------------
    chw, chd, chh = PARTS["charger"]["size"]
    a.add(
        "charger",
        "charger",
        box(f.ch_x0, f.ch_y0, f.ch_z, f.ch_x1, f.ch_y1, f.ch_z + chh),
        ("base",),
        step="base",
    )
    adds["base"].append(box(f.ch_x0 + 3, f.ch_y0 + 2, t, f.ch_x1 - 3, f.ch_y1 - 2, f.ch_z))
    adds["base"].append(box(f.ch_x0, f.ch_y0 - c - t, t, f.ch_x1, f.ch_y0 - c, f.ch_z + chh))
    ccx = (f.ch_x0 + f.ch_x1) / 2
    cz = f.ch_z + PARTS["charger"]["socket_z"]
    a.usb.append(("charger", "usb_c_plug", (ccx, f.ch_y1, cz)))
    cplug = PARTS["usb_c_plug"]
    ow, _, oh = cplug["size"]
    cuts["body"].append(
        box(ccx - ow / 2 - c, D - t - 1, cz - oh / 2 - c, ccx + ow / 2 + c, D + 1, cz + oh / 2 + c)
    )
    bd = PARTS["buzzer"]["size"]
    bx, by = ccx, f.ch_y0 - c - t - c - 1.6 - bd[0] / 2
    a.add("buzzer", "buzzer", rod((bx, by, t), "+z", bd[1], bd[0]), ("base",), step="base")
    ring = rod((bx, by, t), "+z", 3.0, bd[0] + 2 * 1.6) - rod((bx, by, t - 1), "+z", 5.0, bd[0])
    adds["base"].append(ring)
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            cuts["body"].append(rod((bx + 4 * i, by + 4 * j, f.z_top - 1), "+z", t + 2, 1.6))
    slide = PARTS["slide_switch"]
    sl, sd, sh = slide["size"]
    ys0 = t + COLUMN_MM + c
    zs = t + 10.0
    knob_l, knob_out, knob_h = slide["knob"]
    ycen, zcen = ys0 + sl / 2, zs + sh / 2
    solid = box(W - t - sd, ys0, zs, W - t, ys0 + sl, zs + sh) + box(
        W - t,
        ycen - knob_l / 2,
        zcen - knob_h / 2,
        W - t + knob_out,
        ycen + knob_l / 2,
        zcen + knob_h / 2,
    )
    a.add("power_switch", "slide_switch", solid, ("base", "body"), step="base")
    adds["base"].append(box(W - t - sd, ys0, t, W - t, ys0 + sl, zs))
    so_w, so_h = slide["opening"]
    cuts["body"].append(
        box(W - t - 1, ycen - so_w / 2, zcen - so_h / 2, W + 1, ycen + so_w / 2, zcen + so_h / 2)
    )

    battery.draw(a, f, fix, adds, cuts)

    levers.draw(a, f, fix, adds, cuts)

    joints.draw(a, f, fix, adds, cuts)

    # --- the columns, the screws that close the case, the feet -------------------------
    k = COLUMN_MM
    body_touch = ["front", "base"]
    base_touch = ["body", "front"]
    front_touch = ["body", "base"]
    for cx_, cy_ in ((t, t), (W - t - k, t), (t, D - t - k), (W - t - k, D - t - k)):
        adds["body"].append(box(cx_, cy_, t, cx_ + k, cy_ + k, f.z_top))
        px, py = cx_ + k / 2, cy_ + k / 2
        sink, hole = fix.screw((px, py, 0), "+z", "m3", 6.0, t, "base", "body", "close")
        cuts["base"].append(sink)
        cuts["body"].append(hole)
        base_touch.append("screw_m3_%d" % fix.count["screw_m3"])
        if cy_ == t:  # the front's screws into the front columns
            for pz in (t + 12.0, f.z_top - 6.0):
                sink, hole = fix.screw((px, 0, pz), "+y", "m3", 6.0, t, "front", "body", "fasten")
                cuts["front"].append(sink)
                cuts["body"].append(hole)
    for fx, fy in ((14, 14), (W - 14, 14), (14, D - 14), (f.xb_first - rb2 - 6.0, D - 14)):
        a.add(
            "foot_%d" % (len([p for p in a.parts if p.startswith("foot")]) + 1),
            "foot",
            rod((fx, fy, 0), "-z", 3.0, 10.0),
            ("base",),
            step="cell",
        )

    # --- the printed shells ------------------------------------------------------------
    front = box(0, 0, 0, W, t, H) + _union(adds["front"]) - _union(cuts["front"])
    body = (
        box(0, t, H - t, W, D, H)
        + box(0, t, t, t, D, H - t)
        + box(W - t, t, t, W, D, H - t)
        + box(t, D - t, t, W - t, D, H - t)
        + _union(adds["body"])
    ) - _union(cuts["body"])
    base = box(0, t, 0, W, D, t) + _union(adds["base"]) - _union(cuts["base"])
    for name, solid, touches, bed in (
        ("front", front, front_touch, "-y"),
        ("body", body, body_touch, "-z"),
        ("base", base, base_touch, "+z"),
    ):
        a.add(
            name,
            "printed",
            solid,
            touches,
            bed=bed,
            step={"front": "front", "body": "body", "base": "base"}[name],
        )
    return a
