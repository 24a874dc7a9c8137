"""The 1.2" backpack's layout (Adafruit's BigSeg7x4): it has no decimal points.

``place(buffer, frame)`` writes a frame into the driver's buffer (as
``hal.displays`` does for the 0.56" backpack): the digits without their
points, and each point on the lamp of RAM row 2 that stands for it
(docs/display.md). Loaded only for a board with ``DISPLAY_KIND = "1.2in"``.
Allocates nothing.
"""

from micropython import const

_FRAME_DIGITS = const(4)
_DIGIT_INDEXES = b"\x01\x03\x07\x09"  # the driver's buffer: rows 0, 1, 3, 4
_ROW2_INDEX = const(5)
_DOT = const(0x80)  # a digit's decimal point in a frame
_COLON = const(0x02)
_LEFT_BOTTOM = const(0x04)  # the colon left of digit 1: lower dot
_LEFT_TOP = const(0x08)  # and upper dot
_POINT = const(0x10)  # the point at the top right


def place(buffer, frame):
    """A frame on the 1.2" backpack, which has no decimal points: the digits without
    them, and each point on the lamp of row 2 that stands for it (docs/display.md):
    digit 1's on the upper dot left of digit 1, digit 3's on the lower one, digit 4's
    on the point at the top right, digit 2's (the M.SS format) and the colon on the
    colon."""
    index = 0
    while index < _FRAME_DIGITS:
        buffer[_DIGIT_INDEXES[index]] = frame[index] & 0x7F
        index += 1
    lamps = _COLON if frame[4] or frame[1] & _DOT else 0
    if frame[0] & _DOT:
        lamps |= _LEFT_TOP
    if frame[2] & _DOT:
        lamps |= _LEFT_BOTTOM
    if frame[3] & _DOT:
        lamps |= _POINT
    buffer[_ROW2_INDEX] = lamps
