"""Where the segments of a 4-digit 7-segment backpack are, for anything that draws one.

Pure data and arithmetic (no Tk, no file output), shared by every picture of
the displays: the documentation pictures (``tools/pictures/displays.py``)
and the live clock's window (``live/segments_view.py``); it sits here, beside
the chip model whose RAM layout it reads, so that both import it from below.
Each element of a display is tied to the bit of the HT16K33's display RAM
that lights it, so a drawing is made from the chip's memory and nothing
else:

- digits 1-4 are RAM bytes 0, 2, 6 and 8 (``sim.ht16k33.DIGIT_BYTES``);
  bits 0-6 are the segments a-g, bit 7 the decimal point after the digit;
- the colon between digits 2 and 3 is bit 1 of RAM byte 4.

Segment names follow the usual convention::

     aaa
    f   b
    f   b
     ggg
    e   c
    e   c
     ddd  dp

Units: a digit is ``DIGIT_WIDTH`` x ``DIGIT_HEIGHT`` (50 x 90), a whole
display ``DISPLAY_WIDTH`` x ``DISPLAY_HEIGHT``; multiply by ``scale`` for
pixels. The digits lean right like those of the usual 0.56" displays:
every point moves right by ``slant`` times its height above the bottom edge
(``slant=0`` draws them upright).
"""

from sim.ht16k33 import COLON_BIT, COLON_BYTE, DIGIT_BYTES, DOT_BIT

SEGMENT_NAMES = "abcdefg"
DIGIT_WIDTH = 50
DIGIT_HEIGHT = 90
THICKNESS = 10  # a segment's width
GAP = 1  # between the ends of two segments
DOT_RADIUS = 5
DOT_OFFSET = 58  # the decimal point's centre, right of the digit's left edge
DIGIT_X = (0, 72, 164, 236)  # left edges of digits 1-4; the colon sits in the wider gap
COLON_X = 150
COLON_Y = (30, 60)
DISPLAY_WIDTH = 300
DISPLAY_HEIGHT = DIGIT_HEIGHT
SLANT = 0.1
# The 1.2" backpack (Adafruit's BigSeg7x4) has no decimal points; the colon byte
# lights, besides the colon (bit 1), the two dots of a colon left of digit 1
# and one point at the top right: (name, bit, x, y).
BIG_LEFT = 12  # room left of digit 1 for those dots, in geometry units
BIG_LAMPS = (
    ("left.top", 0x08, -7, COLON_Y[0]),
    ("left.bottom", 0x04, -7, COLON_Y[1]),
    ("point", 0x10, DIGIT_X[3] + DOT_OFFSET, THICKNESS // 2),
)

_HALF = THICKNESS // 2
_LEFT = _HALF
_RIGHT = DIGIT_WIDTH - _HALF
_TOP = _HALF
_MIDDLE = DIGIT_HEIGHT // 2
_BOTTOM = DIGIT_HEIGHT - _HALF


def _horizontal(y):
    """A horizontal bar with pointed ends, centred on height ``y``."""
    x1 = _LEFT + GAP
    x2 = _RIGHT - GAP
    return (
        (x1, y),
        (x1 + _HALF, y - _HALF),
        (x2 - _HALF, y - _HALF),
        (x2, y),
        (x2 - _HALF, y + _HALF),
        (x1 + _HALF, y + _HALF),
    )


def _vertical(x, y1, y2):
    """A vertical bar with pointed ends on column ``x``, from ``y1`` down to ``y2``."""
    y1 += GAP
    y2 -= GAP
    return (
        (x, y1),
        (x + _HALF, y1 + _HALF),
        (x + _HALF, y2 - _HALF),
        (x, y2),
        (x - _HALF, y2 - _HALF),
        (x - _HALF, y1 + _HALF),
    )


# Segments a-g (RAM bits 0-6) of a digit whose top-left corner is (0, 0), upright.
SEGMENT_POLYGONS = (
    _horizontal(_TOP),  # a
    _vertical(_RIGHT, _TOP, _MIDDLE),  # b
    _vertical(_RIGHT, _MIDDLE, _BOTTOM),  # c
    _horizontal(_BOTTOM),  # d
    _vertical(_LEFT, _MIDDLE, _BOTTOM),  # e
    _vertical(_LEFT, _TOP, _MIDDLE),  # f
    _horizontal(_MIDDLE),  # g
)


class Element:
    """One thing that lights: a segment (``points``), a decimal point or a colon dot
    (``centre`` and ``radius``), and the RAM ``address`` and ``bit`` that light it."""

    def __init__(self, name, address, bit, points=None, centre=None, radius=0):
        self.name = name  # "d1.a" ... "d4.g", "d1.dp" ... "d4.dp", "colon.top", "colon.bottom"
        self.address = address
        self.bit = bit
        self.points = points
        self.centre = centre
        self.radius = radius

    def lit(self, ram):
        """True if this element is lit by display RAM ``ram`` (16 bytes)."""
        return bool(ram[self.address] & self.bit)


def _place(x, y, origin_x, origin_y, scale, slant):
    lean = (DISPLAY_HEIGHT - y) * slant
    return (origin_x + (x + lean) * scale, origin_y + y * scale)


def display_elements(origin_x=0, origin_y=0, scale=1, slant=SLANT, big=False):
    """Every element of one display whose top-left corner is at (origin_x, origin_y).

    Segments come first (digit by digit, a-g), then the decimal points, then
    the two dots of the colon; coordinates are already scaled and slanted.
    ``big``: the 1.2" backpack's layout (``BIG_LAMPS``): no decimal points,
    and the colon byte's other lamps instead (``BIG_LEFT`` left of digit 1).
    """
    elements = []
    for digit, left in enumerate(DIGIT_X):
        address = DIGIT_BYTES[digit]
        for bit_number, polygon in enumerate(SEGMENT_POLYGONS):
            points = tuple(
                _place(left + x, y, origin_x, origin_y, scale, slant) for x, y in polygon
            )
            name = "d%d.%s" % (digit + 1, SEGMENT_NAMES[bit_number])
            elements.append(Element(name, address, 1 << bit_number, points=points))
    for name, bit, x, y in BIG_LAMPS if big else ():
        centre = _place(x, y, origin_x, origin_y, scale, slant)
        elements.append(Element(name, COLON_BYTE, bit, centre=centre, radius=DOT_RADIUS * scale))
    for digit, left in enumerate(DIGIT_X if not big else ()):
        centre = _place(left + DOT_OFFSET, _BOTTOM, origin_x, origin_y, scale, slant)
        name = "d%d.dp" % (digit + 1)
        elements.append(
            Element(name, DIGIT_BYTES[digit], DOT_BIT, centre=centre, radius=DOT_RADIUS * scale)
        )
    for place, y in zip(("top", "bottom"), COLON_Y, strict=True):
        centre = _place(COLON_X, y, origin_x, origin_y, scale, slant)
        elements.append(
            Element(
                "colon." + place, COLON_BYTE, COLON_BIT, centre=centre, radius=DOT_RADIUS * scale
            )
        )
    return elements


def lit_names(ram):
    """The names of the elements display RAM ``ram`` lights, in drawing order."""
    return [element.name for element in display_elements() if element.lit(ram)]
