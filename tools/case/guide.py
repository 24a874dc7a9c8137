"""The build guide's generated parts: what to buy, how to print each part, each wire.

Everything here is read off the model (``tools.case.cad``: every bought part, screw
and insert at its place, each screw's length) and the perfboard's layout
(``tools.case.perfboard``: the small parts and the headers), so docs/build.md's
lists change with them (``make docs`` writes them; tests/test_case.py checks the
page says what the model says). Host only.

- ``bill(assembly)``: what to buy, with quantities, part numbers and what each is for;
- ``wires(assembly)``: every wire, from its header on the perfboard (or the power
  path's own terminals) to its part, its length measured in the model along the
  case's axes with room to bend and to crimp;
- ``print_rows(assembly)``: each printed part's orientation, size on the bed (against
  ``BED_MM``), walls, infill, supports and brim.
"""

import math

from tools.case import perfboard
from tools.case.joints import BED_MM  # the bed every piece must fit
from tools.case.parts import MOUNTS, PARTS

SLACK_MM = 40.0  # a wire's room to bend at both ends and to crimp or solder
WIRE_STEP_MM = 10.0  # wires are cut to whole centimetres
SMALL_CONTACT_MM2 = 300.0  # a part standing on less than this takes a brim

# What to ask a shop for, per kind of bought part in the model.
ORDER = {
    "display_056": ('Adafruit 878 (0.56" 7-segment backpack, HT16K33)', "front"),
    "display_120": ('Adafruit 1270 (1.2" 7-segment backpack, HT16K33)', "front"),
    "esp32_devkitc": ("Espressif ESP32-DevKitC V4 (ESP32-WROOM-32), headers fitted", "board"),
    "cell_holder": ("18650 holder, one cell, listed for protected (70 mm) cells", "base"),
    "cell": ("18650 Li-ion, protected, 3000 mAh or more (Samsung 30Q or LG MJ1 inside)", "cell"),
    "microswitch": ("Omron D2F-01 (pin plunger, 1.47 N)", "body"),
    "key": ("Omron B3F-4055 (12 x 12 mm tactile, 7.3 mm)", "front"),
    "led_10mm": ("10 mm LED, diffused red, with flange (Kingbright L-813 series)", "body"),
    "buzzer": ("12 mm passive buzzer (TDK PS1240P02BT)", "base"),
    "slide_switch": ("slide switch SS12D00 (SPDT, 2.54 mm)", "base"),
    "charger": ("TP4056 charger module, USB-C, with protection (DW01A)", "base"),
    "boost": ("MT3608 boost module, set to 5.0 V", "base"),
    "socket_header": ("female header, 2.54 mm, 1 x %d", "board"),
    "controller_header": ("male header, 2.54 mm, 1 x %d (a plain Pico only)", "board"),
    "pin_header": ("male header, 2.54 mm, 1 x %d", "board"),
    "insert_m3": ("heat-set insert M3 x 5.7 (ruthex RX-M3x5.7)", None),
    "insert_m2": ("heat-set insert M2 x 4 (ruthex RX-M2x4)", None),
    "screw_m3": ("countersunk screw ISO 10642 M3 x %g", None),
    "screw_m2": ("countersunk screw ISO 10642 M2 x %g", None),
    "screw_m2_pan": ("pan head screw ISO 7045 M2 x %g", None),
    "foot": ("rubber foot, self-adhesive, 10 x 3 mm", "cell"),
}
# Where each line of the list is bought, by a word of its text (the first that fits).
SOURCES = (
    ("Adafruit", "Adafruit, or its distributors (DigiKey, Mouser)"),
    ("Raspberry Pi", "Raspberry Pi's approved resellers"),
    ("Espressif", "Espressif's distributors (DigiKey, Mouser)"),
    ("Omron", "DigiKey, Mouser, Farnell"),
    ("TDK", "DigiKey, Mouser, Farnell"),
    ("Kingbright", "DigiKey, Mouser, Farnell"),
    ("18650", "a battery shop that sells protected cells, and the holder beside them"),
    ("ruthex", "ruthex, or any heat-set insert of that length and hole"),
    ("ISO", "any fastener supplier (A2 stainless)"),
    ("rubber foot", "3M Bumpon or any 10 x 3 mm bumper"),
)
ANY_SHOP = "any electronics shop (generic part)"


