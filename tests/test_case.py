"""The clock's CAD model: every part in it, the fits the kernel measures, each check
seen failing on a model broken on purpose (tools/case, docs/build.md).

The model is built once per session (the Pico's, a few seconds); the checks that
need every pair of parts (interference, clearances) and the thickness and support
checks of every board run in ``make case`` and ``make bench``, here on small
solids made to fail and pass at their limits. Needs build123d: ``make case-tools``.
"""

import os
import re
import struct
import types

import pytest

import boards
from tests.scripting import ROOT
from tools.case import limits, parts
from tools.case.__main__ import CASE_BOARDS, GUIDE_BOARD, VIEWS, guide_block, picture_path
from tools.case.limits import TOLERANCE_MM

# one worker builds the Pico's model once for every test here
pytestmark = pytest.mark.xdist_group("case-model")
# the kernel's modules, bound by _kernel when a test here first runs: every
# worker collects this file, and importing the kernel costs seconds
cad = figures = fits = stl = box = rod = None


@pytest.fixture(autouse=True, scope="session")
def _kernel():
    pytest.importorskip(
        "build123d", reason="build123d is not installed: make case-tools", exc_type=ImportError
    )
    from tools.case import cad, figures, fits, stl

    globals().update(cad=cad, figures=figures, fits=fits, stl=stl, box=cad.box, rod=cad.rod)


@pytest.fixture(scope="session")
def pico(_kernel):
    return cad.assembly(boards.load("pico"))


def little(*named):
    """An assembly of a few named solids: (name, solid, touches, bed)."""
    a = cad.Assembly(types.SimpleNamespace())
    for name, solid, touches, bed in named:
        a.add(name, "printed" if bed else "key", solid, touches, bed=bed)
    return a


def test_every_part_the_clock_contains_is_in_the_model(pico):
    names = set(pico.parts)
    for name in [
        "display_left", "display_right", "controller", "perfboard", "header_mcu",
        "header_mcu_r", "cell", "cell_holder", "buzzer", "power_switch", "charger",
        "switch_left", "switch_right", "lever_left", "lever_right", "keeper_left",
        "keeper_right", "key_play", "key_set", "key_plus", "key_minus", "key_board",
        "led_left", "led_right", "front", "body", "base", "door",
    ]:  # fmt: skip
        assert name in names, name
    # one header per off-board part of the perfboard layout
    for name in ("J_display_left", "J_display_right", "J_lever_left", "J_play", "J_buzzer"):
        assert "header_" + name in names
    # every insert has its screw, and the case closes with eight M3 screws
    screws = [n for n in names if n.startswith("screw_")]
    inserts = [n for n in names if n.startswith("insert_")]
    assert len(screws) == len(inserts) and len(screws) >= 20
    assert len([n for n in screws if n.startswith("screw_m3")]) == 8
    for part in pico.parts.values():
        assert part.solid.is_valid and part.solid.volume > 0, part.name
        for other in part.touches:
            assert other in pico.parts, (part.name, other)


def test_the_perfboard_fits_inside_the_walls(pico):
    # the Pico's layout: 32 x 27 holes of 2.54 mm, 81.3 x 68.6 mm
    board = pico.parts["perfboard"].solid.bounding_box()
    assert board.size.X == pytest.approx(32 * 2.54) and board.size.Y == pytest.approx(27 * 2.54)
    width, depth, _ = pico.outer
    t = cad.WALL_MM
    assert board.min.X >= t + cad.COLUMN_MM and board.max.X <= width - t
    assert board.min.Y >= pico.parts["clamp_left"].solid.bounding_box().max.Y
    assert board.max.Y <= depth - t - cad.BOARD_EDGE_MM + 1e-6
    # its four screws are the drawing's, a hole in from each corner
    heads = [
        p for p in pico.parts.values() if "perfboard" in p.touches and p.kind == "screw_m2_pan"
    ]
    assert len(heads) == 4
    for head in heads:
        centre = head.solid.bounding_box().center()
        col = (centre.X - board.min.X) / 2.54 - 0.5
        row = (board.max.Y - centre.Y) / 2.54 - 0.5
        assert (round(col, 6), round(row, 6)) in {(1, 1), (30, 1), (1, 25), (30, 25)}


