"""The real-port lane's own parts (tools/port/), run by node's test runner: the HT16K33
model, the W25Q16JV's busy times and the bootrom's flash table, the contacts' bounce, the
DMA's DREQ credits. They need no emulator and no image; the lane itself is ``make port``
(tests/test_port_image.py)."""

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "tools", "port", "test")


@pytest.mark.skipif(shutil.which("node") is None, reason="no node (make setup installs it)")
def test_the_port_harness_parts_pass_their_node_tests():
    files = sorted(
        os.path.join(TESTS, name) for name in os.listdir(TESTS) if name.endswith(".test.mjs")
    )
    assert len(files) >= 4, files
    done = subprocess.run(
        ["node", "--test", *files], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout
