"""The terminal clock in a pseudo-terminal: keys in, big digits out, read back segment by segment.

The test reads the screen as a person would: every cell of every segment,
point and colon dot, lit or dim. It turns them back into display RAM and
decodes that, and compares with the displays worked out by hand and with the
state line the simulator prints at the end. The session's record replays.
"""

import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from sim import ht16k33
from tests.scripting import ROOT, fields, run_cli

ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
LIT = ("\u2588", "#")
DARK = ("\u2591", ".")
DISPLAY_COLUMNS = 33
GAP_COLUMNS = 6
DIGIT_COLUMN = (0, 8, 18, 26)  # where each digit's 7 x 6 cells start; the colon is column 16
# The cells (row, column) of segments a-g in a digit, and its point.
SEGMENTS = (
    [(0, 1), (0, 2), (0, 3), (0, 4)],
    [(1, 5), (2, 5)],
    [(4, 5), (5, 5)],
    [(6, 1), (6, 2), (6, 3), (6, 4)],
    [(4, 0), (5, 0)],
    [(1, 0), (2, 0)],
    [(3, 1), (3, 2), (3, 3), (3, 4)],
)
POINT = (6, 6)
COLON = [(2, 16), (4, 16)]


def cell_lit(rows, row, column):
    char = rows[row][column]
    assert char in LIT + DARK, "row %d column %d is %r, not a segment" % (row, column, char)
    return char in LIT


def element_lit(rows, cells):
    states = {cell_lit(rows, row, column) for row, column in cells}
    assert len(states) == 1, "a segment half lit: %r" % (cells,)
    return states.pop()


def display_ram(rows):
    """The display RAM a 7-row drawing of one display shows."""
    ram = bytearray(16)
    for position, address in enumerate(ht16k33.DIGIT_BYTES):
        left = DIGIT_COLUMN[position]
        pattern = 0
        for bit, cells in enumerate(SEGMENTS):
            if element_lit(rows, [(row, left + column) for row, column in cells]):
                pattern |= 1 << bit
        if cell_lit(rows, POINT[0], left + POINT[1]):
            pattern |= ht16k33.DOT_BIT
        ram[address] = pattern
    if element_lit(rows, COLON):
        ram[ht16k33.COLON_BYTE] = ht16k33.COLON_BIT
    return ram


def decode_screen(frame):
    """``left|right`` as the screen's big digits show them, and the status line."""
    lines = ESCAPE.sub("", frame).split("\n")
    digit_rows = [line[2:] for line in lines[1:8]]
    left = [row[:DISPLAY_COLUMNS] for row in digit_rows]
    right_start = DISPLAY_COLUMNS + GAP_COLUMNS
    right = [row[right_start : right_start + DISPLAY_COLUMNS] for row in digit_rows]
    text = (
        ht16k33.decode_seg7x4(display_ram(left)) + "|" + ht16k33.decode_seg7x4(display_ram(right))
    )
    return text, lines[9].strip()


class Terminal:
    """``python -m live --terminal`` on a pseudo-terminal."""

    def __init__(self, arguments, env, front=("--terminal",)):
        controller, device = pty.openpty()
        self.controller = controller
        self.process = subprocess.Popen(
            [sys.executable, "-m", "live", *front, *arguments],
            cwd=ROOT,
            env=env,
            stdin=device,
            stdout=device,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        os.close(device)
        self.raw = b""

    def read(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.controller], [], [], 0.02)
            if ready:
                try:
                    data = os.read(self.controller, 65536)
                except OSError:  # the program ended and closed the terminal
                    return
                self.raw += data

    @property
    def output(self):
        return self.raw.decode("utf-8", "replace")

    def frames(self):
        """The complete screens drawn so far (each ends with the help lines)."""
        return [part for part in self.output.split("\x1b[H") if "Q: quit" in part]

    def screen_until(self, predicate, timeout=30):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            frames = self.frames()
            if frames and predicate(*decode_screen(frames[-1])):
                return decode_screen(frames[-1])
            self.read(0.05)
        raise AssertionError("no such screen; the last: %r" % (self.frames()[-1:],))

    def type(self, text):
        os.write(self.controller, text.encode())

    def finish(self):
        self.process.wait(30)
        self.read(0.2)
        os.close(self.controller)
        return self.process.stderr.read().decode()