def source(what):
    """Where the line ``what`` of the list is bought."""
    for word, where in SOURCES:
        if word in what:
            return where
    return ANY_SHOP


# Parts of another part, not bought on their own.
WITH_ANOTHER = ("cell_contact",)
# The small parts of the perfboard, by their layout label: what to buy with them.
SMALL_PARTS_WITH = {
    "AP2112K-3.3": ("ceramic capacitor 1 uF", 2),
    "100 kohm": ("ceramic capacitor 100 nF", 1),
}
_PICO_ORDER = {
    "pico": "Raspberry Pi Pico (SC0915) with two 1 x 20 male headers, or Pico H (SC0917)",
    "pico_w": "Raspberry Pi Pico W (SC0918) with two 1 x 20 male headers, or Pico WH (SC0919)",
}
_STEP_ORDER = ("front", "body", "levers", "base", "board", "close", "fasten", "cell")

# Which part of the model each perfboard header's wires go to.
HEADER_TO = {
    "J_display_left": "display_left",
    "J_display_right": "display_right",
    "J_lever_left": "switch_left",
    "J_lever_right": "switch_right",
    "J_play": "key_board",
    "J_set": "key_board",
    "J_plus": "key_board",
    "J_minus": "key_board",
    "J_buzzer": "buzzer",
    "J_led_left": "led_left",
    "J_led_right": "led_right",
    "J_battery": "power_switch",
}


def _controller_order(assembly):
    kind = assembly.parts["controller"].kind
    if kind == "pico":
        wireless = getattr(assembly.board, "NETWORK", False)
        return _PICO_ORDER["pico_w" if wireless else "pico"]
    return ORDER[kind][0]


def _count_pins(assembly, name):
    return round(assembly.parts[name].solid.bounding_box().size.Y / perfboard.PITCH_MM) or 1


def bill(assembly):
    """[(qty, part, for)] of everything bought, the model's parts first, then the
    perfboard's small parts, the wire and the connectors."""
    rows = {}

    def add(key, qty, what, step):
        old = rows.get(key)
        rows[key] = (qty + (old[0] if old else 0), what, step)

    for name, part in sorted(assembly.parts.items()):
        kind = part.kind
        if part.printed or kind in WITH_ANOTHER:
            continue
        if name == "controller":
            add("controller", 1, _controller_order(assembly), "board")
            continue
        if name == "key_board":
            size = part.solid.bounding_box().size
            add(name, 1, "perfboard for the keys, %d x %d holes" % _holes(size.X, size.Z), "front")
            continue
        if name == "perfboard":
            cols, rows_ = perfboard.size(assembly.board)
            add(name, 1, "perfboard FR-4, 2.54 mm, %d x %d holes (%.1f x %.1f mm)"
                % (cols, rows_, cols * 2.54, rows_ * 2.54), "board")  # fmt: skip
            continue
        what, step = ORDER[kind]
        if kind.startswith("screw"):
            what = what % assembly.lengths[name]
        elif "%d" in what:
            pins = _header_pins(part)
            what = what % pins
            if kind == "controller_header" and part.touches and not _plain_pico(assembly):
                continue
        add((kind, what), 1, what, step)
    for _, ((_, _), _, _, label) in _small_parts(assembly.board):
        add(("small", label), 1, _small_name(label), "board")
        extra = SMALL_PARTS_WITH.get(label)
        if extra:
            add(("small", extra[0]), extra[1], extra[0], "board")
    total = sum(length * count for _, _, count, length, _ in wires(assembly))
    housings = {}
    for _, _, count, _, ends in wires(assembly):
        if ends == "housing":
            housings[count] = housings.get(count, 0) + 1
    add(
        "wire",
        1,
        "stranded hook-up wire, 26 AWG, %.1f m in all (the wires below)" % (total / 1000),
        "base",
    )
    for pins, n in sorted(housings.items()):
        add(
            ("housing", pins),
            n,
            "Dupont housing, 2.54 mm, 1 x %d, with female crimp contacts" % pins,
            "base",
        )
    order = {step: index for index, step in enumerate(_STEP_ORDER)}
    out = [(qty, what, step or "") for qty, what, step in rows.values()]
    out.sort(key=lambda row: (order.get(row[2], len(order)), row[1]))
    return out


