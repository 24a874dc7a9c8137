"""make selftest: the host side's checks and mpremote commands, and the board's entry,
run inside MicroPython (the WebAssembly lane) in place of a board."""

import os
import shutil
import subprocess
import sys
import types

import pytest

from hal import board_check
from tests.scripting import ROOT, compiled_firmware, run_once

sys.path.insert(0, os.path.join(ROOT, "tools"))
import selftest  # noqa: E402
import selftest_board  # noqa: E402

NODE = shutil.which("node")
LANE = os.path.join(ROOT, "tools", "mpy", "run.mjs")
needs_lane = pytest.mark.skipif(
    NODE is None or not os.path.isdir(os.path.join(ROOT, "tools", "mpy", "node_modules")),
    reason="the MicroPython lane is not set up (make setup)",
)
TWO = [
    "tests/scenarios/timing/periods-fide-standard.clock",
    "tests/scenarios/flags/canadian-byo-yomi.clock",
]


class Device:
    """Stands in for ``subprocess.run`` of mpremote: notes each command; ``board`` makes
    the output of the command that runs the entry."""

    def __init__(self, board=None):
        self.commands = []
        self.board = board

    def __call__(self, command, **options):
        self.commands.append(command)
        stdout = ""
        if "run" in command and self.board is not None:
            stdout = self.board()
        return types.SimpleNamespace(returncode=0, stdout=stdout, stderr="")


def run_main(arguments, device=None):
    lines = []
    status = selftest.main(
        arguments, run_command=device or Device(), out=lines.append, port_exists=lambda port: True
    )
    return status, lines


# --- arguments -------------------------------------------------------------


@pytest.mark.parametrize(
    "arguments, words",
    [
        (["--port", "/dev/ttyACM0"], "BOARD is not given"),
        (["--board", "sim", "--port", "/dev/ttyACM0"], "simulator"),
        (["--board", "stm32", "--port", "/dev/ttyACM0"], "BOARD=stm32 is not one of"),
        (["--board", "pico"], "PORT is not given"),
        (["--board", "pico", "--port", "x", "README.md"], "not a clock script"),
        (["--board", "pico", "--port", "x", "tests/scenarios/none.clock"], "does not exist"),
    ],
)
def test_bad_arguments_stop_before_any_command(arguments, words):
    device = Device()
    status, lines = run_main(arguments, device)
    assert status == 2
    assert any(words in line for line in lines), lines
    assert lines[-1] == "usage: make selftest BOARD=pico PORT=/dev/ttyACM0"
    assert device.commands == []


def test_a_script_outside_the_repository_is_refused(tmp_path):
    script = tmp_path / "x.clock"
    script.write_text("control 300\n")
    status, lines = run_main(["--board", "esp32", "--port", "/dev/ttyUSB0", str(script)])
    assert status == 2 and "outside the repository" in lines[0]


def test_every_board_is_offered():
    # pico_w: the Pico W, which plays the scripts offline (no hall file on the flash)
    # (its own reading of boards/: it runs before the project is on sys.path)
    assert selftest.board_names() == board_check.board_names()
    assert "pico_w" in selftest.board_names()


# --- the commands ----------------------------------------------------------


def commands_for(scripts, build):
    modules = selftest.runner_modules()
    return selftest.board_commands(
        "mpremote", "/dev/ttyACM0", os.path.join(build, "mpy"), build, modules, scripts
    )


def test_the_runner_modules_are_the_runners_imports():
    modules = selftest.runner_modules()
    for needed in ("runner", "world", "machine", "vclock", "script", "ht16k33", "__init__"):
        assert "sim/%s.py" % needed in modules
    for host_only in ("__main__", "segments_geometry", "network"):
        assert "sim/%s.py" % host_only not in modules


