"""Shaded pictures of the clock's model: three sides, exploded, and cut through a lever.

``view(assembly, which)`` turns every part's solid into the kernel's triangles
and draws them with a small z-buffer (numpy): parallel projection, each
triangle lit by its facing to a light over the viewer's shoulder, outlines
where a part ends or a surface steps back. ``which`` is "front" (from the
front, left and above), "back" (from the back, right and above: the USB
openings), "below" (the base, the door and its screws), "exploded" (the
front's view with each assembly step's parts moved out along the way they go
in, by ``tools.case.cad.STEPS``), "cut" (the clock cut through the left lever's
axis, seen from the left). ``save`` writes it as a PNG (make docs:
docs/pictures/case-BOARD-VIEW.png). Host only.
"""

import numpy as np
from build123d import Pos

from tools.case.cad import STEPS, box

WIDTH, HEIGHT = 900, 560
SUPER = 2  # drawn at twice the size, then scaled down: smooth edges
BACKGROUND = (250, 250, 247)
COLOURS = {
    "printed": (214, 219, 226),
    "display_056": (60, 20, 20),
    "display_120": (60, 20, 20),
    "pico": (30, 130, 70),
    "esp32_devkitc": (40, 40, 45),
    "perfboard": (200, 170, 110),
    "socket_header": (35, 35, 35),
    "pin_header": (35, 35, 35),
    "cell": (60, 110, 200),
    "cell_holder": (45, 45, 45),
    "cell_contact": (190, 190, 195),
    "controller_header": (35, 35, 35),
    "microswitch": (30, 30, 30),
    "key": (70, 70, 70),
    "led_10mm": (230, 50, 40),
    "buzzer": (25, 25, 25),
    "slide_switch": (240, 240, 240),
    "charger": (40, 70, 170),
    "boost": (40, 70, 170),
    "insert_m2": (200, 160, 60),
    "insert_m3": (200, 160, 60),
    "screw_m2": (150, 150, 155),
    "screw_m2_pan": (150, 150, 155),
    "screw_m3": (150, 150, 155),
    "foot": (20, 20, 20),
}
PRINTED_COLOURS = {"lever_left": (70, 110, 170), "lever_right": (70, 110, 170)}
_DIRECTIONS = {
    "front": ((0.45, 1.0, -0.6), (0, 0, 1)),
    "exploded": ((0.45, 1.0, -0.6), (0, 0, 1)),
    "back": ((-0.6, -1.0, -0.6), (0, 0, 1)),
    "below": ((0.4, 0.9, 1.0), (0, 0, 1)),
    "cut": ((1.0, 0.0, 0.0), (0, 0, 1)),
    "wires": ((0.25, 0.55, -1.0), (0, 1, 0)),
}


def _basis(forward, up):
    f = np.array(forward, float)
    f /= np.linalg.norm(f)
    r = np.cross(f, np.array(up, float))
    r /= np.linalg.norm(r)
    return f, r, np.cross(r, f)


def _solids(assembly, which):
    """(colour, solid) of every part as the view shows it."""
    out = []
    offsets = {}
    if which == "exploded":
        offsets = {step: offset for step, offset, _ in STEPS}
    cut = None
    if which == "cut":
        lever = assembly.parts["lever_left"].solid.bounding_box().center()
        w, d, h = assembly.outer
        cut = box(lever.X, -50, -50, w + 50, d + 50, h + 50)
    for name, part in assembly.parts.items():
        colour = PRINTED_COLOURS.get(name) or COLOURS.get(part.kind, (120, 120, 120))
        solid = part.solid
        if cut is not None:
            solid = solid & cut
            if solid.volume < 1e-6:
                continue
        if part.step in offsets:
            solid = Pos(*offsets[part.step]) * solid
        out.append((colour, solid))
    return out


def view(assembly, which):
    """The picture as an RGB array (HEIGHT x WIDTH x 3)."""
    return draw(_solids(assembly, which), which)[0]