def _holes(width, height):
    return round(width / perfboard.PITCH_MM), round(height / perfboard.PITCH_MM)


def _header_pins(part):
    size = part.solid.bounding_box().size
    return round(max(size.X, size.Y) / perfboard.PITCH_MM)


def _plain_pico(assembly):
    return assembly.parts["controller"].kind == "pico"


def _small_parts(board):
    return [
        (n, p) for n, p in perfboard.parts(board).items() if n.startswith(("R_", "Q_", "D_", "U_"))
    ]


def _small_name(label):
    if label.endswith("ohm"):
        return "resistor %s, 1/4 W" % label
    if label.startswith("NPN"):
        return "NPN transistor 2N3904 (or BC547), TO-92"
    if label == "1N5817":
        return "Schottky diode 1N5817"
    if label == "AP2112K-3.3":
        return "regulator AP2112K-3.3 (SOT-23-5, on an adapter)"
    return label


def _centre(assembly, name):
    return assembly.parts[name].solid.bounding_box().center()


def _length(points):
    """A route's length with the slack, rounded up to a whole ``WIRE_STEP_MM``."""
    run = sum(
        abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])
        for a, b in zip(points, points[1:], strict=False)
    )
    return int(math.ceil((run + SLACK_MM) / WIRE_STEP_MM) * WIRE_STEP_MM)


def _ends(assembly):
    """[(from, to, count, start point, end point, far end)] every wire's two ends."""
    from build123d import Vector

    f = assembly.frame
    layout = perfboard.parts(assembly.board)
    out = []
    for header, target in HEADER_TO.items():
        (col, row), pads, _, _ = layout[header]
        x, y = f.pad_xy(col + (len(pads) - 1) / 2, row)
        start = Vector(x, y, f.pb_z + 1.6 + PARTS["pin_header"]["size"][2])
        out.append((header, target, len(pads), start, _centre(assembly, target), "housing"))
    for holder in sorted(n for n in assembly.parts if n.startswith("cell_holder")):
        ends = (_centre(assembly, holder), _centre(assembly, "charger"))
        out.append((holder, "charger", 2, *ends, "solder"))
    ends = (_centre(assembly, "charger"), _centre(assembly, "power_switch"))
    out.append(("charger", "power_switch", 1, *ends, "solder"))
    return out


def _over(assembly):
    """The height the wires cross at: over the controller, under the levers' cages."""
    return assembly.frame.ctl_top + 3.0


def route(start, end, over):
    """A wire's way: up from ``start`` to ``over`` (mm, over the boards), across
    along y, then along x, then down to ``end``: along the case's axes, as it is
    measured and laid."""
    s, e = (start.X, start.Y, start.Z), (end.X, end.Y, end.Z)
    return [s, (s[0], s[1], over), (s[0], e[1], over), (e[0], e[1], over), e]


def wire_routes(assembly):
    """[(label, [points])] every wire's way, for the routing picture."""
    over = _over(assembly)
    return [(a, route(p, q, over)) for a, _, _, p, q, _ in _ends(assembly)]