def test_the_command_sequence(tmp_path):
    build = str(tmp_path)
    for folder, name in (("firmware", "app"), ("hal", "buzzer"), ("lib/adafruit_ht16k33", "x")):
        os.makedirs(os.path.join(build, "mpy", folder), exist_ok=True)
        open(os.path.join(build, "mpy", folder, name + ".mpy"), "w").close()
    stop_clock, run, clean_up = commands_for(TWO, build)
    # 1: the flag that keeps the clock (and its watchdog) off, then a reset.
    assert stop_clock[:4] == ["mpremote", "connect", "/dev/ttyACM0", "exec"]
    assert "/hold.txt" in stop_clock[4] and stop_clock[5:] == ["+", "reset"]
    # 2: folders, then copies, then the entry, last.
    assert run[:4] == ["mpremote", "connect", "/dev/ttyACM0", "exec"]
    made = run[4]
    for folder in ("firmware", "hal", "lib/adafruit_ht16k33", "selftest/sim", "selftest/tests"):
        assert repr(folder) in made
    copies = []
    index = 5
    while run[index] == "+" and run[index + 1] == "cp":
        copies.append((run[index + 2], run[index + 3]))
        index += 4
    assert run[index:] == ["+", "run", os.path.join(ROOT, "tools", "selftest_board.py")]
    targets = {
        os.path.relpath(local, ROOT) if local.startswith(ROOT) else local: target
        for local, target in copies
    }
    assert targets[os.path.join(build, "mpy", "firmware", "app.mpy")] == ":/firmware/"
    assert targets[os.path.join(build, "mpy", "hal", "buzzer.mpy")] == ":/hal/"
    assert targets[os.path.join(build, "mpy", "lib/adafruit_ht16k33", "x.mpy")] == (
        ":/lib/adafruit_ht16k33/"
    )
    assert targets[os.path.join(build, "sim", "runner.mpy")] == ":/selftest/sim/"
    assert targets[TWO[0]] == ":/selftest/tests/scenarios/timing/"
    assert targets[os.path.join(build, "scripts.txt")] == ":/selftest/"
    assert len(copies) == 3 + len(selftest.runner_modules()) + len(TWO) + 1
    # 3: the flag and the copies go, and the board restarts into the clock.
    assert clean_up[3:] == [
        "exec",
        "import os\nos.remove('/hold.txt')",
        "+",
        "rm",
        "-r",
        ":/selftest",
        "+",
        "reset",
    ]


def test_dry_run_prints_three_commands_and_runs_none():
    device = Device()
    status, lines = run_main(["--board", "pico", "--port", "/dev/ttyACM0", "--dry-run"], device)
    assert status == 0 and device.commands == []
    assert len(lines) == 3
    assert lines[0].split()[1:3] == ["connect", "/dev/ttyACM0"]


def test_the_board_main_stays_off_while_the_flag_is_there(monkeypatch, tmp_path):
    import builtins

    flag = tmp_path / "hold.txt"
    flag.write_text("selftest")
    real_open = builtins.open
    runs = []
    stand_in = types.ModuleType("hal.boot")
    stand_in.DEFAULT_BOARD = "pico"
    stand_in.run = runs.append
    import hal

    monkeypatch.setitem(sys.modules, "hal.boot", stand_in)
    monkeypatch.setattr(hal, "boot", stand_in, raising=False)

    def board_open(path, *args, **kwargs):
        if path == "/hold.txt":
            path = str(flag)
        elif path == "/board.txt":
            raise OSError(2, "ENOENT")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", board_open)
    with open(os.path.join(ROOT, "tools", "board_main.py")) as handle:
        source = compile(handle.read(), "board_main.py", "exec")
    exec(source, {"__name__": "__main__"})
    assert runs == []  # the clock stayed off
    flag.unlink()
    exec(source, {"__name__": "__main__"})
    assert runs == ["pico"]  # and starts once the flag is gone


# --- the board's entry ---------------------------------------------------------


def test_ram_disk_blocks():
    disk = selftest_board.RamDisk(4, 512)
    assert (disk.ioctl(4, 0), disk.ioctl(5, 0), disk.ioctl(6, 2)) == (4, 512, 0)
    disk.writeblocks(2, bytearray(b"\x01" * 512))
    disk.writeblocks(1, bytearray(b"ab"), 510)  # an offset write that crosses into block 2
    buffer = bytearray(4)
    disk.readblocks(1, buffer, 510)
    assert buffer == bytearray(b"ab\x01\x01")
    first = bytearray(512)
    disk.readblocks(0, first)
    assert first == bytearray(512)


