"""Command line of the simulator: ``python -m sim run [--mpy] FILE...``, ``python -m sim play``.

Without ``--mpy`` the scripts run here on CPython; with it, the same runner
and firmware run inside MicroPython (the WebAssembly port, under Node.js).
"""

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY_RUNNER = os.path.join(ROOT, "tools", "mpy", "run.mjs")


def _run_mpy(files):
    if not os.path.exists(os.path.join(ROOT, "tools", "mpy", "node_modules")):
        print("MicroPython lane not installed: run `make setup`", file=sys.stderr)
        return 2
    completed = subprocess.run(["node", MPY_RUNNER, "sim.runner", *files])
    return completed.returncode


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sim", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run clock scripts in virtual time")
    run.add_argument("--mpy", action="store_true", help="run the firmware inside MicroPython")
    run.add_argument("files", nargs="+", metavar="FILE")
    play = commands.add_parser(
        "play", help="the clock live: a window with a screen, else the terminal (docs/simulator.md)"
    )
    play.add_argument("--control", metavar="TC", help="time control (default 300+3)")
    play.add_argument("--board", default="sim", help="board definition of boards/ (default sim)")
    play.add_argument("--speed", type=float, default=1.0, metavar="FACTOR", help="x real time")
    play.add_argument("--script", metavar="FILE", help="play this clock script, then go live")
    play.add_argument("--record", metavar="FILE", help="write the session as a clock script")
    play.add_argument(
        "--hall", metavar="FILE", help="join the tournament hall with this hall file (docs/hall.md)"
    )
    front = play.add_mutually_exclusive_group()
    front.add_argument("--window", action="store_true", help="the Tk window, or an error")
    front.add_argument("--terminal", action="store_true", help="the terminal, even with a screen")
    arguments = parser.parse_args(argv)
    if arguments.command == "run" and arguments.mpy:
        return _run_mpy(arguments.files)
    sys.path.insert(0, ROOT)
    if arguments.command == "play":
        from sim.live import main as play_main

        return play_main(arguments)
    from sim.runner import run_files

    return run_files(arguments.files)


if __name__ == "__main__":
    sys.exit(main())
