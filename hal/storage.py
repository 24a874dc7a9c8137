"""Files on the board's flash: JSON documents written atomically, and files set aside.

A write goes to a temporary file that is then renamed over the old one, so a
power cut leaves either the old or the new version (a stray ``.new`` file is
ignored and overwritten by the next write). Every document written carries
``"version": FORMAT_VERSION`` (``firmware.files``, the list of the clock's
files). ``root`` is the folder that holds the clock's files ("/" on a board,
a folder in the simulator).

All file operations go through the ``files`` a ``Storage`` is given by whoever
builds the hardware: ``Files``, the filesystem itself, on a board
(``hal.boot``); the simulated board's flash model (``sim.flash.Flash``), which
can cut the power in the middle of a write, in the simulator.
"""

import json
import os

from firmware.files import FORMAT_VERSION

BAD_SUFFIX = ".bad"


def _ascii(text):
    """JSON ``text`` with every character past ``~`` as a ``\\u`` escape: the strict
    reader (firmware.strict_json) takes printable ASCII only, and MicroPython's
    ``json.dumps`` writes other characters as they are (CPython's escapes all but
    DEL). A character past U+FFFF becomes its UTF-16 pair, as CPython writes it."""
    for char in text:
        if ord(char) > 0x7E:
            break
    else:
        return text  # the usual document: nothing to escape, nothing allocated
    parts = []
    for char in text:
        code = ord(char)
        if code <= 0x7E:
            parts.append(char)
        elif code < 0x10000:
            parts.append("\\u%04x" % code)
        else:
            code -= 0x10000
            parts.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
    return "".join(parts)


class Files:
    """The filesystem as the storage uses it: open, rename, remove, exists."""

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, old, new):
        os.rename(old, new)

    def remove(self, path):
        os.remove(path)

    def exists(self, path):
        try:
            os.stat(path)
        except OSError:
            return False
        return True


class Storage:
    """The clock's files under one folder, through ``files`` (open, rename, remove, exists)."""

    def __init__(self, root, files):
        self.root = root.rstrip("/") if len(root) > 1 else root
        self.files = files

    def path(self, name):
        if self.root == "/":
            return "/" + name
        return self.root + "/" + name

    def exists(self, name):
        return self.files.exists(self.path(name))

    def read_bytes(self, name):
        """The file's bytes, or None if it does not exist."""
        files = self.files
        path = self.path(name)
        if not files.exists(path):
            return None
        with files.open(path, "rb") as handle:
            return handle.read()

    def read_json(self, name):
        """The decoded file, or None if it does not exist.

        Raises ValueError if it is not strict JSON (empty, truncated, random
        bytes, not UTF-8: ``firmware.strict_json``).
        """
        data = self.read_bytes(name)
        if data is None:
            return None
        from firmware import strict_json  # imported at the first read, loaded from then on

        return strict_json.loads(data)

    def write_bytes(self, name, data):
        """Replace the file with ``data``, atomically (write a new file, then rename)."""
        files = self.files
        final = self.path(name)
        temporary = final + ".new"
        with files.open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
        files.rename(temporary, final)

    def write_json(self, name, data):
        """Replace the file with ``data`` as JSON, atomically; a dict gets ``version``."""
        if isinstance(data, dict) and "version" not in data:
            data = dict(data)
            data["version"] = FORMAT_VERSION
        self.write_bytes(name, _ascii(json.dumps(data)).encode("utf-8"))

    def append_line(self, name, text):
        """Add one line to a log file (a cut leaves at most a partial last line)."""
        with self.files.open(self.path(name), "ab") as handle:
            handle.write((text + "\n").encode("utf-8"))
            handle.flush()

    def remove(self, name):
        """Delete the file if it exists."""
        path = self.path(name)
        if self.files.exists(path):
            self.files.remove(path)

    def rename(self, name, new_name):
        """Give the file ``name`` the name ``new_name`` (one step: no copy to cut)."""
        self.files.rename(self.path(name), self.path(new_name))

    def set_aside(self, name, suffix=BAD_SUFFIX):
        """Keep a file the clock cannot use under ``name + suffix`` for inspection."""
        path = self.path(name)
        if not self.files.exists(path):
            return
        target = path + suffix
        if self.files.exists(target):
            self.files.remove(target)  # the newest bad file is the one worth keeping
        self.files.rename(path, target)
