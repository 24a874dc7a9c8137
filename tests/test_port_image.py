"""The Pico's image on rp2040js (docs/port.md): needs an image built by ``make port``
(``make firmware BOARD=pico``) and rp2040js's source for its bootrom, named by
MICROPYTHON and RP2040JS as for ``make port``; skips without them."""

import json
import os
import shutil
import subprocess

import pytest

import bench.port
from boards.chips import rp2040

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LANE_MODULES = os.path.join(ROOT, "tools", "port", "node_modules", "rp2040js")


def _image():
    micropython = os.environ.get("MICROPYTHON", "")
    return os.path.join(micropython, "ports", "rp2", "build-pico", "firmware.uf2")


def _missing():
    if shutil.which("node") is None:
        return "no node"
    if not os.path.isdir(LANE_MODULES):
        return "rp2040js is not installed in tools/port (make port-setup, or make port)"
    if not os.path.isfile(_image()):
        return "no Pico image: make port BOARD=pico MICROPYTHON=... RP2040JS=... builds it"
    if not os.path.isfile(os.path.join(os.environ.get("RP2040JS", ""), "demo", "bootrom.ts")):
        return "RP2040JS names no rp2040js checkout (its bootrom): see make port, docs/port.md"
    return None


needs_image = pytest.mark.skipif(_missing() is not None, reason=str(_missing()))


@needs_image
def test_the_image_boots_with_the_heap_the_chip_file_gives():
    bootrom = bench.port.bootrom_path(os.environ["RP2040JS"])
    board = bench.port.lane_board("pico")
    command = ["node", bench.port.LANE, "--uf2", _image(), "--bootrom", bootrom]
    command += ["--board", json.dumps(board), "--prompt-only"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    at_prompt = json.loads(done.stdout)
    assert at_prompt["heapTotalBytes"] == rp2040.HEAP_BYTES
    # The boot formatted the filesystem through the bootrom's flash functions: the lane's
    # flash took those writes (rp2040js alone drops them, and the mount would fail).
    assert at_prompt["flashAtBoot"]["erases"] >= 1
    assert at_prompt["flashAtBoot"]["programs"] >= 1


def _play(path):
    from bench import port_script

    bootrom = bench.port.bootrom_path(os.environ["RP2040JS"])
    return port_script.play(path, _image(), bootrom, bench.port.lane_board("pico"))


@needs_image
def test_a_script_with_its_own_control_plays_as_on_the_simulator():
    """The control is the settings file's, written before the boot: with the board's
    default the times would be 90 min + 30 s."""
    ours, reference, _lane, ideal = _play(
        os.path.join(ROOT, "tests", "scenarios", "display", "period-passed-delay.clock")
    )
    assert ours == reference == ideal


@needs_image
def test_ticks_near_the_wrap_start_as_on_the_runners_board_and_cross_it(tmp_path):
    from bench import port_script

    script = tmp_path / "wrap.clock"
    script.write_text(
        "control 300+2\nticks near-wrap\n"
        "at 0 press right\nat 4 press left\nat 9 press right\nat 14 press left\n"
        "at 16 expect moves=2\n"
    )
    ours, reference, lane, ideal = _play(str(script))
    assert lane["ticksAtStartMs"] == port_script.NEAR_WRAP_TICK
    assert ours == reference == ideal