def draw(coloured, which):
    """(RGB array, project): the solids ``coloured`` [(colour, solid)] seen as
    ``which`` sees them; ``project((x, y, z))`` is a point's pixel (column, row)."""
    forward, up = _DIRECTIONS[which]
    f, r, u = _basis(forward, up)
    light = -f + 0.6 * u + 0.3 * r
    light /= np.linalg.norm(light)
    meshes = []
    for colour, solid in coloured:
        vertices, triangles = solid.tessellate(0.08, 0.3)
        if not triangles:
            continue
        v = np.array([(p.X, p.Y, p.Z) for p in vertices])
        meshes.append((colour, v, np.array(triangles)))
    every = np.vstack([m[1] for m in meshes])
    sx, sy = every @ r, every @ u
    margin = 0.06
    scale = min(
        WIDTH * SUPER * (1 - 2 * margin) / (sx.max() - sx.min()),
        HEIGHT * SUPER * (1 - 2 * margin) / (sy.max() - sy.min()),
    )
    w, h = WIDTH * SUPER, HEIGHT * SUPER
    ox = w / 2 - scale * (sx.max() + sx.min()) / 2
    oy = h / 2 + scale * (sy.max() + sy.min()) / 2
    depth = np.full((h, w), np.inf)
    image = np.zeros((h, w, 3))
    image[:] = BACKGROUND
    ident = np.full((h, w), -1)
    for number, (colour, v, tris) in enumerate(meshes):
        px = ox + scale * (v @ r)
        py = oy - scale * (v @ u)
        pz = v @ f
        a, b, c = v[tris[:, 0]], v[tris[:, 1]], v[tris[:, 2]]
        normals = np.cross(b - a, c - a)
        lengths = np.linalg.norm(normals, axis=1)
        keep = lengths > 1e-12
        normals[keep] /= lengths[keep, None]
        facing = normals @ f < 0
        shade = 0.35 + 0.65 * np.clip(normals @ light, 0, 1)
        base = np.array(colour, float)
        for index in np.nonzero(keep & facing)[0]:
            i, j, k = tris[index]
            _fill(depth, image, ident, number, (px[i], py[i], pz[i]), (px[j], py[j], pz[j]),
                  (px[k], py[k], pz[k]), base * shade[index])  # fmt: skip
    # outlines: where the part changes or the surface steps back
    edge = np.zeros((h, w), bool)
    finite = np.where(np.isinf(depth), 1e9, depth)
    for axis in (0, 1):
        step_id = np.diff(ident, axis=axis) != 0
        step_depth = np.abs(np.diff(finite, axis=axis)) > 1.5
        found = step_id | step_depth
        if axis == 0:
            edge[1:, :] |= found
        else:
            edge[:, 1:] |= found
    image[edge] *= 0.35
    small = image.reshape(HEIGHT, SUPER, WIDTH, SUPER, 3).mean(axis=(1, 3))

    def project(point):
        v = np.array(point, float)
        return (ox + scale * (v @ r)) / SUPER, (oy - scale * (v @ u)) / SUPER

    return np.clip(small, 0, 255).astype(np.uint8), project


def _fill(depth, image, ident, number, p0, p1, p2, colour):
    """One triangle into the buffers, nearest wins."""
    h, w = depth.shape
    xs = (p0[0], p1[0], p2[0])
    ys = (p0[1], p1[1], p2[1])
    x0, x1 = max(int(min(xs)), 0), min(int(max(xs)) + 1, w - 1)
    y0, y1 = max(int(min(ys)), 0), min(int(max(ys)) + 1, h - 1)
    if x0 > x1 or y0 > y1:
        return
    area = (p1[0] - p0[0]) * (p2[1] - p0[1]) - (p2[0] - p0[0]) * (p1[1] - p0[1])
    if abs(area) < 1e-9:
        return
    gx, gy = np.meshgrid(np.arange(x0, x1 + 1) + 0.5, np.arange(y0, y1 + 1) + 0.5)
    w0 = ((p1[0] - gx) * (p2[1] - gy) - (p2[0] - gx) * (p1[1] - gy)) / area
    w1 = ((p2[0] - gx) * (p0[1] - gy) - (p0[0] - gx) * (p2[1] - gy)) / area
    w2 = 1 - w0 - w1
    inside = (w0 >= -1e-6) & (w1 >= -1e-6) & (w2 >= -1e-6)
    if not inside.any():
        return
    z = w0 * p0[2] + w1 * p1[2] + w2 * p2[2]
    block = depth[y0 : y1 + 1, x0 : x1 + 1]
    nearer = inside & (z < block)
    block[nearer] = z[nearer]
    image[y0 : y1 + 1, x0 : x1 + 1][nearer] = colour
    ident[y0 : y1 + 1, x0 : x1 + 1][nearer] = number


def step_view(assembly, step):
    """(RGB array, [(label, (column, row))]): the clock as it stands after the build
    step ``step`` (``tools.case.cad.STEPS``): the parts of the steps before it in
    place and faded, this step's parts drawn out along the way they go in, each
    named where it is drawn (its screws and inserts once per kind)."""
    offsets = {name: offset for name, offset, _ in STEPS}
    shown = _BUILT_ON[step] + (step,)
    coloured, named = [], {}
    for name, part in assembly.parts.items():
        if part.step not in shown:
            continue
        colour = PRINTED_COLOURS.get(name) or COLOURS.get(part.kind, (120, 120, 120))
        solid = part.solid
        if part.step == step:
            solid = Pos(*offsets[step]) * solid
            label = _label(name, part)
            centre = solid.bounding_box().center()
            named.setdefault(label, (centre.X, centre.Y, centre.Z))
        else:
            colour = tuple(0.35 * c + 0.65 * b for c, b in zip(colour, BACKGROUND, strict=True))
        coloured.append((colour, solid))
    pixels, project = draw(coloured, _STEP_VIEW.get(step, "exploded"))
    return pixels, [(label, project(point)) for label, point in sorted(named.items())]


