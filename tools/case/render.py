"""PNG pictures of the assembled enclosure, front and top, drawn to scale.

Each view is orthographic: every printed face turned to the viewer and every
placed part's near face, the nearest one at each pixel, shaded by depth
(darker further in), so the parts show through the windows and openings.
Plain zlib PNG, written the same byte for byte from the same board data
(docs/pictures/case-BOARD-front.png, -top.png; tests/test_case.py compares).
Host only.
"""

import struct
import zlib

from tools.case import mesh

PX_PER_MM = 3
BACKGROUND = (255, 255, 255)
PRINTED_COLOURS = {
    "shell": (200, 204, 210),
    "base": (150, 154, 160),
    "door": (120, 124, 130),
    "lever_left": (70, 110, 170),
    "lever_right": (70, 110, 170),
}
PART_COLOURS = {
    "display_056": (60, 10, 10),
    "display_120": (60, 10, 10),
    "led_10mm": (230, 40, 40),
    "key": (40, 40, 40),
    "microswitch": (30, 30, 30),
    "buzzer": (20, 20, 20),
    "slide_switch": (240, 240, 240),
    "charger": (30, 60, 160),
    "pico": (20, 120, 60),
    "esp32_devkitc": (20, 20, 20),
    "cell_holder": (20, 20, 20),
    "boost": (30, 60, 160),
}
DIGITS = (240, 50, 40)


def _shade(colour, depth_fraction):
    scale = 1.0 - 0.45 * max(0.0, min(1.0, depth_fraction))
    return tuple(int(c * scale) for c in colour)


def view(layout, which):
    """(width, height, rows of RGB bytes) of the ``which`` view ("front" or "top")."""
    width_mm, depth_mm, height_mm = layout.outer
    margin = 4.0
    if which == "front":  # x to the right, z up; nearest is the smallest y
        u_axis, v_axis, d_axis, sign = 0, 2, 1, 1
        span_u, span_v, span_d = width_mm, height_mm + 8, depth_mm
        v_low = -2.0
    else:  # top: x to the right, y up the picture from the front; nearest is the highest z
        u_axis, v_axis, d_axis, sign = 0, 1, 2, -1
        span_u, span_v, span_d = width_mm, depth_mm, height_mm + 8
        v_low = 0.0
    w = int((span_u + 2 * margin) * PX_PER_MM)
    h = int((span_v + 2 * margin) * PX_PER_MM)
    depth = [[float("inf")] * w for _ in range(h)]
    pixels = [[BACKGROUND] * w for _ in range(h)]

    def paint(lo_u, hi_u, lo_v, hi_v, d, colour):
        x0 = int(round((lo_u + margin) * PX_PER_MM))
        x1 = int(round((hi_u + margin) * PX_PER_MM))
        # picture rows run downwards: v up
        y0 = h - int(round((hi_v - v_low + margin) * PX_PER_MM))
        y1 = h - int(round((lo_v - v_low + margin) * PX_PER_MM))
        key = d * sign
        shaded = _shade(colour, (d if sign > 0 else span_d - 8 - d) / span_d)
        for y in range(max(0, y0), min(h, y1)):
            row_d = depth[y]
            row_p = pixels[y]
            for x in range(max(0, x0), min(w, x1)):
                if key < row_d[x]:
                    row_d[x] = key
                    row_p[x] = shaded

    for name, steps in layout.printed.items():
        colour = PRINTED_COLOURS[name]
        for axis, face_sign, quad in mesh.Solid(steps).faces():
            if axis != d_axis or face_sign != -sign:
                continue
            us = [p[u_axis] / mesh.UNIT for p in quad]
            vs = [p[v_axis] / mesh.UNIT for p in quad]
            d = quad[0][d_axis] / mesh.UNIT
            paint(min(us), max(us), min(vs), max(vs), d, colour)
    for placed in layout.placed:
        colour = PART_COLOURS.get(placed.part)
        if colour is None:
            continue  # the printed parts above
        for b in placed.boxes:
            d = b[d_axis] if sign > 0 else b[d_axis + 3]
            paint(b[u_axis], b[u_axis + 3], b[v_axis], b[v_axis + 3], d, colour)
    if which == "front":
        for (x0, z0, x1, z1), placed in zip(layout.digits, layout.placed[:2], strict=True):
            d = placed.boxes[0][1] - 0.01
            paint(x0 + 1, x1 - 1, z0, z1, d, DIGITS)
    return w, h, pixels


def png_bytes(layout, which):
    """The ``which`` view as PNG bytes."""
    w, h, pixels = view(layout, which)
    raw = b"".join(b"\x00" + bytes(c for pixel in row for c in pixel) for row in pixels)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )
