"""Command line of the scenario runner: ``python -m sim run [--mpy [--compiled]] FILE...``.

Without ``--mpy`` the scripts run here on CPython; with it, the same runner
and firmware run inside MicroPython (the WebAssembly port, under Node.js),
compiled there from the sources, or with ``--compiled`` loaded as the
``.mpy`` files of ``make mpy`` (build/mpy), as a board loads them.
``python -m sim latency [--mpy] [BOARD...] [LEVEL...]`` runs the latency check
of ``make selftest`` on the simulated board (``sim.latency_check``).
"""

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY_RUNNER = os.path.join(ROOT, "tools", "mpy", "run.mjs")
# The scripts' interpreter heap: the runner, the script and its lines sit beside the
# firmware, and a 1 MiB heap (the port's default, at which bench measures the boards'
# heaps) collects about a quarter of the run; 8 MiB, and the collections cost little.
SCRIPT_HEAP = 8 * 1024 * 1024


def _run_mpy(files, every_tick, latency, compiled, ready=False):
    if not os.path.exists(os.path.join(ROOT, "tools", "mpy", "node_modules")):
        print("MicroPython lane not installed: run `make setup`", file=sys.stderr)
        return 2
    option = ["--every-tick"] if every_tick else []
    if latency is not None:
        option.append("--latency=" + latency)
    if ready:
        option.append("--ready")
    loaded = ["--compiled"] if compiled else []
    heap = "--heap=%d" % SCRIPT_HEAP
    completed = subprocess.run(["node", MPY_RUNNER, *loaded, heap, "sim.runner", *option, *files])
    return completed.returncode


def _latency(arguments):
    words = list(arguments.names)
    if arguments.no_ring:
        words.append("--no-ring")
    if arguments.presses is not None:
        words.append("--presses=%d" % arguments.presses)
    if arguments.seed is not None:
        words.append("--seed=%d" % arguments.seed)
    if arguments.mpy:
        if not os.path.exists(os.path.join(ROOT, "tools", "mpy", "node_modules")):
            print("MicroPython lane not installed: run `make setup`", file=sys.stderr)
            return 2
        return subprocess.run(["node", MPY_RUNNER, "sim.latency_check", *words]).returncode
    sys.path.insert(0, ROOT)
    from sim import latency_check

    return latency_check.main(words)


def main(argv=None):
    from hal.board_check import board_names

    parser = argparse.ArgumentParser(prog="python -m sim", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run clock scripts in virtual time")
    run.add_argument("--mpy", action="store_true", help="run the firmware inside MicroPython")
    run.add_argument(
        "--compiled",
        action="store_true",
        help="with --mpy: load the firmware as the .mpy files of make mpy (build/mpy)",
    )
    run.add_argument(
        "--every-tick",
        action="store_true",
        help="run a main-loop step at every tick, none slept over as resting",
    )
    run.add_argument(
        "--latency",
        choices=("typical", "max"),
        help="the board's chip latencies (flash, I2C, collections, sockets) at their "
        "datasheets' typical or maximum figures (docs/spec/scripts.md)",
    )
    run.add_argument(
        "--ready",
        action="store_true",
        help="with --latency: the board booted and its journal's ring prepared before the "
        "script's 0, as a player finds it (docs/spec/scripts.md)",
    )
    run.add_argument("files", nargs="+", metavar="FILE")
    latency = commands.add_parser(
        "latency",
        help="the latency check of make selftest on the simulated board, jumpers and chip "
        "latencies included (sim/latency_check.py)",
    )
    latency.add_argument("--mpy", action="store_true", help="run it inside MicroPython")
    latency.add_argument("--no-ring", action="store_true", help="the journal without its ring")
    latency.add_argument("--presses", type=int, help="closes a board and level (200)")
    latency.add_argument("--seed", type=int, help="the seed of the closes' instants (20)")
    latency.add_argument(
        "names",
        nargs="*",
        metavar="BOARD|LEVEL",
        help="boards (%s: all without one) and levels "
        "(typical, max, ideal: typical and max without one)" % ", ".join(board_names()),
    )
    arguments = parser.parse_args(argv)
    if arguments.command == "run" and arguments.ready and arguments.latency is None:
        parser.error("--ready takes --latency: the ideal board is ready at once")
    if arguments.command == "latency":
        return _latency(arguments)
    if arguments.command == "run" and arguments.mpy:
        return _run_mpy(
            arguments.files,
            arguments.every_tick,
            arguments.latency,
            arguments.compiled,
            arguments.ready,
        )
    sys.path.insert(0, ROOT)
    from sim import code_cache
    from sim.runner import run_files

    code_cache.install()  # each boot imports the firmware again
    return run_files(
        arguments.files,
        rests=not arguments.every_tick,
        latency=arguments.latency,
        ready=arguments.ready,
    )


if __name__ == "__main__":
    sys.exit(main())
