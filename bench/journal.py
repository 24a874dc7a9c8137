"""Figures of the journal under power cuts at every byte, on the real littlefs (key ``journal``).

``python -m bench.journal`` runs the full sweep of ``sim.power_sweep`` on both
geometries (rp2: 4096 / 256, esp32: 4096 / 32) and prints, per geometry: the
cut points tried (every byte of every program and every erase of the
scripted game, then the double faults), games lost, games invented, settings
lost (goal 0 each), the worst restored error for the side to move (goal
<= 5 s), the journal's bytes programmed per move and per hour of play, the
ring's preparation time, and the sweep's wall time; ``--write`` stores only
the key ``journal`` in bench/latest.json. ``make bench`` runs it among the
others; ``make power-sweep`` runs the same sweep and fails if any cut point
fails. ``--sample N`` boots only a seeded N of the distinct flashes of the
game and of each double fault's (the figures then say so: ``sample``),
``--double N`` takes N first cuts of each step for the double faults.
docs/power.md says what is proved and how.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.figure_rows import Figure  # noqa: E402

DOUBLE_PER_STEP = 1  # first cuts of each step of the script cut again after their boot (each
# brings about 1,000 distinct flashes more to boot)
EXAMPLES = 3  # failures described per kind


def journal_figures(double=DOUBLE_PER_STEP, sample=None):
    """The sweep on both geometries, as the ``journal`` figures."""
    import littlefs

    from sim import code_cache, power_sweep

    code_cache.install()
    figures = {
        "littlefs": "%d.%d" % littlefs.__LFS_VERSION__,
        "littlefs_python": littlefs.__version__,
        "sample": sample,
        "double_first_cuts_per_step": double,
    }
    for port in PORTS:
        result = power_sweep.geometry(port, sample, double)
        entry = {}
        for name in ("single", "double"):
            tally = result[name]
            entry[name] = tally.figures()
            entry[name]["examples"] = {
                kind: items[:EXAMPLES] for kind, items in sorted(tally.examples.items())
            }
        for name in ("bytes_per_move", "bytes_per_hour", "ring_preparation_s", "wall_s"):
            entry[name] = result[name]
        entry["cut_points"] = entry["single"]["cut_points"] + entry["double"]["cut_points"]
        figures[port] = entry
    return figures


PORTS = ("rp2", "esp32")
FAULTS = (("single", "single cuts"), ("double", "double faults"))
BOUND = "≤ 5,000 ms"  # docs/power.md: the side to move loses at most the entry period


def declared():
    """Each geometry's figures (bench/figure_rows.py)."""
    figures = []
    for port in PORTS:
        path = "journal.%s." % port
        figures += [
            Figure(
                "%s: cut points of the game (every byte, every erase)" % port,
                path + "single.cut_points_of_the_game",
                "",
                "report",
            ),
            *(
                Figure(
                    "%s: cut points tried, %s" % (port, faults),
                    path + fault + ".cut_points",
                    "",
                    "all of the game's" if fault == "single" else "report",
                )
                for fault, faults in FAULTS
            ),
        ]
        for what, field in (
            ("games lost", "games_lost"),
            ("games invented", "games_invented"),
            ("settings lost", "settings"),
        ):
            figures += [
                Figure("%s: %s, %s" % (port, what, faults), path + fault + "." + field, "", "0")
                for fault, faults in FAULTS
            ]
        figures += [
            Figure(
                "%s: worst restored error, side to move" % port,
                path + "single.worst_restored_error_ms",
                "ms",
                BOUND,
            ),
            Figure(
                "%s: worst restored error, side to move, double faults" % port,
                path + "double.worst_restored_error_ms",
                "ms",
                BOUND,
                False,
            ),
        ]
        for what, field in (
            ("restored times beyond the bound", "time"),
            ("boots that raised", "raised"),
        ):
            figures += [
                Figure(
                    "%s: %s, %s" % (port, what, faults), path + fault + "." + field, "", "0", False
                )
                for fault, faults in FAULTS
            ]
        figures += [
            Figure(
                "%s: journal bytes programmed per move" % port,
                path + "bytes_per_move",
                "",
                "report",
            ),
            Figure(
                "%s: journal bytes programmed per hour of play" % port,
                path + "bytes_per_hour",
                "",
                "report",
            ),
            Figure("%s: ring preparation" % port, path + "ring_preparation_s", "s", "report"),
            Figure("%s: wall time of the sweep" % port, path + "wall_s", "s", "report"),
        ]
    return tuple(figures)


def rows(figures):
    """The section's table (``make bench``, ``python -m bench.journal``)."""
    from bench import figure_rows

    return figure_rows.table_rows(declared(), "journal", figures)


def main(argv):
    sample = None
    if "--sample" in argv:
        sample = int(argv[argv.index("--sample") + 1])
    double = DOUBLE_PER_STEP
    if "--double" in argv:
        double = int(argv[argv.index("--double") + 1])
    figures = journal_figures(double, sample)
    from bench import results

    for port in PORTS:
        for name, _faults in FAULTS:
            for kind, items in figures[port][name]["examples"].items():
                print("%s %s %s: %s" % (port, name, kind, items[0]))
    return results.command("journal", figures, rows, argv, 14)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