def wires(assembly):
    """[(from, to, count, length mm, far end)] every wire: each header's wires to
    its part ("housing": a Dupont housing on the header), and the power path: the
    cell's holder to the charger's B+ and B-, the charger's OUT+ through the switch
    to the perfboard's battery header, its OUT- to the same header ("solder")."""
    over = _over(assembly)
    return [(a, b, n, _length(route(p, q, over)), how) for a, b, n, p, q, how in _ends(assembly)]


def print_rows(assembly):
    """[(piece, how it lies, size on the bed mm, fits BED_MM, walls, infill, supports,
    brim)] for every printed piece (a shell too wide for the bed as its halves)."""
    from tools.case import fits, joints
    from tools.case.cad import WALL_MM

    lying = {"+z": "as drawn, its underside down", "-z": "upside down, its top on the bed",
             "-y": "on its front face", "+y": "on its back face"}  # fmt: skip
    out = []
    for name, part in joints.printed_pieces(assembly):
        solid = fits.on_bed(part)
        bb = solid.bounding_box()
        size = (round(bb.size.X, 1), round(bb.size.Y, 1), round(bb.size.Z, 1))
        contact = sum(face.area for face in solid.faces() if face.bounding_box().max.Z < 1e-3)
        shell = name.split("_")[0] in ("body", "base", "front", "door")
        out.append(
            (
                name,
                lying[part.bed],
                size,
                joints.on_the_bed(part),
                "%d perimeters (%.1f mm)" % (round(WALL_MM / 0.4), WALL_MM),
                "20 % gyroid" if shell else "100 %",
                "none (checked)",
                "5 mm" if contact < SMALL_CONTACT_MM2 else "none",
            )
        )
    return out


def largest_on_bed(assembly):
    """(part, its longest side on the bed mm)."""
    rows = print_rows(assembly)
    name, _, size, *_ = max(rows, key=lambda row: max(row[2][:2]))
    return name, max(size[:2])


def mounts_text(assembly):
    return ", ".join(
        "%s (%s)" % (what, name) for name, what, _ in MOUNTS[assembly.parts["controller"].kind]
    )


# What the maker does at each step (tools.case.cad.STEPS): the parts, screws and
# inserts of the step are read off the model and listed under it.
STEP_TEXT = {
    "front": "Press the front panel's M2 inserts into its bosses (a soldering iron at "
    "220 C). Solder the keys to the key board and screw it to its "
    "two bosses; lay each display against its window between its ribs and screw "
    "its clamp across its back.",
    "body": "Press the body's inserts in (the four columns' foot and side holes). "
    "Push each LED into its sleeve from below until its flange stops it (a drop of "
    "glue); slide each microswitch into its cage, plunger up, from the open side "
    "towards the middle, and fix it with a drop of glue.",
    "levers": "Press an M2 insert into each cap's stem. Put the stem through the top "
    "from outside, hold the keeper under it and screw them together from below, "
    "through the cage floor's hole.",
    "base": "Press the base's M2 inserts into the perfboard's standoffs and the door's "
    "bosses. Lay the cell holder open side down between its stops, the charger on its "
    "pad against the back wall, the buzzer in its ring and the power switch on its "
    "pedestal (a drop of glue under the charger and the switch: the stop in front of "
    "the charger takes the plug's push), and wire the cell, the charger and the switch "
    "as the power drawing shows.",
    "board": "Solder the controller's two sockets, the headers and the small parts on "
    "the perfboard (the layout below), plug the controller in on its male headers and "
    "screw the perfboard onto the base's standoffs; plug every wire's housing onto its "
    "header.",
    "close": "Lower the body onto the base, the wires tucked along the walls, and screw "
    "them together from below into the columns.",
    "fasten": "Set the front against the body and screw it to the front columns.",
    "cell": "Put the cell in through the door's opening, plus end to the holder's plus "
    "contact, screw the door on and stick the feet on.",
}