def test_every_countersunk_head_sits_in_a_countersink_and_one_on_a_board_is_found(pico):
    assert fits.heads(pico) == []
    pans = [p for p in pico.parts.values() if p.kind == "screw_m2_pan"]
    assert {t for p in pans for t in p.touches if not t.startswith("insert")} == {
        "perfboard",
        "key_board",
    }
    pico.add("screw_m2_99", "screw_m2", box(0, 0, 0, 1, 1, 1), ("key_board",))
    try:
        assert fits.heads(pico) == [
            "screw_m2_99: a countersunk head on key_board, which has no countersink"
        ]
    finally:
        del pico.parts["screw_m2_99"]


def test_the_windows_uncover_the_digits_worked_by_hand(pico):
    # wall 2.4 + side 12 = 14.4 to the display; its 50.4 mm face holds 42 mm of digits
    # centred, 4.2 mm in: 18.6 to 60.6, the window 1 mm wider each side. Up: the
    # display from 2.4 + 8 = 10.4, 19 high, centre 19.9; 14.2 mm digits: 12.8 to 27.0.
    assert pico.windows[0] == pytest.approx((17.6, 11.8, 61.6, 28.0))
    front = pico.parts["front"].solid
    x0, z0, x1, z1 = pico.windows[0]
    # the kernel's front panel is open there: a probe through the window meets nothing
    assert (front & box(x0 + 0.1, -1, z0 + 0.1, x1 - 0.1, 3, z1 - 0.1)).volume < 1e-6
    assert (front & box(x0 - 1.0, -1, z0, x0 - 0.1, 3, z1)).volume > 1.0


def test_the_cell_leaves_through_its_door_and_a_rib_across_it_is_found(pico):
    assert fits.cell_path(pico) == []
    swept = fits.swept_cell(pico, pico.cell_paths[0]).bounding_box()
    assert swept.min.Z < -cad.LID_LIP_MM  # out past the door's lip
    cell = pico.parts["cell"].solid.bounding_box()
    # a rib 1 x 1 mm across the opening, wider than the cell: the 19.1 mm of it under
    # the cell is in the way, 19.1 mm3
    rib = box(cell.min.X - 2, cell.center().Y, 0.5, cell.max.X + 2, cell.center().Y + 1, 1.5)
    pico.add("rib", "key", rib)
    try:
        assert fits.cell_path(pico) == ["cell's way out through door meets rib (19.1 mm3)"]
    finally:
        del pico.parts["rib"]


def test_both_usb_sockets_are_reachable_and_a_blocked_one_is_found(pico):
    assert {owner for owner, _, _ in pico.usb} == {"controller", "charger"}
    assert fits.usb_reach(pico) == []
    _, _, (x, y, z) = [u for u in pico.usb if u[0] == "controller"][0]
    pico.add("obstacle", "key", box(x - 1, y + 7, z - 1, x + 1, y + 8, z + 1))
    try:
        assert fits.usb_reach(pico) == ["the controller's plug meets obstacle (4.0 mm3)"]
    finally:
        del pico.parts["obstacle"]


def test_every_insert_has_its_boss_and_a_thin_one_is_found(pico):
    assert fits.bosses(pico) == []
    hole = parts.PARTS["insert_m2"]["hole_mm"]
    for wall, found in ((cad.BOSS_WALL_MM, False), (cad.BOSS_WALL_MM - 0.2, True)):
        boss = rod((0, 0, 0), "+z", 4.0, hole + 2 * wall) - rod((0, 0, -1), "+z", 6, hole)
        a = little(("post", boss, (), "+z"))
        a.bosses.append(("post", "insert_m2_1", (0, 0, 0), "+z", 4.0))
        assert bool(fits.bosses(a)) == found, wall


def test_every_part_is_one_piece_and_a_sliver_cut_off_is_found(pico):
    assert fits.pieces(pico) == []
    # a 2.6 mm hole at a perfboard's corner pad (1.27 mm from both edges) breaks
    # through both and leaves the corner a sliver; a pitch further in it does not
    plate = box(0, 0, 0, 20, 20, 1.6) - rod((1.27, 1.27, -1), "+z", 4, 2.6)
    whole = box(0, 0, 0, 20, 20, 1.6) - rod((3.81, 3.81, -1), "+z", 4, 2.6)
    a = little(("broken", plate, (), None), ("whole", whole, (), None))
    assert fits.pieces(a) == ["broken is 2 pieces, not one"]


