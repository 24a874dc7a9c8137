"""The printable enclosure: closed solids, parts that fit, windows over the digits, and
pictures that are the ones the board data gives (tools/case, docs/build.md)."""

import os
import struct
import types

import pytest

import boards
from tests.scripting import ROOT
from tools.case import checks, mesh, model, parts, render
from tools.case.__main__ import CASE_BOARDS, picture_path


def board_with(name, **changes):
    board = boards.load(name)
    copy = types.SimpleNamespace(**{k: getattr(board, k) for k in dir(board) if k.isupper()})
    copy.__dict__.update(changes)
    return copy


@pytest.fixture(scope="module")
def layouts():
    return {name: model.layout(boards.load(name)) for name in CASE_BOARDS}


@pytest.mark.parametrize("name", CASE_BOARDS)
def test_every_printed_part_is_a_closed_manifold(layouts, name):
    for part, steps in layouts[name].printed.items():
        tris = mesh.triangles(mesh.Solid(steps))
        assert len(tris) >= 12, part
        assert mesh.manifold_problems(tris) == [], part


def test_the_manifold_check_finds_a_hole_and_an_edge_shared_by_four():
    cube = mesh.triangles(mesh.Solid([("add", [(0, 0, 0, 1, 1, 1)])]))
    assert len(cube) == 12 and mesh.manifold_problems(cube) == []
    assert mesh.manifold_problems(cube[1:])  # one triangle gone: an open edge
    # two cubes meeting along one edge only: that edge has four faces
    touching = mesh.Solid([("add", [(0, 0, 0, 1, 1, 1), (1, 1, 0, 2, 2, 1)])])
    assert any("2 forward" in p for p in mesh.manifold_problems(mesh.triangles(touching)))


def test_stl_has_its_header_count_and_fifty_bytes_a_facet():
    tris = mesh.triangles(mesh.Solid([("add", [(0, 0, 0, 10, 20, 30)])]))
    data = mesh.stl_bytes(tris, "box")
    assert len(data) == 84 + 50 * 12
    assert struct.unpack("<I", data[80:84])[0] == 12
    corners = struct.unpack("<12f", data[84:132])[3:]
    assert max(corners) == 30.0  # millimetres, not grid units


@pytest.mark.parametrize("name", CASE_BOARDS)
def test_every_board_case_passes_its_checks(layouts, name):
    layout = layouts[name]
    assert checks.problems(layout) == []
    clearances = checks.fit(layout)
    for placed in layout.placed:
        assert clearances[placed.name][0] >= checks.required(placed), placed.name
    assert checks.thinnest_wall(layout) >= model.WALL_MM
    assert checks.overlaps(layout) == []


def test_a_part_too_close_to_a_wall_is_found():
    layout = model.layout(boards.load("pico"))
    cells = [p for p in layout.placed if p.name == "cells_1"][0]
    b = cells.boxes[0]
    cells.boxes = [b[:4] + (round(b[4] + 0.4, 2),) + b[5:]]  # 0.1 mm from the back wall
    assert any(p.startswith("cells_1: 0.10 mm from shell") for p in checks.problems(layout))
    cells.boxes = [b[:4] + (round(b[4] + 0.6, 2),) + b[5:]]  # into the back wall
    assert checks.fit(layout)["cells_1"][0] == 0.0


def test_a_thin_web_is_found():
    layout = model.layout(boards.load("pico"))
    x0, z0, x1, z1 = layout.windows[0]
    # a hole 1 mm above the left window: a 1 mm web between them
    layout.printed["shell"].append(("cut", [(x0, -1, z1 + 1.0, x1, 3.4, z1 + 3.0)]))
    assert checks.thinnest_wall(layout) == 1.0
    assert any("under 2.40 mm" in p for p in checks.problems(layout))


def test_overlapping_parts_are_found():
    layout = model.layout(boards.load("pico"))
    key = [p for p in layout.placed if p.name == "key_play"][0]
    display = [p for p in layout.placed if p.name == "display_left"][0]
    key.boxes = list(display.boxes)
    assert ("display_left", "key_play") in checks.overlaps(layout)


def test_the_windows_uncover_the_digits_worked_by_hand(layouts):
    # 0.56": wall 2.4 + side 8 = 10.4 to the display; its 50.4 mm face holds 42 mm of
    # digits centred, 4.2 mm in; the window 1 mm wider: 13.6 to 57.6. Up: the display
    # from 2.4 + 8 = 10.4, 19 high, centre 19.9; 14.2 mm digits: 12.8 to 27.0, the
    # window 11.8 to 28.0.
    pico = layouts["pico"]
    assert pico.windows[0] == pytest.approx((13.6, 11.8, 57.6, 28.0))
    # 1.2": the display's 120 mm face holds 108 mm of digits, 6 mm in: 15.4 to 125.4;
    # 44.5 high from 10.4, centre 32.65, 30.5 mm digits: 17.4 to 47.9, the window 16.4
    # to 48.9.
    big = layouts["pico_big"]
    assert big.windows[0] == pytest.approx((15.4, 16.4, 125.4, 48.9))
    for layout in (pico, big):
        assert checks.window_problems(layout) == []


def test_a_bigger_display_moves_the_windows_and_a_wrong_window_is_found():
    small = model.layout(board_with("pico"))
    big = model.layout(board_with("pico", DISPLAY_KIND="1.2in"))
    assert small.windows != big.windows
    assert big.outer[0] > small.outer[0] + 2 * (120.0 - 50.4) - 0.01
    # the small display's windows on the big display's case leave digits covered
    big.windows = small.windows
    assert any("covers its digits" in p for p in checks.window_problems(big))


@pytest.mark.parametrize("name", CASE_BOARDS)
def test_the_committed_pictures_are_the_board_datas(layouts, name):
    for which in ("front", "top"):
        with open(os.path.join(ROOT, picture_path(name, which)), "rb") as handle:
            committed = handle.read()
        assert committed == render.png_bytes(layouts[name], which), (
            "%s is stale: make docs" % picture_path(name, which)
        )


def test_the_build_guide_lists_the_parts_table():
    with open(os.path.join(ROOT, "docs", "build.md")) as handle:
        text = handle.read()
    assert parts.parts_table() in text
    for name in CASE_BOARDS:
        for which in ("front", "top"):
            assert "pictures/case-%s-%s.png" % (name, which) in text
