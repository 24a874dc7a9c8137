"""Figures of the live simulator: how soon ``make sim`` shows the window, and what it costs.

Both run under a virtual X server (Xvfb), on a machine that has run
``make setup``: the time from starting ``make sim`` to the window being
mapped (the window prints ``window open`` on its ``<Map>`` event), and the
CPU seconds per wall second of the simulator while a game runs in real time,
in the window and in the terminal (a pseudo-terminal), read from
``/proc/PID/stat`` over a stretch of wall time. ``python -m bench.live_simulator``
prints them against their goals; ``--write`` stores them under ``live_simulator``
in bench/latest.json.
"""

import os
import pty
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from bench import figure_rows
from bench.figure_rows import Figure

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNING_GAME = "control 300+3\nat 0 press right\n"  # White (left) to move, clock running


def _wait_line(stream, wanted, timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([stream], [], [], 0.5)
        if ready:
            line = stream.readline()
            if not line:
                break
            if line.strip() == wanted:
                return True
    return False


def _stop(process):
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        process.kill()
        process.wait()


def _start_window(command, screen):
    """``command`` on the virtual ``screen``, its output read for "window open"."""
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=screen.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )


def time_to_window(screen, runs=5):
    """Seconds from starting ``make -s sim`` to the window mapped: each run, and the median."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        process = _start_window(["make", "-s", "sim", "SIM_ARGS=--window"], screen)
        opened = _wait_line(process.stdout, "window open")
        elapsed = time.perf_counter() - began
        _stop(process)
        if not opened:
            raise RuntimeError("make sim did not open its window")
        times.append(round(elapsed, 3))
    return {"runs_s": times, "median_s": statistics.median(times)}


def _cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as handle:
        parts = handle.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_per_wall(pid, seconds):
    before = _cpu_seconds(pid)
    began = time.perf_counter()
    time.sleep(seconds)
    used = _cpu_seconds(pid) - before
    return round(used / (time.perf_counter() - began), 4)


def cpu_while_playing(screen, seconds=10):
    """CPU seconds per wall second while a game runs in real time: window and terminal."""
    folder = tempfile.mkdtemp(prefix="bench-sim-")
    script = os.path.join(folder, "running.clock")
    with open(script, "w") as handle:
        handle.write(RUNNING_GAME)
    command = [sys.executable, "-m", "live", "--script", script]
    figures = {}
    window = _start_window(command + ["--window"], screen)
    try:
        if not _wait_line(window.stdout, "window open"):
            raise RuntimeError("the window did not open")
        figures["window"] = _cpu_per_wall(window.pid, seconds)
    finally:
        _stop(window)
    controller, device = pty.openpty()
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env["TERM"] = "xterm-256color"
    terminal = subprocess.Popen(
        command + ["--terminal"],
        cwd=ROOT,
        env=env,
        stdin=device,
        stdout=device,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    os.close(device)
    drained = [0]

    def drain(limit):
        end = time.monotonic() + limit
        while time.monotonic() < end:
            ready, _, _ = select.select([controller], [], [], 0.05)
            if ready:
                try:
                    drained[0] += len(os.read(controller, 65536))
                except OSError:
                    return

    try:
        drain(3)  # started and drawing
        before = _cpu_seconds(terminal.pid)
        began = time.perf_counter()
        drain(seconds)  # the terminal must be read, as a real one would be
        used = _cpu_seconds(terminal.pid) - before
        figures["terminal"] = round(used / (time.perf_counter() - began), 4)
    finally:
        _stop(terminal)
        os.close(controller)
    os.remove(script)
    os.rmdir(folder)
    figures["seconds_measured"] = seconds
    return figures


def live_simulator_figures():
    """Both figures under a virtual X server; None where Xvfb is missing."""
    sys.path.insert(0, ROOT)
    from tests import xserver

    if xserver.available() is not None:
        return {"skipped": xserver.available()}
    screen = xserver.VirtualScreen()
    try:
        return {
            "make_sim_to_window": time_to_window(screen),
            "cpu_per_wall_second_real_time_game": cpu_while_playing(screen),
        }
    finally:
        screen.stop()


def declared():
    """The live simulator's figures (bench/figure_rows.py)."""
    return (
        Figure(
            "`make sim` started to the window mapped (median)",
            "live_simulator.make_sim_to_window.median_s",
            "s",
            "< 2 s",
        ),
        Figure(
            "CPU of a real-time game in the window",
            "live_simulator.cpu_per_wall_second_real_time_game.window",
            "of a core",
            "< 0.05",
        ),
        Figure(
            "CPU of a real-time game in the terminal",
            "live_simulator.cpu_per_wall_second_real_time_game.terminal",
            "of a core",
            "< 0.05",
        ),
    )


def rows(figures):
    """The section's table (``make bench``, ``python -m bench.live_simulator``)."""
    if "skipped" in figures:
        return [("live simulator figures", "skipped", figures["skipped"])]
    return figure_rows.table_rows(declared(), "live_simulator", figures)


def main(argv):
    from bench import results

    return results.command("live_simulator", live_simulator_figures(), rows, argv, 10)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
