"""``python -m tools.case BOARD`` (``make case BOARD=pico``): the clock's model and its files.

Builds the model of ``tools.case.cad``, runs every fit of ``tools.case.fits``
and, if all hold, writes build/case/BOARD/clock.step (the whole clock, every
part named, for FreeCAD or another CAD program) and one STL file per printed
part, turned as it is printed (build/case/BOARD/PART.stl), each read back
and refused unless closed (tools.case.stl); then prints the
figures. ``--pictures`` (``make docs``) draws docs/pictures/case-BOARD-*.png
for every board instead (tools.case.render). Needs build123d: ``make case-tools``.
"""

import argparse
import os
import sys

import boards

CASE_BOARDS = ("pico", "pico_w", "pico_big", "esp32")
PICTURES = os.path.join("docs", "pictures")
VIEWS = ("front", "back", "below", "exploded", "cut")


def picture_path(name, which):
    return os.path.join(PICTURES, "case-%s-%s.png" % (name, which))


def write_files(name, out_dir):
    from build123d import Compound, export_step, export_stl

    from tools.case import cad, figures, fits, stl

    assembly = cad.assembly(boards.load(name))
    problems = fits.problems(assembly) + figures.lever_problems()
    for problem in problems:
        print("case %s: %s" % (name, problem), file=sys.stderr)
    if problems:
        return 1
    folder = os.path.join(out_dir, name)
    os.makedirs(folder, exist_ok=True)
    children = []
    for part in assembly.parts.values():
        solid = part.solid
        solid.label = part.name
        children.append(solid)
        if part.printed:
            path = os.path.join(folder, part.name + ".stl")
            export_stl(fits.on_bed(part), path, tolerance=0.02, angular_tolerance=0.2)
            with open(path, "rb") as handle:
                bad = stl.problems(handle.read())
            repairs = stl.admesh_repairs(path)
            if repairs:
                bad.append("admesh would repair it: %s" % repairs)
            for problem in bad:
                print("case %s: %s: %s" % (name, path, problem), file=sys.stderr)
            if bad:
                return 1
            print("wrote %s" % path)
    path = os.path.join(folder, "clock.step")
    export_step(Compound(children=children, label="clock_" + name), path)
    print("wrote %s (%d parts)" % (path, len(children)))
    f = figures.figures(assembly, problems)
    print(
        "case %s: %d parts, %d printed; outer %s mm; interference %g mm3; smallest clearance "
        "%.2f mm (%s), tolerance %.1f mm; %.1f cm3 of filament, %.0f g; lever travel %.1f mm, "
        "operates at %.1f mm, switch %.2f N"
        % (
            name,
            f["parts"],
            f["printed_parts"],
            " x ".join("%g" % v for v in f["outer_mm"]),
            f["interference_mm3"],
            f["smallest_clearance_mm"],
            f["smallest_clearance_between"],
            f["tolerance_mm"],
            f["filament_cm3"],
            f["filament_g"],
            f["lever_travel_mm"],
            f["lever_operate_mm"],
            f["switch_force_n"],
        )
    )
    return 0


def write_pictures(names=CASE_BOARDS):
    from tools.case import cad, render

    for name in names:
        assembly = cad.assembly(boards.load(name))
        for which in VIEWS:
            path = picture_path(name, which)
            render.save(render.view(assembly, which), path)
            print("wrote %s" % path)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.case")
    parser.add_argument("board", nargs="?", choices=CASE_BOARDS)
    parser.add_argument("--out", default=os.path.join("build", "case"))
    parser.add_argument("--pictures", action="store_true", help="draw docs/pictures/case-*.png")
    args = parser.parse_args(argv)
    try:
        import build123d  # noqa: F401
    except ImportError:
        print("the case needs build123d: make case-tools", file=sys.stderr)
        # make docs draws everything else without it; make case cannot
        return 0 if args.pictures else 2
    if args.pictures:
        return write_pictures((args.board,) if args.board else CASE_BOARDS)
    if args.board is None:
        parser.error("name a board: " + ", ".join(CASE_BOARDS))
    return write_files(args.board, args.out)


if __name__ == "__main__":
    sys.exit(main())
