"""The perfboard layout's wires make the board definition's connections, no more, no less
(tools/case/perfboard.py, docs/build.md)."""

import os
import re

import pytest

import boards
from tests.scripting import ROOT
from tools.case import perfboard
from tools.case.__main__ import CASE_BOARDS


def expected_signal_nets(board):
    """Worked from the board file and the wiring tables of docs/boards.md, not from the
    layout: each GPIO the board names and the pads at the far end of its wire."""
    prefix = "GPIO" if board.CHIP == "esp32" else "GP"

    def mcu(pin):
        return "mcu.%s%d" % (prefix, pin)

    nets = {
        mcu(board.I2C_SDA): {"J_display_left.SDA", "J_display_right.SDA"},
        mcu(board.I2C_SCL): {"J_display_left.SCL", "J_display_right.SCL"},
        mcu(board.BUZZER_PIN): {"R_buzzer.1"},
        mcu(board.LED_LEFT): {"R_base_left.1"},
        mcu(board.LED_RIGHT): {"R_base_right.1"},
    }
    for name, pin in board.INPUTS.items():
        nets[mcu(pin)] = {"J_%s.SIG" % name}
    if not (board.CHIP == "rp2040" and board.BATTERY_ADC_PIN == 29):  # the Pico's own divider
        nets[mcu(board.BATTERY_ADC_PIN)] = {"R_div_top.2", "R_div_bottom.1"}
    return nets


def check_nets(board, got):
    """``got`` (the nets read back) against the board definition."""
    # what the layout means is the board definition: every GPIO it names
    # reaches its part, and no other GPIO of the controller is wired
    expected = expected_signal_nets(board)
    wired_gpios = {
        pad
        for net in got
        for pad in net
        if pad.startswith("mcu.GP") and pad.split(".")[1].lstrip("GPIO").isdigit()
    }
    assert wired_gpios == set(expected)
    for pad, far in expected.items():
        net = [n for n in got if pad in n][0]
        assert net == far | {pad}, pad  # nothing missing, nothing extra
    # power: every display, lever, key and the buzzer is grounded through one net
    ground = [n for n in got if "mcu.GND" in n][0]
    for header in ["J_display_left", "J_display_right", "J_buzzer"] + [
        "J_" + name for name in board.INPUTS
    ]:
        assert header + ".GND" in ground


@pytest.mark.parametrize("name", CASE_BOARDS)
def test_the_wires_make_the_board_definitions_nets(name):
    board = boards.load(name)
    pads = perfboard.pads(board)
    assert len(set(pads.values())) == len(pads)  # no two pads in one hole
    got = perfboard.extract(board)
    # the geometry makes what the layout means
    assert got == {frozenset(members) for _, members in perfboard.nets(board)}
    check_nets(board, got)


_SCALE = perfboard.PITCH_MM * perfboard.PX_PER_MM


def drawn_wires(text):
    """The wires of a drawing, read from its polylines: ((col, row), (col, row)) of
    each wire's ends, after checking every point is a hole and every stretch runs
    along a row or a column."""
    out = []
    for points in re.findall(r'<polyline points="([^"]+)"', text):
        holes = []
        for pair in points.split():
            x, y = (float(v) for v in pair.split(","))
            col = x / _SCALE - 0.5
            row = (y - perfboard.TITLE_PX) / _SCALE - 0.5
            assert abs(col - round(col)) < 0.01 and abs(row - round(row)) < 0.01, pair
            holes.append((round(col), round(row)))
        for a, b in zip(holes, holes[1:], strict=False):
            assert a[0] == b[0] or a[1] == b[1], "a wire across the grid: %s-%s" % (a, b)
        out.append((holes[0], holes[-1]))
    return out


@pytest.mark.parametrize("name", CASE_BOARDS)
def test_the_drawn_wires_run_along_the_grid_and_make_the_board_definitions_nets(name):
    board = boards.load(name)
    with open(os.path.join(ROOT, "docs", "pictures", "perfboard-%s.svg" % name)) as handle:
        text = handle.read()
    wires = drawn_wires(text)
    assert len(wires) == len(perfboard.wires(board))
    check_nets(board, perfboard.extract(board, wires))


def drawn_labels(text):
    """(box, text) of every label, its width estimated as the drawing does."""
    out = []
    pattern = (
        r'<text x="([\d.]+)" y="([\d.]+)" [^>]*font-size="(\d+)"(?: text-anchor="(\w+)")?>([^<]*)<'
    )
    for x, y, size, anchor, label in re.findall(pattern, text):
        box = perfboard.text_box(float(x), float(y), int(size), anchor or "start", label)
        out.append((box, label))
    return out


@pytest.mark.parametrize("name", CASE_BOARDS)
def test_every_label_is_inside_the_drawing_apart_and_every_pin_is_named(name):
    board = boards.load(name)
    with open(os.path.join(ROOT, "docs", "pictures", "perfboard-%s.svg" % name)) as handle:
        text = handle.read()
    width, height = (int(v) for v in re.search(r'width="(\d+)" height="(\d+)"', text).groups())
    labels = drawn_labels(text)
    for (x0, y0, x1, y1), label in labels:
        assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, label
    for i, (a, first) in enumerate(labels):
        for b, second in labels[i + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (first, second)
    # every pin of the controller named beside its pad
    named = {label: box for box, label in labels}
    layout = perfboard.parts(board)
    for part in ("mcu", "mcu_r"):
        (col, row), pins, _, _ = layout[part]
        for index, pin in enumerate(pins):
            y = (row + index + 0.5) * _SCALE + perfboard.TITLE_PX
            x = (col + 0.5) * _SCALE
            boxes = [box for box, label in labels if label == pin]
            assert any(abs((b[1] + b[3]) / 2 - y) < 4 and min(abs(b[0] - x), abs(b[2] - x)) < 8
                       for b in boxes), pin  # fmt: skip
    assert named


def test_a_missing_or_an_extra_wire_is_found():
    board = boards.load("pico")
    wires = perfboard.wires(board)
    good = perfboard.extract(board, wires)
    for index in range(len(wires)):
        assert perfboard.extract(board, wires[:index] + wires[index + 1 :]) != good
    pads = perfboard.pads(board)
    extra = wires + [(pads["mcu.GP14"], pads["mcu.GP15"])]  # the levers shorted
    assert perfboard.extract(board, extra) != good
    with pytest.raises(ValueError, match="off a pad"):
        perfboard.extract(board, wires + [((0, 0), pads["mcu.GP14"])])


@pytest.mark.parametrize("name", CASE_BOARDS)
def test_the_committed_layout_is_the_board_datas(name):
    path = os.path.join(ROOT, "docs", "pictures", "perfboard-%s.svg" % name)
    with open(path) as handle:
        assert handle.read() == perfboard.svg(boards.load(name)), "stale: make docs"
