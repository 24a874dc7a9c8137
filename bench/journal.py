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
    for port in ("rp2", "esp32"):
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


def rows(figures):
    out = []
    for port in ("rp2", "esp32"):
        entry = figures[port]
        both = [entry["single"], entry["double"]]
        out += [
            (
                "%s: power-cut points tried (single + double faults)" % port,
                "%d + %d" % (both[0]["cut_points"], both[1]["cut_points"]),
                "every byte, every erase",
            ),
            ("%s: games lost after a cut" % port, sum(t["games_lost"] for t in both), "0"),
            ("%s: games invented after a cut" % port, sum(t["games_invented"] for t in both), "0"),
            ("%s: settings lost after a cut" % port, sum(t["settings"] for t in both), "0"),
            (
                "%s: restored times beyond the bound, boots that raised" % port,
                "%d, %d" % (sum(t["time"] for t in both), sum(t["raised"] for t in both)),
                "0 each",
                [sum(t["time"] for t in both), sum(t["raised"] for t in both)],
            ),
            (
                "%s: worst restored error, side to move, ms" % port,
                max(t["worst_restored_error_ms"] for t in both),
                "<= 5000",
            ),
            (
                "%s: journal bytes programmed per move, per hour" % port,
                "%d, %d" % (entry["bytes_per_move"], entry["bytes_per_hour"]),
                "report",
            ),
            ("%s: ring preparation, s" % port, entry["ring_preparation_s"], "report"),
            ("%s: wall time of the full sweep, s" % port, entry["wall_s"], "report"),
        ]
    return out


def main(argv):
    sample = None
    if "--sample" in argv:
        sample = int(argv[argv.index("--sample") + 1])
    double = DOUBLE_PER_STEP
    if "--double" in argv:
        double = int(argv[argv.index("--double") + 1])
    figures = journal_figures(double, sample)
    from bench import results

    for port in ("rp2", "esp32"):
        for name in ("single", "double"):
            for kind, items in figures[port][name]["examples"].items():
                print("%s %s %s: %s" % (port, name, kind, items[0]))
    return results.command("journal", figures, rows, argv, 14)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
