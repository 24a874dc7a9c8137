"""The layers of the code, read from its imports: the check and the picture.

Every module of the folders below is parsed with ``ast`` and every import
in it is read, inside functions too. A folder may import its own modules,
the folders of the layers below its own (the board definitions, data,
import none), and, in the three bottom layers, only the outside modules
listed for them (MicroPython's built-ins and the
drivers); the top layers may use anything outside. An import of a folder of
a higher layer is an arrow pointing up: ``violations`` lists each one, and
``tests/test_layers.py`` fails on any.

``python -m tools.layers`` draws ``docs/pictures/layers.svg`` from the same
reading: the layers from top to bottom, each folder's job, and one arrow
from each layer to every layer it imports, so every arrow points down.
"""

import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PICTURE = os.path.join("docs", "pictures", "layers.svg")

# Bottom to top; the folders of one layer may import each other.
LAYERS = (
    ("firmware",),
    ("boards",),
    ("hal",),
    ("sim",),
    ("live", "tools", "bench", "hall", "web"),
)
_BUILT_IN = ("micropython", "sys", "gc", "json", "struct", "array")
# What the bottom layers may import from outside the repository's folders.
OUTSIDE = {
    "firmware": _BUILT_IN,  # no machine, no time: the core never reads a clock
    "boards": (),  # data: nothing at all
    "hal": _BUILT_IN
    + (
        "os",
        "time",
        "errno",
        "io",
        "select",
        "socket",
        "random",
        "machine",
        "network",
        "rp2",
        "esp32",
    )
    + ("ssl", "binascii"),  # the hall link's TLS and its CA as DER (hal/tls_stream.py)
}
OUTSIDE_PREFIXES = {"hal": ("adafruit_",)}
# Folders that may not import every layer below them: the board definitions are data.
OWN_ONLY = ("boards",)
JOBS = {
    "firmware": "the clock: pure logic, time passed in as ticks",
    "boards": "each board's pins, buses and addresses, as data",
    "hal": "a board's hardware behind small objects, and boot",
    "sim": "the simulated board and the clock-script runner",
    "live": "the clock in a window or a terminal",
    "tools": "the board's main.py, checks, pictures",
    "bench": "the measurements of make bench",
    "hall": "the tournament hall on the host",
    "web": "the clock in a web page",
}


def rank(folder):
    """The layer of ``folder`` (0 at the bottom), or None if it is not one of them."""
    for index, folders in enumerate(LAYERS):
        if folder in folders:
            return index
    return None


