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
