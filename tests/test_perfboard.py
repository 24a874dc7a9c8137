"""The perfboard layout's wires make the board definition's connections, no more, no less
(tools/case/perfboard.py, docs/build.md)."""

import os

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


@pytest.mark.parametrize("name", CASE_BOARDS)
def test_the_wires_make_the_board_definitions_nets(name):
    board = boards.load(name)
    pads = perfboard.pads(board)
    assert len(set(pads.values())) == len(pads)  # no two pads in one hole
    got = perfboard.extract(board)
    # the geometry makes what the layout means
    assert got == {frozenset(members) for _, members in perfboard.nets(board)}
    # and what the layout means is the board definition: every GPIO it names
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