def lane(arguments):
    done = subprocess.run(
        [NODE, LANE, "tools.selftest_board", "tools/selftest_board.py"] + arguments,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.returncode, done.stdout


def lane_once(arguments):
    """``lane(arguments)`` for scripts of the repository that no test changes, run once
    in the test run for the tests that read its output (``run_once``)."""
    status, stdout, _stderr = run_once(
        [NODE, LANE, "tools.selftest_board", "tools/selftest_board.py"] + arguments, timeout=300
    )
    return status, stdout


def host_lines(scripts):
    lines, status = selftest.expected_lines(scripts)
    return lines, status


@needs_lane
def test_the_entry_in_micropython_prints_the_hosts_lines():
    status, output = lane(["--ram-tmp"] + TWO)
    assert status == 0, output
    board, summary = selftest.board_lines(output)
    expected, expected_status = host_lines(TWO)
    assert expected_status == 0
    assert board == expected
    assert summary.startswith("selftest: status 0, 2 scripts")


@needs_lane
def test_a_failing_script_fails_on_the_board_too(tmp_path):
    # A script whose expectation is wrong: status 1 on both, with identical lines.
    bad = os.path.join(ROOT, "build", "selftest-bad.clock")
    os.makedirs(os.path.dirname(bad), exist_ok=True)
    with open(bad, "w") as handle:
        handle.write("control 300\nat 0 press right\nat 10 expect left=0:04:51\n")
    relative = "build/selftest-bad.clock"
    try:
        status, output = lane([relative])
        board, summary = selftest.board_lines(output)
        expected, expected_status = host_lines([relative])
    finally:
        os.remove(bad)
    assert status == 1 and expected_status == 1
    assert board == expected
    assert any("expect failed" in line for line in board)
    assert summary.startswith("selftest: status 1")


@needs_lane
def test_whole_selftest_against_the_lane_as_the_board():
    compiled_firmware()

    def board():
        return lane_once(TWO)[1]

    device = Device(board)
    status, lines = run_main(
        ["--board", "pico", "--port", "/dev/ttyACM0", "--reset-wait", "0"] + TWO, device
    )
    assert status == 0, lines
    assert lines[-1] == "selftest on pico: 2 scripts, 2 lines, identical to the host"
    assert [command[4 if command[3] == "exec" else 3] for command in device.commands][0].startswith(
        "open('/hold.txt'"
    )
    assert len(device.commands) == 3
    assert device.commands[1][-2:] == ["run", os.path.join(ROOT, "tools", "selftest_board.py")]


@needs_lane
def test_a_line_that_differs_fails_the_selftest():
    compiled_firmware()

    def board():
        return lane_once(TWO)[1].replace("moves=3", "moves=4")

    status, lines = run_main(
        ["--board", "esp32", "--port", "/dev/ttyUSB0", "--reset-wait", "0"] + TWO, Device(board)
    )
    assert status == 1
    # canadian-flag ends with moves=3: its script is named, host line then board line.
    report = [line for line in lines if line.startswith(TWO[1] + ":")]
    assert len(report) == 1
    assert "host:  " + TWO[1] in report[0] and "moves=3" in report[0]
    assert "board: " + TWO[1] in report[0] and "moves=4" in report[0]
    assert lines[-1].endswith("1 scripts differ from the host")


def test_lines_are_compared_script_by_script():
    # One script missing on the board shifts no other: only it is reported.
    scripts = ["a.clock", "b.clock", "c.clock"]
    host = ["a.clock: end: x", "b.clock:3: expect failed: y", "  actual: z", "c.clock: end: w"]
    board = ["a.clock: end: x", "c.clock: end: w"]
    differences = selftest.compare(host, board, scripts)
    assert differences == [
        "b.clock:\n  host:  b.clock:3: expect failed: y\n  board: (nothing)"
        "\n  host:    actual: z\n  board: (nothing)"
    ]
    assert selftest.compare(host, list(host), scripts) == []


def test_no_result_from_the_board_fails():
    compiled_firmware()
    status, lines = run_main(
        ["--board", "pico", "--port", "/dev/ttyACM0", "--reset-wait", "0", TWO[0]],
        Device(lambda: "Traceback (most recent call last):\nMemoryError\n"),
    )
    assert status == 1
    assert lines[0] == "selftest: the board printed no result:"


def test_frozen_copies_only_the_scripts(tmp_path):
    modules = selftest.runner_modules()
    _stop, run, _clean = selftest.board_commands(
        "mpremote", "/dev/ttyACM0", str(tmp_path / "mpy"), str(tmp_path), modules, TWO, True
    )
    copied = [run[index + 1] for index in range(len(run)) if run[index] == "cp"]
    assert copied == [os.path.join(ROOT, TWO[0]), os.path.join(ROOT, TWO[1])] + [
        os.path.join(str(tmp_path), "scripts.txt")
    ]


def test_the_manifest_freezes_the_same_runner_modules(monkeypatch):
    namespace = {}
    calls = []

    def recorder(name):
        return lambda *args, **kwargs: calls.append((name, args, kwargs))

    for name in ("metadata", "include", "require", "package", "module", "freeze"):
        namespace[name] = recorder(name)
    monkeypatch.setenv("CLOCK_SELFTEST", "1")
    monkeypatch.chdir(ROOT)
    with open(os.path.join(ROOT, "manifest.py")) as handle:
        exec(compile(handle.read(), "manifest.py", "exec"), namespace)
    frozen = [
        kwargs["files"] for name, args, kwargs in calls if name == "package" and args == ("sim",)
    ]
    assert frozen == [[module[len("sim/") :] for module in selftest.runner_modules()]]


def test_make_deploy_holds_the_clock_before_copying(tmp_path):
    """make deploy with a stand-in mpremote that notes its arguments: hold, copy, release."""
    log = tmp_path / "calls"
    fake = tmp_path / "mpremote"
    fake.write_text(
        "#!/bin/sh\nfor a in \"$@\"; do printf '%%s\\037' \"$a\" >> '%s'; done\n"
        "printf '\\036' >> '%s'\n" % (log, log)
    )
    fake.chmod(0o755)
    port = tmp_path / "ttyFAKE"  # a serial device that is there
    port.write_text("")
    done = subprocess.run(
        ["make", "-s", "deploy", "BOARD=pico", "PORT=%s" % port, "MPREMOTE=%s" % fake],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    calls = [call.split("\x1f")[:-1] for call in log.read_text().split("\x1e")[:-1]]
    assert len(calls) == 2
    hold, copy = calls
    assert hold == [
        "connect",
        str(port),
        "exec",
        "open('/hold.txt', 'w').write('deploy')",
        "+",
        "reset",
    ]
    assert copy[:3] == ["connect", str(port), "exec"]
    assert copy[-5:] == ["+", "exec", "import os; os.remove('/hold.txt')", "+", "reset"]
    assert ["cp", "tools/board_main.py", ":main.py"] == copy[
        copy.index("tools/board_main.py") - 1 : copy.index("tools/board_main.py") + 2
    ]
    assert "build/mpy/hal/watchdog.mpy" in copy


# --- no board at PORT --------------------------------------------------------

NO_BOARD = "/dev/ttyNOBOARD9"


def test_no_board_at_the_port_is_one_clear_message_and_nothing_runs():
    device = Device()
    lines = []
    status = selftest.main(
        ["--board", "pico", "--port", NO_BOARD], run_command=device, out=lines.append
    )
    assert status == 2 and device.commands == []
    assert len(lines) == 1
    assert lines[0].startswith("selftest: no board answers at %s:" % NO_BOARD)
    assert "mpremote devs" in lines[0]


def test_a_port_where_mpremote_reaches_nothing_is_one_clear_message():
    class Silent(Device):
        def __call__(self, command, **options):
            Device.__call__(self, command, **options)
            return types.SimpleNamespace(returncode=1, stdout="", stderr="failed to access")

    lines = []
    status = selftest.main(
        ["--board", "pico", "--port", "/dev/ttyACM0"],
        run_command=Silent(),
        out=lines.append,
        port_exists=lambda port: True,
    )
    assert status == 1
    assert lines == [
        "selftest: no board answers at /dev/ttyACM0 (mpremote could not reach it: another "
        "program may hold the port); `.venv/bin/mpremote devs` lists the boards"
    ]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is missing")
@pytest.mark.parametrize("goal", ["selftest", "deploy"])
def test_make_with_no_board_plugged_in_says_so_without_a_traceback(goal):
    done = subprocess.run(
        ["make", "--no-print-directory", "-C", ROOT, goal, "BOARD=pico", "PORT=" + NO_BOARD],
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert "Traceback" not in output and "may be in use" not in output
    assert "no board answers at %s" % NO_BOARD in output
    assert output.count("no board answers") == 1
