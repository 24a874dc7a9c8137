"""Pictures of the two displays, drawn from the HT16K33 chip model's memory.

``take(script_text)`` plays a clock script (docs/spec/scripts.md) on the simulated
board through the runner's player, exactly as ``python -m sim run`` does,
checks its ``expect`` lines, and returns the two chips' display RAM at the
script's end. ``display_svg``
draws that RAM as an SVG image: every segment, decimal point and colon dot
of both displays, lit or dark, through ``sim.segments_geometry``. Nothing
here asks the firmware what it meant to show: a picture is what the chips
would light.

SVG rather than PNG: the images are text, so a changed segment is a one-line
diff naming the element (``id="left-d3-dp"``); they stay sharp at any size
in a printed manual; they are byte-for-byte reproducible without a
rasteriser; and they need nothing beyond the standard library.
"""

from sim import ht16k33, segments_geometry
from sim import script as script_module
from sim.runner import Game, ReportingPlayer

LIT = "#ff3b1f"  # a red backpack's lit segment
DARK = "#3a2220"  # an unlit segment behind the red filter
WINDOW = "#120d0d"  # the display window
CASE = "#2f3136"  # the clock's case
LABEL = "#c8c8c8"
SCALE = 1
PADDING = 16  # inside a display window, around the digits
MARGIN = 20  # around the windows
WINDOW_GAP = 40
LABEL_SPACE = 28
SIDES = ("left", "right")


class PictureError(Exception):
    """A picture's script is malformed or one of its expectations does not hold."""


class Snapshot:
    """What the two displays hold at the end of a script, and the state line there."""

    def __init__(self, rams, on, state_line):
        self.rams = rams  # (left RAM, right RAM): 16 bytes each, copies
        self.on = on  # (left, right): display switched on and answering
        self.state_line = state_line

    def text(self):
        """The two displays as the scenario runner decodes them, ``left|right``."""
        return ht16k33.decode_seg7x4(self.rams[0]) + "|" + ht16k33.decode_seg7x4(self.rams[1])


def take(script_text, name="picture"):
    """Play ``script_text`` and return the Snapshot at its last statement."""
    try:
        script = script_module.parse(script_text)
    except script_module.ScriptError as error:
        raise PictureError("%s:%d: %s" % (name, error.line, error.message))
    game = Game(script)
    try:
        problems = []
        if ReportingPlayer(game, name, problems.append).play(script.statements) != 0:
            raise PictureError("\n".join(problems))
        state_line = game.state_line()  # settles the main loop at this instant
        chips = game.board.chips
        rams = (bytes(chips[0].ram), bytes(chips[1].ram))
        on = tuple(chip.present and chip.oscillator_on and chip.display_on for chip in chips)
    finally:
        game.close()
    return Snapshot(rams, on, state_line)


def number(value):
    """A coordinate as short, reproducible text: at most two decimals, no trailing zeros."""
    text = "%.2f" % value
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _escape(text):
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def window_size():
    """Width and height of one display window."""
    return (
        segments_geometry.DISPLAY_WIDTH * SCALE + 2 * PADDING,
        segments_geometry.DISPLAY_HEIGHT * SCALE + 2 * PADDING,
    )


def picture_size():
    width, height = window_size()
    return 2 * MARGIN + 2 * width + WINDOW_GAP, 2 * MARGIN + height + LABEL_SPACE


def _display_lines(side, ram, on, x, y):
    """The SVG elements of one display whose window's top-left corner is (x, y)."""
    width, height = window_size()
    lines = [
        '<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s"/>'
        % (x, y, width, height, WINDOW)
    ]
    elements = segments_geometry.display_elements(x + PADDING, y + PADDING, SCALE)
    for element in elements:
        fill = LIT if on and element.lit(ram) else DARK
        ident = "%s-%s" % (side, element.name.replace(".", "-"))
        if element.points is not None:
            points = " ".join("%s,%s" % (number(px), number(py)) for px, py in element.points)
            lines.append('<polygon id="%s" fill="%s" points="%s"/>' % (ident, fill, points))
        else:
            cx, cy = element.centre
            lines.append(
                '<circle id="%s" fill="%s" cx="%s" cy="%s" r="%s"/>'
                % (ident, fill, number(cx), number(cy), number(element.radius))
            )
    return lines


def display_svg(rams, on=(True, True), title="", labels=SIDES):
    """Both displays, side by side, as an SVG document (text).

    ``rams`` are the two chips' 16-byte display RAMs, ``on`` whether each
    display is lit at all (switched on and answering); ``title`` becomes the
    image's title, and the decoded text of both displays its description.
    """
    for ram in rams:
        if len(ram) < 16:
            raise ValueError("HT16K33 display RAM is 16 bytes, got %d" % len(ram))
    width, height = picture_size()
    window_width, window_height = window_size()
    decoded = " | ".join(
        '%s "%s"' % (side, ht16k33.decode_seg7x4(ram if lit else bytes(16)))
        for side, ram, lit in zip(SIDES, rams, on, strict=True)
    )
    lines = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
        'viewBox="0 0 %d %d" role="img">' % (width, height, width, height),
        "<title>%s</title>" % _escape(title or decoded),
        "<desc>%s</desc>" % _escape(decoded),
        '<rect width="%d" height="%d" rx="14" fill="%s"/>' % (width, height, CASE),
    ]
    for index, side in enumerate(SIDES):
        x = MARGIN + index * (window_width + WINDOW_GAP)
        lines += _display_lines(side, rams[index], on[index], x, MARGIN)
        if labels:
            lines.append(
                '<text x="%d" y="%d" fill="%s" font-family="sans-serif" font-size="15" '
                'text-anchor="middle">%s</text>'
                % (
                    x + window_width // 2,
                    MARGIN + window_height + 20,
                    LABEL,
                    _escape(labels[index]),
                )
            )
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
