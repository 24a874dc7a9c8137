"""The core's own figures (issue 36): branches on the timing method outside the
methods, the mutation check's catch, and the tick and press beside the first release.

``python -m bench.core`` prints them; ``--write`` stores them, and only them,
under ``core`` in bench/latest.json.
"""

import ast
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
# The timing methods themselves (firmware/timing.py): the only place a method is asked
# what it is, there by its class.
METHODS_FILE = "timing.py"
# The names a timing method or a period mode goes by: the controls' kinds and the
# periods' modes (firmware/timecontrol.py), and the builders' kinds of the menu as they
# were (firmware/menu/control.py).
TIMING_NAMES = frozenset(
    ("STAGES", "HOURGLASS", "JAPANESE", "CANADIAN", "PERIODS")
    + ("NONE", "FISCHER", "DELAY", "BRONSTEIN")
)


def _names_a_method(node):
    """True if ``node`` is a timing constant or a control's ``kind``."""
    if isinstance(node, ast.Name):
        return node.id in TIMING_NAMES
    if isinstance(node, ast.Attribute):
        if node.attr in TIMING_NAMES:
            return True
        return node.attr == "kind" and "control" in ast.unparse(node.value)
    return False


def method_branches(source):
    """The line of every comparison in ``source`` that asks which timing method or
    period mode is in force (``x.control.kind == tc.STAGES``, ``mode != FISCHER``…)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_names_a_method(sub) for operand in operands for sub in ast.walk(operand)):
                lines.append(node.lineno)
    return sorted(lines)


def branches_outside_methods(root=FIRMWARE):
    """``{path: [lines]}`` of such comparisons in firmware/ outside firmware/timing.py."""
    found = {}
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            path = os.path.join(folder, name)
            if not name.endswith(".py") or os.path.relpath(path, root) == METHODS_FILE:
                continue
            with open(path) as handle:
                lines = method_branches(handle.read())
            if lines:
                found[os.path.relpath(path, ROOT)] = lines
    return found


def count_at(commit):
    """The count of ``branches_outside_methods`` in ``commit``'s firmware/ (git archive)."""
    import tarfile
    import tempfile

    with tempfile.TemporaryDirectory() as tree:
        archive = os.path.join(tree, "tree.tar")
        with open(archive, "wb") as handle:
            subprocess.run(
                ["git", "archive", commit, "firmware"], cwd=ROOT, stdout=handle, check=True
            )
        with tarfile.open(archive) as tar:
            tar.extractall(tree, filter="data")
        return sum(
            len(lines)
            for lines in branches_outside_methods(os.path.join(tree, "firmware")).values()
        )


if __name__ == "__main__":
    found = branches_outside_methods()
    for path, lines in found.items():
        print(path, lines)
    print("outside the methods:", sum(len(lines) for lines in found.values()))
    if len(sys.argv) > 1:
        print("at", sys.argv[1], count_at(sys.argv[1]))
