"""The firmware's compiled modules, kept for the life of a CPython process.

Every boot of a simulated board imports the firmware anew (and the journal store
imports its setup again after letting it go, ``firmware.lifetime``): each import looks
the module up on ``sys.path`` through every finder (pytest's among them under
the tests) and reads and unmarshals its bytecode. ``install`` puts a finder
first that serves the code object read the first time from the same file again
(a file changed since is read afresh); the module's body still runs anew at
each import, so a module imported again starts as it would on the board.

MicroPython has no ``importlib``: there ``install`` does nothing.
"""

import os
import sys

# The packages each boot imports again (the board's own code), and the Adafruit
# libraries it loads (every module named ``adafruit_...``).
PACKAGES = ("firmware", "hal", "boards")
LIBRARIES = "adafruit_"


class CodeCache:
    """A finder and loader on ``sys.meta_path`` for ``packages`` and their modules and
    the modules named ``libraries...``."""

    def __init__(self, machinery, util, packages=PACKAGES, libraries=LIBRARIES):
        self.machinery = machinery
        self.util = util
        self.packages = packages
        self.libraries = libraries
        self.codes = {}  # source path -> (modification time in ns, code object)

    def serves(self, name):
        if name.startswith(self.libraries):
            return True
        top = name.split(".", 1)[0]
        return top in self.packages

    def find_spec(self, name, path=None, target=None):
        if not self.serves(name):
            return None
        spec = self.machinery.PathFinder.find_spec(name, path)
        if spec is None or not isinstance(spec.loader, self.machinery.SourceFileLoader):
            return spec
        origin = spec.origin
        stamp = os.stat(origin).st_mtime_ns
        known = self.codes.get(origin)
        if known is None or known[0] != stamp:
            self.codes[origin] = (stamp, spec.loader.get_code(name))
        cached = self.util.spec_from_file_location(
            name,
            origin,
            loader=self,
            submodule_search_locations=spec.submodule_search_locations,
        )
        return cached

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module):
        exec(self.codes[module.__spec__.origin][1], module.__dict__)


def install():
    """Put the cache first on ``sys.meta_path`` (once); nothing on MicroPython."""
    try:
        from importlib import machinery, util
    except ImportError:
        return
    for finder in sys.meta_path:
        if isinstance(finder, CodeCache):
            return
    sys.meta_path.insert(0, CodeCache(machinery, util))
