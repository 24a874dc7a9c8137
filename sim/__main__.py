"""Command line of the scenario runner: ``python -m sim run [--mpy] FILE...``.

Without ``--mpy`` the scripts run here on CPython; with it, the same runner
and firmware run inside MicroPython (the WebAssembly port, under Node.js).
"""

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY_RUNNER = os.path.join(ROOT, "tools", "mpy", "run.mjs")


def _run_mpy(files, every_tick, latency):
    if not os.path.exists(os.path.join(ROOT, "tools", "mpy", "node_modules")):
        print("MicroPython lane not installed: run `make setup`", file=sys.stderr)
        return 2
    option = ["--every-tick"] if every_tick else []
    if latency is not None:
        option.append("--latency=" + latency)
    completed = subprocess.run(["node", MPY_RUNNER, "sim.runner", *option, *files])
    return completed.returncode


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sim", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run clock scripts in virtual time")
    run.add_argument("--mpy", action="store_true", help="run the firmware inside MicroPython")
    run.add_argument(
        "--every-tick",
        action="store_true",
        help="run a main-loop step at every tick, none passed over as resting",
    )
    run.add_argument(
        "--latency",
        choices=("typical", "max"),
        help="the board's chip latencies (flash, I2C, collections, sockets) at their "
        "datasheets' typical or maximum figures (docs/spec/scripts.md)",
    )
    run.add_argument("files", nargs="+", metavar="FILE")
    arguments = parser.parse_args(argv)
    if arguments.command == "run" and arguments.mpy:
        return _run_mpy(arguments.files, arguments.every_tick, arguments.latency)
    sys.path.insert(0, ROOT)
    from sim.runner import run_files

    return run_files(arguments.files, rests=not arguments.every_tick, latency=arguments.latency)


if __name__ == "__main__":
    sys.exit(main())
