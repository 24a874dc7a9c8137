"""Files on the board's flash: JSON documents written atomically.

A write goes to a temporary file that is then renamed over the old one, so a
power cut leaves either the old or the new version. ``root`` is the folder
that holds the clock's files ("/" on a board, a folder in the simulator).
"""

import json
import os


class Storage:
    """JSON files under one folder."""

    def __init__(self, root):
        self.root = root.rstrip("/") if len(root) > 1 else root

    def path(self, name):
        if self.root == "/":
            return "/" + name
        return self.root + "/" + name

    def read_json(self, name):
        """The decoded file, or None if it does not exist. Raises ValueError if corrupt."""
        try:
            with open(self.path(name)) as handle:
                text = handle.read()
        except OSError as error:
            if error.args and error.args[0] == 2:  # ENOENT
                return None
            raise
        return json.loads(text)

    def write_json(self, name, data):
        """Replace the file with ``data``, atomically."""
        final = self.path(name)
        temporary = final + ".new"
        with open(temporary, "w") as handle:
            handle.write(json.dumps(data))
        os.rename(temporary, final)
