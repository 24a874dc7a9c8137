"""``make hall``: a broker, N simulated clocks playing seeded games, and the hall's page.

    python -m hall [--clocks 8] [--speed 1] [--seconds S] [--port 8080]

Starts Mosquitto on 127.0.0.1 with the hall's accounts, behind its login gate
as a hall's is (``hall.broker``, ``hall.gate``), runs each clock in a process
of its own (``python -m hall.clock``: the firmware on a simulated Pico W,
connected through a real socket), serves the view (``hall.view``) and prints
the page's address. Board 1 plays a 20 s game so that a flag falls soon; the
others play 5 min + 2 s. It also writes a hall file for one more board, with
which the desktop simulator joins the same hall, and the arbiter's account
for ``python -m hall.push``. Ctrl-C
(or ``--seconds``) stops everything it started.
"""

import argparse
import json
import os
import subprocess
import sys
import time

from hall.broker import Broker
from hall.view import HallView

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def control_of(board):
    return "20" if board == 1 else "300+2"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m hall", description=__doc__.split("\n")[0])
    parser.add_argument("--clocks", type=int, default=8, help="simulated clocks (default 8)")
    parser.add_argument("--speed", type=float, default=1.0, help="virtual time per wall second")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--port", type=int, default=0, help="the page's port (default: free)")
    args = parser.parse_args(argv)
    if not 1 <= args.clocks <= 500:
        parser.error("--clocks must be 1..500")
    numbers = list(range(1, args.clocks + 2))  # the last one for the desktop simulator
    broker = Broker(numbers, gate=True)  # as a hall runs it: its login gate in front
    processes = []
    view = None
    try:
        view = HallView(broker.host, broker.port, "view", broker.passwords["view"], boards=numbers)
        address = view.serve(args.port)
        for board in numbers:
            path = os.path.join(broker.folder, "hall-board-%d.json" % board)
            with open(path, "w") as handle:
                json.dump(broker.hall_file(board), handle)
        arbiter = os.path.join(broker.folder, "arbiter.json")
        with open(arbiter, "w") as handle:
            json.dump(
                {
                    "broker": broker.host,
                    "port": broker.port,
                    "user": "arbiter",
                    "password": broker.passwords["arbiter"],
                    "prefix": broker.prefix,
                },
                handle,
            )
        for board in numbers[:-1]:
            command = [
                sys.executable,
                "-m",
                "hall.clock",
                "--hall-file",
                os.path.join(broker.folder, "hall-board-%d.json" % board),
                "--control",
                control_of(board),
                "--seed",
                str(board),
                "--speed",
                str(args.speed),
                "--think-ms",
                "2500" if board == 1 else "6000",
            ]
            processes.append(subprocess.Popen(command, cwd=ROOT))
        extra = os.path.join(broker.folder, "hall-board-%d.json" % numbers[-1])
        print(
            "the hall: %s  (%d clocks, broker 127.0.0.1:%d)" % (address, args.clocks, broker.port)
        )
        print("the desktop simulator joins as board %d:" % numbers[-1])
        print("  make sim SIM_ARGS='--hall %s'" % extra)
        print(
            "the arbiter's push: .venv/bin/python -m hall.push --account %s --control 300+2"
            % arbiter
        )
        print("Ctrl-C stops the hall.")
        sys.stdout.flush()
        started = time.monotonic()
        while args.seconds is None or time.monotonic() - started < args.seconds:
            time.sleep(0.5)
            for process in processes:
                if process.poll() not in (None, 0):
                    print("a clock stopped with status %d" % process.returncode)
                    processes.remove(process)
                    break
    except KeyboardInterrupt:
        pass
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        if view is not None:
            view.close()
        broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