def imports_of(source, module=""):
    """(line, imported module) for every import in ``source``, inside functions too;
    ``module`` (dotted) resolves relative imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level:
                base = module.split(".")[: -node.level]
                name = ".".join(base + ([name] if name else []))
            found.append((node.lineno, name))
    return sorted(found)


def problems_of(folder, source, module=""):
    """The upward or forbidden imports of one module of ``folder``, as sentences."""
    own = rank(folder)
    problems = []
    for line, name in imports_of(source, module):
        top = name.split(".")[0]
        other = rank(top)
        if other is not None:
            if other > own:
                problems.append(
                    "%d: %s imports %s, a layer above it (%s)"
                    % (line, folder, name, " / ".join(LAYERS[other]))
                )
            elif folder in OWN_ONLY and top != folder:
                problems.append(
                    "%d: %s imports %s: it is data and imports nothing" % (line, folder, name)
                )
        elif folder in OUTSIDE and not _outside_allowed(folder, top):
            problems.append("%d: %s may not import %s" % (line, folder, name))
    return problems


def _outside_allowed(folder, top):
    if top in OUTSIDE[folder]:
        return True
    return any(top.startswith(prefix) for prefix in OUTSIDE_PREFIXES.get(folder, ()))


def modules(root=ROOT):
    """(folder, path relative to ``root``, dotted module name) of every module of the layers."""
    found = []
    for folders in LAYERS:
        for folder in folders:
            for directory, names, files in os.walk(os.path.join(root, folder)):
                names[:] = sorted(n for n in names if n not in ("__pycache__", "node_modules"))
                for name in sorted(files):
                    if name.endswith(".py"):
                        path = os.path.relpath(os.path.join(directory, name), root)
                        dotted = path[:-3].replace(os.sep, ".")
                        if dotted.endswith(".__init__"):
                            dotted = dotted[: -len(".__init__")]
                        found.append((folder, path, dotted))
    return found


def _read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as handle:
        return handle.read()


def violations(root=ROOT):
    """Every upward or forbidden import under ``root``: ``path:line: what``."""
    found = []
    for folder, path, dotted in modules(root):
        for problem in problems_of(folder, _read(root, path), dotted):
            found.append("%s:%s" % (path, problem))
    return found


def graph(root=ROOT):
    """``({folder: set of folders it imports}, {folder: set of outside modules})``."""
    folders = {}
    outside = {}
    for folder, path, dotted in modules(root):
        folders.setdefault(folder, set())
        outside.setdefault(folder, set())
        for _line, name in imports_of(_read(root, path), dotted):
            top = name.split(".")[0]
            if rank(top) is None:
                outside[folder].add(top)
            elif top != folder:
                folders[folder].add(top)
    return folders, outside


# --- the picture --------------------------------------------------------------

INK = "#1f2328"
MUTED = "#57606a"
FILLS = ("#e8f1e4", "#f4f4f4", "#e6eef8", "#f8f0e3", "#f1e8f4")
_LEFT = 20
_BAND_WIDTH = 600
_BAND_HEIGHT = 78
_GAP = 34
_TOP = 64
_LANE = 26  # between the lanes of the arrows, right of the bands


def _esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _label(x, y, text, size=13, weight="normal", fill=INK, anchor="start"):
    return (
        '<text x="%d" y="%d" font-family="sans-serif" font-size="%d" font-weight="%s" '
        'fill="%s" text-anchor="%s">%s</text>' % (x, y, size, weight, fill, anchor, _esc(text))
    )


def _outside_text(folder, outside):
    names = sorted(outside)
    if folder not in OUTSIDE:
        return ""
    shown = []
    for name in names:
        prefix = [p for p in OUTSIDE_PREFIXES.get(folder, ()) if name.startswith(p)]
        shown.append(prefix[0] + "*" if prefix else name)
    shown = sorted(set(shown))
    return "outside: " + (", ".join(shown) if shown else "nothing")


def svg(root=ROOT):
    """The layers and their imports as SVG text (top layer first, arrows down)."""
    folders, outside = graph(root)
    layers = [tuple(f for f in group if f in folders) for group in LAYERS]
    rows = [group for group in reversed(layers) if group]  # top first
    band_of = {}
    body = []
    for row, group in enumerate(rows):
        y = _TOP + row * (_BAND_HEIGHT + _GAP)
        fill = FILLS[rank(group[0]) % len(FILLS)]
        body.append(
            '<rect id="layer-%s" x="%d" y="%d" width="%d" height="%d" rx="8" fill="%s" '
            'stroke="%s" stroke-width="1.5"/>'
            % ("-".join(group), _LEFT, y, _BAND_WIDTH, _BAND_HEIGHT, fill, INK)
        )
        width = _BAND_WIDTH // len(group)
        for index, folder in enumerate(group):
            band_of[folder] = row
            x = _LEFT + index * width + 12
            body.append(_label(x, y + 24, folder + "/", 16, "bold"))
            job = JOBS.get(folder, "")
            if len(group) > 1:
                body.append(_label(x, y + 44, job, 11, fill=MUTED, anchor="start"))
            else:
                body.append(_label(x, y + 44, job, 13))
                body.append(
                    _label(x, y + 64, _outside_text(folder, outside[folder]), 12, "normal", MUTED)
                )
    # One lane per importing row: out of its band's right edge, down, into each target.
    right = _LEFT + _BAND_WIDTH
    lanes = sorted({band_of[f] for f in folders if folders[f] - {f}})
    for lane_index, row in enumerate(lanes):
        targets = set()
        for folder in folders:
            if band_of[folder] == row:
                targets |= {band_of[t] for t in folders[folder] if t in band_of}
        targets.discard(row)
        if not targets:
            continue
        lane_x = right + 20 + lane_index * _LANE
        start_y = _TOP + row * (_BAND_HEIGHT + _GAP) + 18 + lane_index * 12
        entries = [_TOP + t * (_BAND_HEIGHT + _GAP) + 18 + lane_index * 12 for t in sorted(targets)]
        points = "%d,%d %d,%d %d,%d" % (right, start_y, lane_x, start_y, lane_x, max(entries))
        body.append(
            '<polyline id="imports-from-%s" points="%s" fill="none" stroke="%s" '
            'stroke-width="1.8"/>' % ("-".join(rows[row]), points, INK)
        )
        for target, y in zip(sorted(targets), entries, strict=True):
            body.append(
                '<line id="%s-imports-%s" x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" '
                'stroke-width="1.8"/>'
                % ("-".join(rows[row]), "-".join(rows[target]), lane_x, y, right + 8, y, INK)
            )
            body.append(
                '<polygon points="%d,%d %d,%d %d,%d" fill="%s"/>'
                % (right, y, right + 9, y - 5, right + 9, y + 5, INK)
            )
    width = right + 40 + len(lanes) * _LANE
    height = _TOP + len(rows) * (_BAND_HEIGHT + _GAP) + 8
    title = "The layers of the code: each imports only the layers below it"
    head = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        'role="img">' % (width, height, width, height),
        "<title>%s</title>" % _esc(title),
        '<rect width="%d" height="%d" fill="#ffffff"/>' % (width, height),
        _label(_LEFT, 28, title, 16, "bold"),
        _label(
            _LEFT, 48, "drawn from the imports by tools/layers.py; arrows: imports", 12, fill=MUTED
        ),
    ]
    return "\n".join(head + body + ["</svg>"]) + "\n"


def main(argv):
    """Check the layers; then write the picture (``--check``: only check it is current)."""
    found = violations()
    for problem in found:
        print(problem)
    path = os.path.join(ROOT, PICTURE)
    text = svg()
    if "--check" in argv:
        with open(path, encoding="utf-8") as handle:
            current = handle.read() == text
        print(
            "%s: %s" % (PICTURE, "current" if current else "out of date (python -m tools.layers)")
        )
        return 1 if found or not current else 0
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    print("wrote %s" % PICTURE)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
