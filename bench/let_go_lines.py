"""Lines of code of the let-go machinery, now and before issue 34 trimmed it.

The machinery: the modules that load on demand and let go
(``MACHINERY_MODULES``) and, everywhere else in firmware/ and hal/, each
line that names ``lifetime`` (an import, a ``let_go`` call). Lines of code
are the lines that are not blank, not comments and not docstrings. "Before"
is the tree at ``BEFORE_COMMIT`` (read with git), "after" the working tree.

    .venv/bin/python -m bench.let_go_lines
"""

import ast
import io
import json
import os
import subprocess
import tokenize

MACHINERY_MODULES = ("firmware/lifetime.py", "firmware/arbiter_gate.py", "firmware/menu_gate.py")
BEFORE_COMMIT = "387492c"  # the tree before the budgets per board
BEFORE_LINES = 139  # counted at BEFORE_COMMIT, for a copy without git history
_FOLDERS = ("firmware", "hal")


def code_lines(text):
    """Numbers of the lines of ``text`` (Python) that hold code: no blank lines,
    comments or docstrings."""
    docstrings = set()
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstrings.update(range(body[0].lineno, body[0].end_lineno + 1))
    lines = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT):
            continue
        if token.type in (tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        for line in range(token.start[0], token.end[0] + 1):
            if line not in docstrings:
                lines.add(line)
    return lines


def count(read, paths):
    """Lines of the machinery in the files ``paths``, each read with ``read(path)``
    (None when it does not exist)."""
    total = 0
    for path in paths:
        text = read(path)
        if text is None:
            continue
        lines = code_lines(text)
        if path in MACHINERY_MODULES:
            total += len(lines)
            continue
        source = text.splitlines()
        total += sum(1 for number in lines if "lifetime" in source[number - 1])
    return total


def _tree_files(root):
    found = []
    for folder in _FOLDERS:
        for base, _dirs, names in os.walk(os.path.join(root, folder)):
            for name in names:
                if name.endswith(".py"):
                    found.append(os.path.relpath(os.path.join(base, name), root))
    return sorted(found)


def counts(root):
    """{"before": n, "after": n}: the machinery's lines at BEFORE_COMMIT and now."""

    def read_now(path):
        full = os.path.join(root, path)
        if not os.path.exists(full):
            return None
        with open(full) as handle:
            return handle.read()

    after = count(read_now, _tree_files(root))
    try:
        listed = subprocess.run(
            ["git", "ls-tree", "-r", "--name-only", BEFORE_COMMIT, *_FOLDERS],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return {"before": BEFORE_LINES, "after": after}

    def read_before(path):
        done = subprocess.run(
            ["git", "show", "%s:%s" % (BEFORE_COMMIT, path)],
            cwd=root,
            capture_output=True,
            text=True,
        )
        return done.stdout if done.returncode == 0 else None

    before = count(read_before, [path for path in listed if path.endswith(".py")])
    return {"before": before, "after": after}


if __name__ == "__main__":
    print(json.dumps(counts(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