def test_overlapping_parts_are_found_and_touching_ones_are_not():
    a = little(
        ("a", box(0, 0, 0, 10, 10, 10), (), None),
        ("b", box(9, 0, 0, 19, 10, 10), (), None),  # 1 x 10 x 10 in common
        ("c", box(19, 0, 0, 29, 10, 10), ("b",), None),  # touches b
    )
    assert fits.interference(a) == {("a", "b"): 100.0}


@pytest.mark.parametrize("gap", [TOLERANCE_MM, TOLERANCE_MM - 0.01])
def test_a_clearance_under_the_tolerance_is_found_at_the_limit(gap):
    a = little(
        ("a", box(0, 0, 0, 10, 10, 10), (), None),
        ("b", box(10 + gap, 0, 0, 20, 10, 10), (), None),
        ("c", box(20, 0, 0, 30, 10, 10), ("b",), None),  # touches b, as it may
    )
    found = [p for p in fits.problems(a, full=False) if "apart" in p]
    assert found == ([] if gap >= TOLERANCE_MM else ["a and b are 0.29 mm apart, under 0.3 mm"])


@pytest.mark.parametrize("thick", [limits.MIN_THICKNESS_MM, limits.MIN_THICKNESS_MM - 0.1])
def test_a_plate_thinner_than_the_least_is_found_at_the_limit(thick):
    a = little(("plate", box(0, 0, 0, 30, 20, thick), (), "+z"))
    assert bool(fits.thickness(a)) == (thick < limits.MIN_THICKNESS_MM)


@pytest.mark.parametrize(
    "span, bed, found",
    [
        (limits.BRIDGE_MM, "+z", False),  # a bridge at its limit
        (limits.BRIDGE_MM + 1, "+z", True),  # past it
        (limits.BRIDGE_MM + 1, "-z", False),  # the same part turned over: flat on the bed
    ],
)
def test_a_face_over_air_is_found_unless_bridged_or_turned_over(span, bed, found):
    # two posts and a beam across: an arch, its underside a bridge of ``span``
    arch = box(0, 0, 0, 3, 10, 10) + box(3 + span, 0, 0, 6 + span, 10, 10)
    arch = arch + box(0, 0, 10, 6 + span, 10, 12)
    a = little(("arch", arch, (), bed))
    assert bool(fits.supports(a)) == found


def test_every_printed_part_of_the_pico_prints_without_support_and_is_thick_enough(pico):
    assert fits.supports(pico) == []
    assert fits.thickness(pico) == []


def test_the_lever_operates_its_switch_within_its_overtravel():
    switch = parts.PARTS["microswitch"]
    travel, operate, over = figures.lever_travel()
    assert operate == pytest.approx(cad.LEVER_GAP_MM + switch["pretravel_mm"])
    assert operate < travel and 0 < over <= switch["overtravel_mm"]
    assert figures.lever_problems() == []
    # at the limit: the whole overtravel used; past it, and a lever that never operates
    limit = cad.LEVER_GAP_MM + switch["pretravel_mm"] + switch["overtravel_mm"]
    assert figures.lever_problems(travel=limit) == []
    assert "past operating" in figures.lever_problems(travel=limit + 0.01)[0]
    assert "before its switch" in figures.lever_problems(travel=operate - 0.01)[0]
    # at least 0.4 mm after the datasheet's latest operating point: at it, and short of it
    assert figures.MIN_OVERTRAVEL_MM == 0.4 and over >= figures.MIN_OVERTRAVEL_MM
    assert figures.lever_problems(travel=operate + 0.4) == []
    assert "under 0.4 mm" in figures.lever_problems(travel=operate + 0.39)[0]


def test_a_lever_lands_on_its_cap_and_a_shoulder_in_the_stems_way_is_found(pico):
    assert fits.strokes(pico) == []
    assert fits.landing_mm2(pico, "lever_left") > 500  # the cap's underside on the top
    # a shoulder 1.0 mm under the top, in the stem's way (where the cage's walls stood
    # before the way was cut for the whole stroke): met before the cap lands
    stem = pico.parts["lever_left"].solid.bounding_box()
    z_top = pico.frame.z_top
    cx, cy = stem.center().X, pico.parts["keeper_left"].solid.bounding_box().center().Y
    pico.add(
        "shoulder", "key", box(cx - 4.0, cy + 3.0, z_top - 2.0, cx + 4.0, cy + 4.0, z_top - 1.0)
    )
    try:
        assert fits.strokes(pico) == [
            "lever_left: pressed 1.19 mm, lever_left meets shoulder",
            "lever_left: pressed 1.21 mm, lever_left meets shoulder",
        ]
    finally:
        del pico.parts["shoulder"]


