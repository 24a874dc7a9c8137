"""A virtual X server for the window tests: Xvfb, xdotool, and screenshots of its screen.

Xvfb is started with ``-fbdir``, so its screen is a file in XWD format that
the tests read directly: a screenshot needs no other program.
"""

import os
import shutil
import struct
import subprocess
import tempfile
import time

SCREEN = "1024x768x24"


class VirtualScreen:
    """A running Xvfb; ``display`` is its ``:N`` name."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="xvfb-")
        read_end, write_end = os.pipe()
        self.process = subprocess.Popen(
            [
                "Xvfb",
                "-displayfd",
                str(write_end),
                "-screen",
                "0",
                SCREEN,
                "-fbdir",
                self.folder,
                "-nolisten",
                "tcp",
            ],
            pass_fds=(write_end,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write_end)
        number = b""
        with os.fdopen(read_end, "rb") as reader:
            while not number.endswith(b"\n"):
                chunk = reader.read(1)
                if not chunk:
                    break
                number += chunk
        if not number.strip():
            self.stop()
            raise RuntimeError("Xvfb did not start")
        self.display = ":" + number.decode().strip()

    def env(self):
        env = dict(os.environ)
        env["DISPLAY"] = self.display
        return env

    def xdotool(self, *arguments):
        done = subprocess.run(
            ["xdotool", *arguments], env=self.env(), capture_output=True, text=True, timeout=30
        )
        if done.returncode != 0:
            raise RuntimeError("xdotool %s: %s" % (" ".join(arguments), done.stderr))
        return done.stdout

    def screenshot(self):
        return Screenshot(os.path.join(self.folder, "Xvfb_screen0"))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


class Screenshot:
    """The X screen as Xvfb keeps it: an XWD file (header, colours, then the pixels)."""

    def __init__(self, path):
        with open(path, "rb") as handle:
            self.data = handle.read()
        header = struct.unpack(">25I", self.data[:100])
        header_size, self.width, self.height = header[0], header[4], header[5]
        self.lsb_first = header[7] == 0
        self.bits_per_pixel = header[11]
        self.bytes_per_line = header[12]
        colours = header[19]
        self.start = header_size + colours * 12
        if self.bits_per_pixel != 32:
            raise ValueError("expected a 32-bit screen, got %d bits" % self.bits_per_pixel)

    def pixel(self, x, y):
        """(red, green, blue) at screen position (x, y)."""
        offset = self.start + y * self.bytes_per_line + x * 4
        b = self.data[offset : offset + 4]
        if self.lsb_first:
            return (b[2], b[1], b[0])
        return (b[1], b[2], b[3])


def available():
    """None if Xvfb, xdotool and Tk are here, else what is missing."""
    missing = [name for name in ("Xvfb", "xdotool") if shutil.which(name) is None]
    try:
        import tkinter  # noqa: F401
    except ImportError:
        missing.append("Tk for Python (python3-tk)")
    if missing:
        return " and ".join(missing) + " not installed (make desktop-tools installs them)"
    return None


def wait_until(condition, timeout=10.0, poll=None):
    """Call ``poll()`` and check ``condition()`` until it holds; False after ``timeout`` s."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if poll is not None:
            poll()
        if condition():
            return True
        time.sleep(0.005)
    return False