@pytest.mark.parametrize("style", ["unicode-colour", "ascii-plain"])
def test_keys_in_digits_out_and_the_session_replays(style, tmp_path):
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env["TERM"] = "xterm-256color" if style == "unicode-colour" else "dumb"
    env["PYTHONIOENCODING"] = "utf-8" if style == "unicode-colour" else "ascii"
    record = tmp_path / "session.clock"
    terminal = Terminal(["--control", "300", "--record", str(record)], env)
    try:
        display, status = terminal.screen_until(lambda display, status: True)
        assert display == " 5.00| 5.00"  # 300: five minutes each, not started
        assert status.startswith("setup")
        terminal.type("hm")  # hold the right lever: Black starts White's (left) clock
        terminal.screen_until(lambda display, status: "holding lever_right" in status)
        terminal.read(0.6)
        terminal.type("x")  # any key lets go
        terminal.screen_until(lambda display, status: "holding" not in status)
        display, status = terminal.screen_until(lambda display, status: display[:5] == " 4.59")
        terminal.type(" ")  # pause
        display, status = terminal.screen_until(lambda display, status: status.startswith("paused"))
        last = display
        terminal.type("q")
        errors = terminal.finish()
    finally:
        if terminal.process.poll() is None:
            terminal.process.kill()
            terminal.process.wait()
    assert terminal.process.returncode == 0, errors
    end = re.search(r"end: (.*)\r?\n", ESCAPE.sub("", terminal.output)).group(1).strip()
    state = fields(end)
    assert state["display"] == last  # the screen showed what the chips hold
    assert state["state"] == "paused" and state["white"] == "left" and state["moves"] == "0"
    assert "0:04:58" < state["left"] < "0:05:00"
    assert state["right"] == "0:05:00.000"
    text = record.read_text()
    held = re.search(r"at \d+\.\d{3} hold lever_right (\d+\.\d{3})\n", text)
    assert held and float(held.group(1)) >= 0.6
    status, replayed, errors = run_cli([str(record)])
    assert status == 0, replayed + errors
    assert replayed.strip().endswith("end: " + end)
    # the replay hint works as typed, in a shell with no environment set up
    command = re.search(r"replay: (.*)\r?\n", ESCAPE.sub("", terminal.output)).group(1).strip()
    bare = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    typed = subprocess.run(
        command, shell=True, cwd=ROOT, env=bare, capture_output=True, text=True, timeout=120
    )
    assert typed.returncode == 0, command + "\n" + typed.stdout + typed.stderr
    assert typed.stdout.strip().endswith("end: " + end)


def test_without_a_screen_the_terminal_says_why_below_the_clock():
    """``python -m live`` with no DISPLAY runs in the terminal, and the reason stays on the
    screen under the clock (the alternate screen covers what was printed before it)."""
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    terminal = Terminal(["--control", "300"], env, front=())
    try:
        display, _ = terminal.screen_until(lambda display, status: True)
        assert display == " 5.00| 5.00"
        screen = ESCAPE.sub("", terminal.frames()[-1])
        assert "in this terminal: no screen (DISPLAY is not set)" in screen
        terminal.type("q")
        terminal.finish()
    finally:
        if terminal.process.poll() is None:
            terminal.process.kill()
            terminal.process.wait()


def test_the_replay_hint_works_from_anywhere(tmp_path):
    from live.__main__ import replay_command

    record = tmp_path / "game.clock"
    record.write_text("control 300\nat 0 press right\nat 2 expect left=4:58 running=left\n")
    bare = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    for cwd in (ROOT, str(tmp_path)):
        command = replay_command(os.path.relpath(record, cwd), cwd)
        typed = subprocess.run(
            command, shell=True, cwd=cwd, env=bare, capture_output=True, text=True, timeout=120
        )
        assert typed.returncode == 0, command + "\n" + typed.stdout + typed.stderr
        assert "end: at=2.000" in typed.stdout


def test_a_bad_option_is_a_clear_error_and_nothing_runs(tmp_path):
    existing = tmp_path / "taken.clock"
    existing.write_text("control 300\n")
    cases = [
        (["--control", "5 minutes"], "--control"),
        (["--board", "nosuchboard"], "--board"),
        (["--speed", "0"], "--speed"),
        (["--script", str(tmp_path / "missing.clock")], "cannot read"),
        (["--record", str(existing)], "exists already"),
        (["--script", str(existing), "--control", "60"], "--control and --script"),
    ]
    for arguments, message in cases:
        done = subprocess.run(
            [sys.executable, "-m", "live", "--terminal", *arguments],
            cwd=ROOT,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=60,
        )
        assert done.returncode == 2, arguments
        assert message in done.stderr, (arguments, done.stderr)
    assert existing.read_text() == "control 300\n"  # the existing file is untouched
