"""Whether a board can be at PORT, checked before mpremote is asked to reach it
(``make deploy``, ``make selftest``): a serial device that does not exist is
no board plugged in, said as such with how to find the right port.

``python tools/board_port.py PORT`` prints the problem and exits 2, or exits 0.
"""

import os
import sys


def port_problem(port, exists=os.path.exists):
    """What is wrong with ``port`` (a sentence), or None when a board may answer there.
    mpremote's shortcuts (``a0``, ``u0``, ``auto``…) and COM ports are left to it."""
    if "/" in port and not exists(port):
        return (
            "no board answers at %s: nothing is plugged in there. Plug the board in by "
            "USB and run `.venv/bin/mpremote devs`: it lists the serial ports a board "
            "is on (a Pico is usually /dev/ttyACM0, an ESP32 /dev/ttyUSB0); then give "
            "that one as PORT" % port
        )
    return None


def main(argv):
    problem = port_problem(argv[1] if len(argv) > 1 else "")
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
