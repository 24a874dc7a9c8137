"""``python -m live``: the clock live, in a window if there is a screen, else in the terminal.

Checks every option before anything runs (a bad one is a clear error and
exit status 2), starts the session (from a time control, or from a clock
script played in virtual time), runs the window or the terminal until the
user quits, then prints the end state line and, with ``--record``, writes
the session as a clock script that ``python -m sim run`` replays.
"""

import argparse
import os
import shlex
import signal
import sys
import time

from live.session import LiveSession, header_text
from sim import script as script_module

DEFAULT_CONTROL = "300+3"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def replay_command(record, cwd=None):
    """The shell command that replays ``record``, to be typed where the user stands
    (``cwd``): the interpreter running now (the project's ``.venv``, where ``make
    setup`` put the dependencies) with ``-m sim`` from the repository's root."""
    cwd = os.getcwd() if cwd is None else cwd
    python = sys.executable
    if os.path.realpath(cwd) == os.path.realpath(ROOT):
        inside = os.path.relpath(python, cwd)
        python = inside if not inside.startswith("..") else python
        return "%s -m sim run %s" % (shlex.quote(python), shlex.quote(record))
    return "cd %s && %s -m sim run %s" % (
        shlex.quote(ROOT),
        shlex.quote(python),
        shlex.quote(os.path.abspath(os.path.join(cwd, record))),
    )


class OptionError(Exception):
    pass


def _script_text(arguments):
    if arguments.script is None:
        return header_text(arguments.control or DEFAULT_CONTROL, arguments.board)
    if arguments.control is not None:
        raise OptionError("--control and --script: the script's control statement sets it")
    try:
        with open(arguments.script) as handle:
            return handle.read()
    except OSError as error:
        raise OptionError("%s: cannot read: %s" % (arguments.script, error))


def _check(arguments, text):
    import boards

    try:
        boards.load(arguments.board)
    except ValueError as error:
        raise OptionError("--board: %s" % error)
    if not arguments.speed > 0 or arguments.speed > 1000:
        raise OptionError("--speed must be above 0 and at most 1000, got %g" % arguments.speed)
    try:
        script_module.parse(text)
    except script_module.ScriptError as error:
        where = arguments.script or "--control"
        raise OptionError("%s:%d: %s" % (where, error.line, error.message))
    hall = getattr(arguments, "hall", None)
    if hall is not None and not os.access(hall, os.R_OK):
        raise OptionError("--hall: cannot read %s" % hall)
    record = arguments.record
    if record is not None:
        if os.path.exists(record):
            raise OptionError("--record: %s exists already; give a new file name" % record)
        folder = os.path.dirname(os.path.abspath(record))
        if not os.access(folder, os.W_OK):
            raise OptionError("--record: cannot write in %s" % folder)


def _window_possible():
    """None if a Tk window can open here, else why not."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "no screen (DISPLAY is not set)"
    try:
        import tkinter

        probe = tkinter.Tk()
        probe.destroy()
    except ImportError:
        return "Python has no Tk here (Debian: apt-get install python3-tk)"
    except Exception as error:  # tkinter.TclError: no usable display
        return "Tk cannot open a window: %s" % error
    return None


def _interrupt(*signal_arguments):
    raise KeyboardInterrupt


def parse_options(argv=None):
    """The command line's options (``--help`` lists them)."""
    parser = argparse.ArgumentParser(
        prog="python -m live",
        description="The clock live: a window with a screen, else the terminal.",
    )
    parser.add_argument("--control", metavar="TC", help="time control (default 300+3)")
    parser.add_argument("--board", default="sim", help="board definition of boards/ (default sim)")
    parser.add_argument("--speed", type=float, default=1.0, metavar="FACTOR", help="x real time")
    parser.add_argument("--script", metavar="FILE", help="play this clock script, then go live")
    parser.add_argument("--record", metavar="FILE", help="write the session as a clock script")
    parser.add_argument(
        "--hall", metavar="FILE", help="join the tournament hall with this hall file (docs/hall.md)"
    )
    front = parser.add_mutually_exclusive_group()
    front.add_argument("--window", action="store_true", help="the Tk window, or an error")
    front.add_argument("--terminal", action="store_true", help="the terminal, even with a screen")
    return parser.parse_args(argv)


def main(arguments):
    """Run the live clock with the parsed options; return the exit status."""
    try:
        text = _script_text(arguments)
        _check(arguments, text)
    except OptionError as error:
        print("live: %s" % error, file=sys.stderr)
        return 2
    front = "terminal" if arguments.terminal else "window"
    why_terminal = ""  # why the window did not open, kept on the terminal's screen
    if front == "window":
        reason = _window_possible()
        if reason is not None:
            if arguments.window:
                print("live --window: %s" % reason, file=sys.stderr)
                return 2
            front = "terminal"
            why_terminal = "in this terminal: %s" % reason
            print("live: %s; the clock runs in this terminal" % reason, file=sys.stderr)
    hall = getattr(arguments, "hall", None)
    board_name = arguments.board if hall is None or arguments.board != "sim" else "pico_w"
    session = LiveSession(text, board_name, arguments.speed, hall_file=hall)
    try:
        if arguments.script is not None:
            session.play_script(print)
        note = "speed x%g" % arguments.speed if arguments.speed != 1 else ""
        if arguments.record:
            note = (note + "   " if note else "") + "recording to " + arguments.record
        if front == "window":
            from live.window import ClockWindow

            window = ClockWindow(
                session, "Chess clock (simulator, board %s)" % arguments.board, note
            )
            signal.signal(signal.SIGINT, window.request_quit)
            signal.signal(signal.SIGTERM, window.request_quit)
            window.run()
        else:
            from live.terminal import run_terminal

            signal.signal(signal.SIGTERM, _interrupt)
            run_terminal(session, "   ".join(part for part in (why_terminal, note) if part))
        end = session.finish()
        print("end: " + end)
        if arguments.record:
            stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
            how = "board %s, speed %g, %s" % (arguments.board, arguments.speed, stamp)
            with open(arguments.record, "w") as handle:
                handle.write(session.script_text_recorded(how))
            print(
                "recorded to %s; replay: %s" % (arguments.record, replay_command(arguments.record))
            )
    finally:
        session.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(parse_options()))