@pytest.mark.parametrize("proud, found", [(0.0, False), (0.05, True)])
def test_nothing_stands_over_the_top_but_the_levers_at_the_limit(pico, proud, found):
    assert fits.sweep(pico) == []
    assert fits.led_clearance_mm(pico) >= 0.5  # each LED's dome under the top's face
    w, d, h = pico.outer
    pico.add("dome", "key", rod((w / 2, d / 2, h - 5), "+z", 5 + proud, 10))
    try:
        assert bool(fits.sweep(pico)) == found
    finally:
        del pico.parts["dome"]


def test_the_controller_fits_on_every_mount_and_a_plug_blocked_on_one_is_found(pico):
    lifts = {name: lift for name, _, lift in parts.MOUNTS["pico"]}
    assert lifts == {"pico_h": 2.5, "pico_soldered": 3.0}
    assert fits.mount_problems(pico) == []
    clear = fits.usb_clearances(pico)
    assert set(clear) == set(lifts) and min(clear.values()) >= 0
    # the controller stands on its headers' plastic, not on the socket
    ctl = pico.parts["controller"].solid.bounding_box()
    assert ctl.min.Z == pytest.approx(pico.frame.sock_z + 2.5)
    # a block where only the highest mount's plug passes: found there alone
    _, _, (x, y, z) = [u for u in pico.usb if u[0] == "controller"][0]
    top = z + 0.5 + parts.PARTS["usb_micro_plug"]["metal"][2] / 2
    pico.add("block", "key", box(x - 1, y + 1, top - 0.1, x + 1, y + 2, top + 0.5))
    try:
        found = fits.mount_problems(pico)
        assert found and all(
            p.startswith("pico_soldered: the controller's plug meets block") for p in found
        )
    finally:
        del pico.parts["block"]


def test_the_door_lets_out_the_longest_protected_cell(pico):
    cd, clen = parts.PARTS["cell_holder"]["cell"]
    assert (cd, clen) == (19.1, 70.0)  # 65 mm bare + 3 mm protection, 0.5 mm wider
    cell = pico.parts["cell"].solid.bounding_box()
    assert cell.size.Y == pytest.approx(70.0)
    # the opening measured on the base: the cell's length and the clearance each end
    assert figures.cell_opening_mm(pico) == pytest.approx(70.0 + 2 * cad.CLEARANCE_MM)
    # the door's opening in the base, probed just inside its ends: open over the cell
    base = pico.parts["base"].solid
    probe = box(
        cell.center().X - 1, cell.min.Y + 0.1, 0.5, cell.center().X + 1, cell.max.Y - 0.1, 1.5
    )
    assert (base & probe).volume < 1e-6
    # the end contacts are in the model, beyond the cell's ends, and its way out is clear
    for end in ("minus", "plus"):
        contact = pico.parts["cell_contact_" + end].solid.bounding_box()
        assert contact.max.Y <= cell.min.Y + 1e-6 or contact.min.Y >= cell.max.Y - 1e-6
    assert fits.cell_path(pico) == []


def test_a_printed_part_is_written_as_a_closed_stl_and_a_hole_is_found(tmp_path, pico):
    from build123d import export_stl

    path = tmp_path / "door.stl"
    export_stl(fits.on_bed(pico.parts["door"]), str(path), tolerance=0.05)
    data = path.read_bytes()
    assert stl.problems(data) == []
    count = struct.unpack("<I", data[80:84])[0]
    assert count > 12
    # one facet gone: a hole, three edges with one facet only
    holed = data[:80] + struct.pack("<I", count - 1) + data[84 : 84 + 50 * (count - 1)]
    assert stl.problems(holed)[0].startswith("3 edges not shared")
    # the header's count wrong
    assert "not the 84 + 50" in stl.problems(data[:-50])[0]
    # a facet turned inside out: its three edges run the same way as their neighbours'
    first = 84
    a, b, c = (data[first + 12 + 12 * k : first + 24 + 12 * k] for k in range(3))
    flipped = data[: first + 12] + a + c + b + data[first + 48 :]
    assert "not shared once each way" in stl.problems(flipped)[0]