def _what(name, part, assembly):
    if part.kind.startswith("screw"):
        kind = (
            "pan head M2" if part.kind == "screw_m2_pan" else "countersunk " + part.kind[6:].upper()
        )
        return "%s x %g screw" % (kind, assembly.lengths[name])
    if part.kind.startswith("insert"):
        return "%s insert" % part.kind[7:].upper()
    if part.kind in _HEADER_WORDS:
        return _HEADER_WORDS[part.kind]
    if part.printed:
        return "printed " + name.rstrip("_0123456789").replace("_left", "").replace(
            "_right", ""
        ).replace("_", " ")
    base = name.replace("_left", "").replace("_right", "").rstrip("_0123456789")
    return base.replace("_", " ")


_HEADER_WORDS = {
    "socket_header": "socket strip for the controller",
    "controller_header": "male header under the controller",
    "pin_header": "pin header",
}


def step_parts(assembly, step):
    """'2 x display, 1 x key board, ...': what goes in at ``step``, counted."""
    counts = {}
    for name, part in sorted(assembly.parts.items()):
        if part.step != step or part.kind in WITH_ANOTHER:
            continue
        what = _what(name, part, assembly)
        counts[what] = counts.get(what, 0) + 1
    return ", ".join("%d x %s" % (n, what) for what, n in sorted(counts.items()))


def wires_picture(board_name):
    return "pictures/wires-%s.png" % board_name


def step_picture(board_name, index, step):
    return "pictures/step-%s-%d-%s.png" % (board_name, index, step)


def markdown(assembly, board_name):
    """The generated part of docs/build.md for ``board_name``: the steps, each with
    its picture and what goes in; every wire; what to buy; how to print."""
    from tools.case.cad import STEPS

    out = ["#### Putting it together", ""]
    for index, (step, _, _) in enumerate(STEPS, 1):
        out.append("%d. **%s.** %s" % (index, step.capitalize(), STEP_TEXT[step]))
        out.append("   What goes in: %s." % step_parts(assembly, step))
        out.append("")
        out.append("   ![Step %d, %s](%s)" % (index, step, step_picture(board_name, index, step)))
        out.append("")
    out += [
        "#### The wires",
        "",
        "Each wire measured in the model along the walls, with %d mm to bend and "
        "crimp, cut to whole centimetres; each runs up from its header to just over the "
        "controller, along the case to its part, and down (the picture: every wire's way, "
        "seen from above with the body's top left off):" % SLACK_MM,
        "",
        "![Every wire's way](%s)" % wires_picture(board_name),
        "",
    ]
    out += ["| from | to | wires | length mm | the far end |", "|---|---|---|---|---|"]
    for start, end, count, length, ends in wires(assembly):
        how = "a Dupont housing on the header" if ends == "housing" else "soldered"
        out.append("| %s | %s | %d | %d | %s |" % (start, end, count, length, how))
    out += [
        "",
        "#### What to buy",
        "",
        "The controller goes in on its male headers: %s." % mounts_text(assembly),
        "",
    ]
    out += ["| qty | part | goes in at | where to buy |", "|---|---|---|---|"]
    for qty, what, step in bill(assembly):
        out.append("| %d | %s | %s | %s |" % (qty, what, step or "every step", source(what)))
    out += [
        "",
        "#### Printing each part",
        "",
        "0.4 mm nozzle, 0.2 mm layers, PLA or PETG; every part fits a %g x %g mm bed:" % BED_MM,
        "",
    ]
    out += [
        "| part | lies on the bed | size on the bed mm | fits | walls | infill | supports | brim |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, lying, size, fits_bed, walls, infill, supports, brim in print_rows(assembly):
        out.append(
            "| %s | %s | %s | %s | %s | %s | %s | %s |"
            % (
                name,
                lying,
                " x ".join("%g" % v for v in size),
                "yes" if fits_bed else "**no**",
                walls,
                infill,
                supports,
                brim,
            )
        )
    return "\n".join(out) + "\n"
