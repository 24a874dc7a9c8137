"""One 4-digit display drawn on a Tk canvas from HT16K33 display RAM.

Every element ``sim.segments_geometry`` knows (segments, decimal points,
colon dots) is one canvas item, drawn once; ``show(ram, brightness)`` then
only recolours the items whose lit state or brightness changed, so an
unchanged display costs a comparison of 16 bytes.
"""

from sim import segments_geometry

LIT = "#ff5533"  # a lit segment at full brightness: the LED's red, as bright as a screen's
DARK = "#24100e"  # an unlit segment behind the red filter
WINDOW = "#120d0d"  # the display's window
_FULL = 15
# The share of the way from DARK to LIT at the dimmest step: a monitor shows the LEDs'
# dimming far weaker than a room does, so the window keeps the steps but lifts them.
_FLOOR_SHARE = 0.55


def lit_colour(brightness):
    """The lit colour at HT16K33 brightness 0..15 (duty 1/16 .. 16/16), between DARK and LIT.

    The eye sees brightness about as the square root of the light (Stevens's power
    law, exponent near 0.5 for a small bright source), so the steps follow the square
    root of the duty, above a floor (``_FLOOR_SHARE``): at the clock's default (2/16,
    register 1) a lit segment stands 3.5 : 1 against an unlit one (WCAG's contrast
    ratio; 3 : 1 is its minimum for large text), at the dimmest 3.2 : 1, and full
    brightness is still 1.9 times as luminous as the default."""
    share = _FLOOR_SHARE + (1 - _FLOOR_SHARE) * ((brightness + 1) / (_FULL + 1)) ** 0.5
    channels = []
    for index in (1, 3, 5):
        dark = int(DARK[index : index + 2], 16)
        lit = int(LIT[index : index + 2], 16)
        channels.append(round(dark + (lit - dark) * share))
    return "#%02x%02x%02x" % tuple(channels)


class SegmentsView:
    """A display at (x, y) on ``canvas``, ``scale`` pixels per geometry unit; ``big``:
    the 1.2" backpack's lamps (``segments_geometry.BIG_LAMPS``)."""

    PADDING = 14

    def __init__(self, canvas, x, y, scale=1.0, big=False):
        pad = self.PADDING
        left = pad + (segments_geometry.BIG_LEFT * scale if big else 0)
        self.canvas = canvas
        self.width = segments_geometry.DISPLAY_WIDTH * scale + left + pad
        self.height = segments_geometry.DISPLAY_HEIGHT * scale + 2 * pad
        canvas.create_rectangle(
            x, y, x + self.width, y + self.height, fill=WINDOW, outline="#000000", width=2
        )
        self.items = []  # (element, canvas item id)
        for element in segments_geometry.display_elements(x + left, y + pad, scale, big=big):
            if element.points is not None:
                flat = [value for point in element.points for value in point]
                item = canvas.create_polygon(*flat, fill=DARK, outline="")
            else:
                cx, cy = element.centre
                r = element.radius
                item = canvas.create_oval(cx - r, cy - r, cx + r, cy + r, fill=DARK, outline="")
            self.items.append((element, item))
        self.lit = [False] * len(self.items)
        self.ram = bytes(16)
        self.brightness = _FULL
        self.colour = LIT

    def show(self, ram, brightness=_FULL):
        """Light exactly the elements ``ram`` lights; return True if anything changed."""
        ram = bytes(ram)
        if ram == self.ram and brightness == self.brightness:
            return False
        if brightness != self.brightness:
            self.brightness = brightness
            self.colour = lit_colour(brightness)
            self.lit = [None] * len(self.items)  # recolour every lit element
        self.ram = ram
        canvas = self.canvas
        for index, (element, item) in enumerate(self.items):
            lit = element.lit(ram)
            if lit != self.lit[index]:
                self.lit[index] = lit
                canvas.itemconfigure(item, fill=self.colour if lit else DARK)
        return True