def test_a_part_turned_onto_its_face_is_written_with_every_edge_shared_exactly(tmp_path, pico):
    # The clamps and the keepers lie on the bed turned a quarter or half turn; a turn
    # built from degrees left their bed face's corners 2e-16 mm apart, an edge open to
    # an exact reader (admesh joins it, "edges fixed").
    from build123d import Location, Rot, export_stl

    part = pico.parts["clamp_left"]
    assert part.bed == "-y"
    path = tmp_path / "clamp.stl"
    export_stl(fits.on_bed(part), str(path), tolerance=0.02, angular_tolerance=0.2)
    assert stl.problems(path.read_bytes()) == []
    # the same part turned by degrees: corners a rounding apart, found
    turned = Rot(90, 0, 0) * part.solid
    turned = Location((0, 0, -turned.bounding_box().min.Z)) * turned
    export_stl(turned, str(path), tolerance=0.02, angular_tolerance=0.2)
    assert "not shared once each way" in stl.problems(path.read_bytes())[0]
    repairs = stl.admesh_repairs(str(path))
    if repairs is not None:  # admesh (make case-tools) joins those edges
        assert repairs.get("edges fixed", 0) > 0
        export_stl(fits.on_bed(part), str(path), tolerance=0.02, angular_tolerance=0.2)
        assert stl.admesh_repairs(str(path)) == {}


def test_the_build_guide_lists_the_parts_table_and_the_pictures():
    with open(os.path.join(ROOT, "docs", "build.md")) as handle:
        text = handle.read()
    assert parts.parts_table() in text
    for name in CASE_BOARDS:
        for which in VIEWS:
            assert "pictures/case-%s-%s.png" % (name, which) in text
            assert os.path.exists(os.path.join(ROOT, picture_path(name, which)))


def test_the_build_guide_says_what_the_pico_model_says(pico):
    from tools.case import guide

    with open(os.path.join(ROOT, "docs", "build.md")) as handle:
        text = handle.read()
    assert guide_block(GUIDE_BOARD, guide.markdown(pico, GUIDE_BOARD)) in text
    for index, (step, _, _) in enumerate(cad.STEPS, 1):
        assert os.path.exists(os.path.join(ROOT, "docs", guide.step_picture("pico", index, step)))
    assert os.path.exists(os.path.join(ROOT, "docs", guide.wires_picture("pico")))
    # every screw and insert of the model is bought, by its size and length
    bill = guide.bill(pico)
    screws = [p for n, p in pico.parts.items() if n.startswith("screw_")]
    listed = sum(qty for qty, what, _ in bill if "screw" in what)
    assert listed == len(screws) == sum(qty for qty, what, _ in bill if "insert" in what)
    assert (8, "countersunk screw ISO 10642 M3 x 6", "") in bill  # the case's eight
    # every line says where to buy it; the generic ones any electronics shop has
    assert guide.source("Omron D2F-01 (pin plunger, 1.47 N)") == "DigiKey, Mouser, Farnell"
    assert guide.source("resistor 100 ohm, 1/4 W") == guide.ANY_SHOP
    # a wire for every pad of every header, and the power path's five
    wires = guide.wires(pico)
    headers = {h for h, *_ in wires if h.startswith("J_")}
    assert headers == set(guide.HEADER_TO)
    assert all(
        length % guide.WIRE_STEP_MM == 0 and length > guide.SLACK_MM for *_, length, _ in wires
    )
    # a part changed in the model is a page that no longer matches
    pico.lengths["screw_m3_1"] = 8.0
    try:
        assert guide_block(GUIDE_BOARD, guide.markdown(pico, GUIDE_BOARD)) not in text
    finally:
        pico.lengths["screw_m3_1"] = 6.0


@pytest.mark.parametrize("name", CASE_BOARDS)
def test_each_boards_power_drawing_is_drawn_from_its_definition(name):
    from tools.case import power_drawing

    board = boards.load(name)
    with open(os.path.join(ROOT, "docs", "pictures", "power-%s.svg" % name)) as handle:
        assert handle.read() == power_drawing.svg(board)
    wires = power_drawing.connections(board)
    # the switch is between the charger's protected output and everything else
    assert ("charger.OUT+", "switch.in", "protected +") in wires
    assert ("switch.out", "J_battery.+", "switched +") in wires
    supply = {"esp32": "U_reg.IN"}.get(name, "D_battery.A")
    assert ("J_battery.+", supply, "cell +") in wires


