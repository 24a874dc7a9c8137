"""The clock as a solid model: every part placed, the printed parts drawn around them.

``assembly(board)`` builds, with build123d on the OpenCascade kernel, every part
the clock contains from the parts table (``tools.case.parts``) and the board
definition: the two displays, the controller in its socket headers on the
perfboard, the perfboard's pin headers, the cell in its holder, the buzzer, the
power switch, the charger, the two levers over their microswitches, the four
keys on their key board, the two LEDs, the feet, every screw and heat-set
insert; and the printed parts: the body (top, sides, back), the front panel,
the base, the battery door, two lever caps and their keepers, two display
clamps. Millimetres; x along the front, left to right; y from the front face
backwards; z up from the base's underside.

How it goes together is the order of ``STEPS`` (docs/build.md follows it, the
exploded view draws each step's parts moved out by its offset). Each part says
which parts it may touch (``Part.touches``): everything else keeps the
clearance (``tools.case.fits`` measures it). Host only (``make case``).
"""

from build123d import Box, Cone, Cylinder, Pos, Rot

from tools.case.parts import PARTS

WALL_MM = 2.4  # body, front, base, door: six perimeters of a 0.4 mm nozzle
BOSS_WALL_MM = 1.6  # round a heat-set insert: the insert maker's least wall
CLEARANCE_MM = 0.5  # drawn between a part and what is round it
LOOSE_MM = 0.3  # a screw's clearance hole over its thread, each side
SIDE_MM = 12.0  # inside, beside each display: the corner column and a locating rib
MIDDLE_MM = 46.0  # between the displays: the key board and its two bosses
GAP_MM = 2.0  # between the display clamps and the boards behind them
COLUMN_MM = 8.0  # the corner columns: an M3 insert with its wall
STANDOFF_MM = 4.0  # the perfboard over the base
BOARD_EDGE_MM = 1.0  # the perfboard's edge from a wall or column
KEEPER_MM = 2.0  # a lever's keeper plate under the top
LEVER_GAP_MM = 0.3  # between the keeper and the switch's plunger, at rest
CAP_TRAVEL_MM = 1.2  # the cap over the top at rest: the press's travel to the stop
STEM_MM = 8.0  # a lever's stem, square: an M2 insert with its wall
LID_LIP_MM = 1.2  # the battery door's lip under the base


def box(x0, y0, z0, x1, y1, z1):
    """A box between two corners."""
    x0, x1 = min(x0, x1), max(x0, x1)
    y0, y1 = min(y0, y1), max(y0, y1)
    z0, z1 = min(z0, z1), max(z0, z1)
    return Pos((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2) * Box(x1 - x0, y1 - y0, z1 - z0)


_TURN = {"+z": (0, 0, 0), "-z": (180, 0, 0), "+y": (-90, 0, 0), "-y": (90, 0, 0)}
_AXIS = {"+z": (0, 0, 1), "-z": (0, 0, -1), "+y": (0, 1, 0), "-y": (0, -1, 0)}


def rod(at, along, length, diameter):
    """A cylinder from ``at`` along ``along`` ("+z", "-y", ...)."""
    return Pos(*at) * Rot(*_TURN[along]) * Pos(0, 0, length / 2) * Cylinder(diameter / 2, length)


def _countersunk(at, along, size, length):
    """An ISO 10642 screw: its head's face at ``at``, the thread along ``along``."""
    spec = PARTS[size]
    d, k = spec["thread_mm"], spec["head_mm"]
    head = (k - d) / 2  # a 90 degree head
    turn = Pos(*at) * Rot(*_TURN[along])
    cone = turn * Pos(0, 0, head / 2) * Cone(k / 2, d / 2, head)
    return cone + turn * Pos(0, 0, length / 2) * Cylinder(d / 2, length)


def countersink(at, along, size, depth):
    """The hole a countersunk screw goes through: its head's cone and a loose hole."""
    spec = PARTS[size]
    d, k = spec["thread_mm"], spec["head_mm"]
    head = (k - d) / 2
    turn = Pos(*at) * Rot(*_TURN[along])
    return (
        turn * Pos(0, 0, -0.5) * Cylinder(k / 2, 1.0)
        + turn * Pos(0, 0, head / 2) * Cone(k / 2, d / 2, head)
        + rod(at, along, depth, d + 2 * LOOSE_MM)
    )


class Part:
    """One part of the clock: ``solid``, ``kind`` (the parts table's key, or
    "printed"), the names it may touch, and for a printed part the rotation that
    lays it on the bed (``bed``: "+z" top up as drawn, "-z" upside down, "-y" its
    front face down)."""

    def __init__(self, name, kind, solid, touches=(), bed=None, step=None):
        self.name = name
        self.kind = kind
        self.solid = solid
        self.touches = set(touches)
        self.bed = bed
        self.step = step

    @property
    def printed(self):
        return self.kind == "printed"


# How the clock goes together, in order: (step, where the exploded view draws its
# parts, mm from their place, what).
STEPS = (
    ("front", (0, -70, 0), "the front panel: keys on their key board, displays, clamps"),
    ("body", (0, 0, 60), "the body: LEDs pressed in, switches slid into their cages"),
    ("levers", (0, 0, 95), "the levers: caps through the top, keepers screwed on below"),
    ("base", (0, 0, 0), "the base: cell holder, charger, buzzer, power switch"),
    ("board", (0, 0, 25), "the perfboard on its standoffs, the controller in its socket"),
    ("close", (0, 0, -22), "the base screwed to the body"),
    ("fasten", (0, -95, 0), "the front screwed to the columns"),
    ("cell", (0, 0, -45), "the cell through the door, the door screwed shut, the feet"),
)


def _display_kind(board):
    return "display_120" if getattr(board, "DISPLAY_KIND", "0.56in") == "1.2in" else "display_056"


def _controller_kind(board):
    return "esp32_devkitc" if board.CHIP == "esp32" else "pico"


class Assembly:
    """Every part (``parts``, by name), the outer size (``outer``), and the places
    the checks need: ``usb`` (plug, mouth point, direction), ``cell``, ``lever``."""

    def __init__(self, board):
        self.board = board
        self.parts = {}
        self.outer = None
        self.usb = []
        self.cell_paths = []
        self.levers = {}
        self.windows = []
        self.digits = []
        self.bosses = []
        self.strokes = []  # (a lever, the parts that move with it) pressed by the hand
        self.splices = []  # (a splice bar, the shell whose halves it joins, its screws)
        self.lengths = {}  # a screw's name: its length, mm (the parts list's M2 x 5)

    def add(self, name, kind, solid, touches=(), bed=None, step=None):
        if name in self.parts:
            raise ValueError("two parts named %s" % name)
        self.parts[name] = Part(name, kind, solid, touches, bed, step)
        return self.parts[name]

    def touching(self, a, b):
        return b in self.parts[a].touches or a in self.parts[b].touches


def assembly(board):
    """The clock of ``board`` (a board definition module or namespace)."""
    from tools.case import drawing

    return drawing.draw(Assembly(board))