# What a step's parts go onto: the steps whose parts a step's picture shows in place
# (the front, the body with its levers and the base with its board are built apart,
# then closed, fastened and filled).
_BUILT_ON = {
    "front": (),
    "body": (),
    "levers": ("body",),
    "base": (),
    "board": ("base",),
    "close": ("base", "board", "body", "levers"),
    "fasten": ("base", "board", "body", "levers", "close", "front"),
    "cell": ("base", "board", "body", "levers", "close", "front", "fasten"),
}
# A step whose parts go in from below is seen from below.
_STEP_VIEW = {"body": "below", "cell": "below"}
# Parts named once per kind in a picture, not one by one.
_BY_KIND = {
    "screw_m2": "M2 screws",
    "screw_m3": "M3 screws",
    "screw_m2_pan": "M2 pan screws",
    "insert_m2": "M2 inserts",
    "insert_m3": "M3 inserts",
    "pin_header": "pin headers",
    "socket_header": "controller's sockets",
    "controller_header": "controller's male headers",
    "key": "keys",
    "foot": "feet",
}


def wires_view(assembly, routes):
    """(RGB array, [(label, (column, row))], [[(column, row)]]): the base with its
    board, the front and the body's parts under the top, seen from above with the
    top left off, and each wire's way (``tools.case.guide.wire_routes``)."""
    coloured = []
    for name, part in assembly.parts.items():
        if name in ("body",) or part.step in ("levers", "cell", "fasten", "close"):
            continue
        colour = PRINTED_COLOURS.get(name) or COLOURS.get(part.kind, (120, 120, 120))
        colour = tuple(0.5 * c + 0.5 * b for c, b in zip(colour, BACKGROUND, strict=True))
        coloured.append((colour, part.solid))
    pixels, project = draw(coloured, "wires")
    lines = [[project(point) for point in points] for _, points in routes]
    labels = [(label, project(points[0])) for label, points in routes]
    return pixels, labels, lines


def save_routed(pixels, labels, lines, path):
    """The routing picture with each wire drawn, as a PNG file."""
    from PIL import Image, ImageDraw

    image = Image.fromarray(pixels, "RGB")
    pen = ImageDraw.Draw(image)
    palette = ((200, 40, 30), (30, 110, 200), (30, 150, 60), (170, 90, 20), (120, 40, 160))
    for index, line in enumerate(lines):
        pen.line(line, fill=palette[index % len(palette)], width=2)
    image.save(path, optimize=True)
    save_labelled(np.asarray(Image.open(path).convert("RGB")), labels, path)


def _label(name, part):
    """A part's name in a picture: a screw, an insert, a header by its kind."""
    return _BY_KIND.get(part.kind) or name.replace("_", " ")


def save_labelled(pixels, labels, path):
    """The picture with each label written beside its point, as a PNG file."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.fromarray(pixels, "RGB")
    pen = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=13)
    taken = []  # the label boxes placed so far: a label moves down until it is clear
    for text, (x, y) in sorted(labels, key=lambda item: (item[1][1], item[1][0])):
        ty = y - 8
        while True:
            box_ = pen.textbbox((x + 14, ty), text, font=font)
            if not any(_overlap(box_, other) for other in taken):
                break
            ty += 4
        taken.append(box_)
        pen.line((x, y, box_[0] - 2, (box_[1] + box_[3]) / 2), fill=(200, 40, 30), width=1)
        pen.ellipse((x - 3, y - 3, x + 3, y + 3), fill=(200, 40, 30))
        pen.rectangle((box_[0] - 2, box_[1] - 1, box_[2] + 2, box_[3] + 1), fill=(255, 255, 240))
        pen.text((x + 14, ty), text, fill=(20, 20, 20), font=font)
    image.save(path, optimize=True)


def _overlap(a, b):
    return a[0] - 3 < b[2] and b[0] - 3 < a[2] and a[1] - 2 < b[3] and b[1] - 2 < a[3]


def save(pixels, path):
    """The picture as a PNG file."""
    from PIL import Image

    Image.fromarray(pixels, "RGB").save(path, optimize=True)
