"""The 1.2" backpack has no decimal points: each point of a frame lights the lamp of
RAM row 2 that stands for it (hal/displays.py, docs/display.md), and the digits
lose nothing."""

import pytest
from adafruit_ht16k33.ht16k33 import HT16K33 as Driver

from firmware import frames
from hal.displays import SegmentDisplay
from hal.i2c_bus import I2CBus
from sim import ht16k33
from sim import machine as sim_machine

COLON, LEFT_BOTTOM, LEFT_TOP, POINT = 0x02, 0x04, 0x08, 0x10
ROW2 = ht16k33.COLON_BYTE


@pytest.fixture
def displays():
    sim_machine.reset()
    small, big = ht16k33.HT16K33(), ht16k33.HT16K33()
    sim_machine.attach_i2c(0, 0x70, small)
    sim_machine.attach_i2c(0, 0x71, big)
    bus = I2CBus(sim_machine.I2C(0, scl=sim_machine.Pin(5), sda=sim_machine.Pin(4)))
    shown = (SegmentDisplay(bus, 0x70, Driver), SegmentDisplay(bus, 0x71, Driver, big=True))
    return shown, (small, big)


def show(displays, frame):
    shown, chips = displays
    for display in shown:
        display.show_frame(frame)
    return [bytes(chip.ram) for chip in chips]


def frame_of(ms, points=(), colon=False):
    frame = bytearray(frames.FRAME_SIZE)
    frames.render_time(frame, ms)
    for digit in points:
        frame[digit] |= frames.DOT
    if colon:
        frame[4] = frames.COLON
    return frame


def test_minutes_and_seconds_with_the_running_point(displays):
    # 4:53 with the format point (digit 2) and the running point (digit 4).
    small, big = show(displays, frame_of(293_000, points=(3,)))
    assert ht16k33.decode_seg7x4(small) == " 4.53."
    assert [big[a] for a in ht16k33.DIGIT_BYTES] == [small[a] & 0x7F for a in ht16k33.DIGIT_BYTES]
    assert big[ROW2] == COLON | POINT


def test_first_flag_delay_and_claim_points_have_their_lamps(displays):
    frame = frame_of(60_000, points=(0, 2))  # first-flag point, delay point
    small, big = show(displays, frame)
    assert ht16k33.decode_seg7x4(small) == " .1.0.0"
    assert big[ROW2] == COLON | LEFT_TOP | LEFT_BOTTOM
    assert all(big[a] & 0x80 == 0 for a in ht16k33.DIGIT_BYTES)


def test_hours_use_the_colon_and_a_dark_frame_lights_nothing(displays):
    _, big = show(displays, frame_of(5_400_000))  # 1:30:00 reads 1:30
    assert big[ROW2] == COLON
    _, big = show(displays, bytearray(frames.FRAME_SIZE))
    assert big[ROW2] == 0 and not any(big[a] for a in ht16k33.DIGIT_BYTES)