def test_every_printed_part_fits_the_bed_of_most_printers(pico):
    from tools.case import guide

    assert guide.BED_MM == (220.0, 220.0)
    rows = guide.print_rows(pico)
    assert {row[0] for row in rows} == {n for n, p in pico.parts.items() if p.printed}
    assert all(row[3] for row in rows)
    name, longest = guide.largest_on_bed(pico)
    assert name in ("body", "base", "front") and longest <= 220.0


@pytest.mark.parametrize("width, halves", [(220.0, False), (220.01, True)])
def test_a_shell_wider_than_the_bed_is_printed_in_halves(width, halves):
    from tools.case import joints

    assert joints.BED_MM == (220.0, 220.0)
    assert joints.needed(width) == halves
    # a 300 mm plate does not fit the bed; its halves do, and each is one piece
    plate = little(("base", box(0, 0, 0, 300, 100, 2.4), (), "+z"))
    plate.outer = (300, 100, 2.4)
    assert not joints.on_the_bed(plate.parts["base"])
    left, right = joints.halves(plate.parts["base"], 150)
    assert left.bounding_box().size.X == pytest.approx(150) and len(right.solids()) == 1


def test_the_wide_case_is_joined_by_splice_bars_and_a_missing_screw_is_found(tmp_path):
    from tools.case import joints

    big = cad.assembly(boards.load("pico_big"))
    assert big.outer[0] > 220
    assert joints.problems(big) == []
    names = {name for name, _ in joints.printed_pieces(big)}
    assert {"body_left", "body_right", "base_left", "base_right", "front_left"} <= names
    assert all(joints.on_the_bed(piece) for _, piece in joints.printed_pieces(big))
    # the bars are parts like any other: nothing meets them
    bars = [name for name, _, _ in big.splices]
    assert len(bars) == 5
    for bar in bars:  # (the whole clock's pairs are make case's: minutes of the kernel)
        solid = big.parts[bar].solid
        met = [n for n, p in big.parts.items() if n != bar and fits._common(solid, p.solid) > 1e-3]
        assert met == [], bar
    # the front's upper bar, moved down onto the bed from 48.15 mm, has corners a
    # rounding apart (3.6e-15 mm) as the kernel writes it; on the STL's grid, none
    from build123d import export_stl

    path = os.path.join(str(tmp_path), "bar.stl")
    bar_part = big.parts["splice_front_upper"]
    export_stl(fits.on_bed(bar_part), path, tolerance=0.02, angular_tolerance=0.2)
    with open(path, "rb") as handle:
        assert "not shared once each way" in stl.problems(handle.read())[0]
    stl.export(bar_part, path)
    with open(path, "rb") as handle:
        assert stl.problems(handle.read()) == []
    assert stl.admesh_repairs(path) in ({}, None)
    # a bar that holds one half by one screw is found
    bar, shell, screws = big.splices[0]
    big.splices[0] = (bar, shell, screws[1:])
    assert joints.problems(big) == ["%s holds %s's left half by 1 screws" % (bar, shell)]


def test_the_build_guide_goes_in_the_order_of_the_exploded_view():
    with open(os.path.join(ROOT, "docs", "build.md")) as handle:
        text = handle.read()
    steps = re.findall(r"^\d+\. \*\*(\w+)\.\*\*", text, re.MULTILINE)
    assert [s.lower() for s in steps] == [step for step, _, _ in cad.STEPS]


def test_every_part_goes_in_at_a_step_of_the_guide(pico):
    known = {step for step, _, _ in cad.STEPS}
    assert {part.step for part in pico.parts.values()} <= known


@pytest.mark.parametrize(
    "length, fits_in", [(4.3, True), (4.29, False), (6.1, True), (6.11, False)]
)
def test_a_screw_must_end_in_its_insert_with_two_millimetres_of_thread(length, fits_in):
    from tools.case.drawing import _Fixings

    # head face at 0, the M2 insert's mouth 2.3 mm in (a 2.3 mm part), 4.0 mm long:
    # the screw must reach 2 mm into it (4.3 mm) and stop 0.2 mm short of its end (6.1)
    a = little()
    fix = _Fixings(a)
    if fits_in:
        fix.screw((0, 0, 0), "+z", "m2", length, 2.3, "through", "into", "close")
        assert {"screw_m2_1", "insert_m2_1"} <= set(a.parts)
    else:
        with pytest.raises(ValueError, match="does not end in its insert"):
            fix.screw((0, 0, 0), "+z", "m2", length, 2.3, "through", "into", "close")
