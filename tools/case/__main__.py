"""``python -m tools.case BOARD`` (``make case BOARD=pico``): the enclosure's STL files.

Writes build/case/BOARD/PART.stl for every printed part (shell, base, door, the
two lever caps) after the checks of ``tools.case.checks`` pass, and prints the
case's figures; with ``--pictures`` (``make docs``) it draws
docs/pictures/case-BOARD-front.png and -top.png for every board instead (the
perfboard layouts are tools.pictures's, drawn by tools.case.perfboard).
"""

import argparse
import os
import sys

import boards
from tools.case import checks, mesh, model, render

CASE_BOARDS = ("pico", "pico_w", "pico_big", "esp32")
PICTURES = os.path.join("docs", "pictures")


def picture_path(name, which):
    return os.path.join(PICTURES, "case-%s-%s.png" % (name, which))


def write_stl(name, out_dir):
    layout = model.layout(boards.load(name))
    problems = checks.problems(layout)
    if problems:
        for problem in problems:
            print("case %s: %s" % (name, problem), file=sys.stderr)
        return 1
    folder = os.path.join(out_dir, name)
    os.makedirs(folder, exist_ok=True)
    for part, steps in layout.printed.items():
        tris = mesh.triangles(mesh.Solid(steps))
        path = os.path.join(folder, part + ".stl")
        with open(path, "wb") as handle:
            handle.write(mesh.stl_bytes(tris, "%s %s" % (name, part)))
        print("wrote %s (%d facets)" % (path, len(tris)))
    figures = checks.figures(layout)
    print(
        "case %s: outer %s mm, smallest clearance %.2f mm (%s), thinnest wall %.2f mm, "
        "%d facets"
        % (
            name,
            " x ".join("%g" % v for v in figures["outer_mm"]),
            figures["smallest_clearance_mm"],
            figures["smallest_clearance_part"],
            figures["thinnest_wall_mm"],
            figures["facets"],
        )
    )
    return 0


def write_pictures():
    written = 0
    for name in CASE_BOARDS:
        layout = model.layout(boards.load(name))
        for which in ("front", "top"):
            data = render.png_bytes(layout, which)
            path = picture_path(name, which)
            old = None
            if os.path.exists(path):
                with open(path, "rb") as handle:
                    old = handle.read()
            if old != data:
                with open(path, "wb") as handle:
                    handle.write(data)
                print("wrote %s" % path)
                written += 1
    print("case pictures: %d written" % written)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.case")
    parser.add_argument("board", nargs="?", choices=CASE_BOARDS)
    parser.add_argument("--out", default=os.path.join("build", "case"))
    parser.add_argument("--pictures", action="store_true", help="draw docs/pictures/case-*.png")
    args = parser.parse_args(argv)
    if args.pictures:
        return write_pictures()
    if args.board is None:
        parser.error("name a board: " + ", ".join(CASE_BOARDS))
    return write_stl(args.board, args.out)


if __name__ == "__main__":
    sys.exit(main())
