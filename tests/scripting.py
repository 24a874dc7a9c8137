"""Helpers for tests: run clock scripts in-process or through either lane."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = sys.executable


def run_cli(files, mpy=False):
    """Run ``python -m sim run [--mpy] FILES``; return (status, stdout, stderr)."""
    command = [PYTHON, "-m", "sim", "run"] + (["--mpy"] if mpy else []) + list(files)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)
    return done.returncode, done.stdout, done.stderr


def run_on_both_lanes(tmp_path, scripts):
    """Write ``scripts`` ((file name, text or bytes), ...) under ``tmp_path`` and run
    them all on CPython and inside MicroPython; assert that both lanes end with the
    same status and print the same lines, with nothing on stderr and no traceback.
    Return (status, printed lines)."""
    files = []
    for name, content in scripts:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        files.append(str(path))
    status_py, out_py, err_py = run_cli(files)
    status_mpy, out_mpy, err_mpy = run_cli(files, mpy=True)
    assert status_py == status_mpy
    assert out_mpy.splitlines() == out_py.splitlines()
    assert "Traceback" not in out_py + out_mpy
    assert err_py == err_mpy == ""
    return status_py, out_py.splitlines()


def run_text(text, name="inline.clock"):
    """Run script text in-process; return (status, printed lines)."""
    from sim.runner import run_script

    lines = []
    status = run_script(name, text, lines.append)
    return status, lines


def fields(state_line):
    """A state line as a dict (the display value keeps its quotes off)."""
    result = {}
    rest = state_line
    while rest:
        rest = rest.strip()
        if not rest:
            break
        name, _, rest = rest.partition("=")
        if rest.startswith('"'):
            value, _, rest = rest[1:].partition('"')
        else:
            value, _, rest = rest.partition(" ")
        result[name] = value
    return result


def edge_inputs_on(pin_numbers):
    """A fresh simulated board in virtual time, with ``hal.edges.EdgeRing`` on
    pull-up pins ``pin_numbers`` (contacts close to ground), interrupts enabled."""
    from sim import machine as sim_machine
    from sim import vclock

    sys.modules["machine"] = sim_machine
    sim_machine.reset()
    vclock.reset()
    vclock.install()
    from hal.edges import EdgeRing

    pins = [sim_machine.Pin(n, sim_machine.Pin.IN, sim_machine.Pin.PULL_UP) for n in pin_numbers]
    inputs = EdgeRing(pins, [0] * len(pins))
    inputs.enable(sim_machine.Pin)
    return inputs
