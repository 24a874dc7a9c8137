"""Every path and module that a document or a docstring names exists.

The manuals (``README.md``, ``docs/*.md``) and the docstrings of the
project's Python files point a reader at files (``hal/edges.py``,
``docs/spec/timing.md``), at modules (``firmware.boot.resume``, ``python -m
sim``) and at names in them (``hal.runtime.service``). A file renamed or
moved leaves those pointers behind; this test reads them all and looks each
one up, so a pointer that leads nowhere fails here instead of misleading a
maintainer.
"""

import ast
import functools
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("firmware", "hal", "boards", "sim", "live", "hall", "bench", "tools", "tests")
_SUFFIXES = "py|md|json|svg|png|clock|mjs|txt|toml|html|js|css|conf|sh"
# A path: an optional ./ then folders and a file name with a known ending, or a
# folder of the project followed by /.
_PATH = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w-][\w.-]*\.(?:%s))(?![\w/])" % _SUFFIXES)
_MODULE = re.compile(r"(?<![\w./-])((?:%s)(?:\.[A-Za-z_]\w*)+)" % "|".join(PACKAGES))
_RUN_MODULE = re.compile(r"-m ([A-Za-z_][\w.]*)")
# The figures page: its dotted names are the keys of bench/latest.json, not modules.
FIGURES = "docs/figures.md"
# Names that point into another tree on purpose: (file, name) and why.
ELSEWHERE = {
    # the first release's own module, run from its own commit (bench/first_release.py)
    ("bench/first_release.py", "sim.measure"),
}


def tracked():
    """The files git tracks (so a file that only exists in a local build is not one)."""
    out = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return frozenset(out.split())


@functools.cache
def folders_of(files):
    """Every folder that holds a tracked file."""
    return frozenset(str(pathlib.PurePosixPath(name).parent) for name in files)


@functools.cache
def tops_of(files):
    """The top-level folders of the tracked files."""
    return frozenset(entry.split("/")[0] for entry in files if "/" in entry)


@functools.cache
def module_tree(path):
    return ast.parse((ROOT / path).read_text())


def documents():
    """``(name, text)`` of each manual and each docstring of a project Python file."""
    found = []
    files = tracked()
    for name in sorted(files):
        path = ROOT / name
        if name.endswith(".md") and (name == "README.md" or name.startswith("docs/")):
            found.append((name, path.read_text()))
        elif name.endswith(".py"):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(
                    node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
                ):
                    text = ast.get_docstring(node, clean=False)
                    if text:
                        found.append(("%s:%s" % (name, getattr(node, "lineno", 1)), text))
    return found


def path_exists(text_path, where, files):
    """Whether ``text_path`` names a tracked file or folder: from the root, beside
    the document, or (a bare file name) anywhere in the tree."""
    text_path = text_path.lstrip("./") if text_path.startswith("./") else text_path
    folders = folders_of(files)
    here = pathlib.PurePosixPath(where.split(":")[0]).parent
    candidates = [text_path, str(here / text_path)]
    for candidate in candidates:
        normal = str(pathlib.PurePosixPath(candidate))
        parts = []
        for part in normal.split("/"):
            if part == ".." and parts:
                parts.pop()
            elif part != ".":
                parts.append(part)
        normal = "/".join(parts)
        if normal in files or normal.rstrip("/") in folders:
            return True
    if "/" not in text_path:
        return any(name.rsplit("/", 1)[-1] == text_path for name in files)
    return False


def module_file(parts, files):
    """The tracked file of the longest module prefix of ``parts`` and its length."""
    for length in range(len(parts), 0, -1):
        base = "/".join(parts[:length])
        for candidate in (base + ".py", base + "/__init__.py", base + "/__main__.py"):
            if candidate in files:
                return candidate, length
    return None, 0


def defines(path, name):
    """Whether module ``path`` defines ``name`` at its top level or in a class."""
    for node in ast.walk(module_tree(path)):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            if node.name == name:
                return True
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name) and sub.id == name:
                        return True
                    if isinstance(sub, ast.Attribute) and sub.attr == name:
                        return True
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if (alias.asname or alias.name.split(".")[0]) == name:
                    return True
    return False


def module_exists(dotted, files):
    """Whether ``dotted`` is a project module, or a name defined in one."""
    parts = dotted.split(".")
    path, length = module_file(parts, files)
    if path is None:
        return False
    rest = parts[length:]
    return not rest or defines(path, rest[0])


def is_project_path(name, files):
    """Whether ``name`` points into the project: a path below one of its tracked
    top-level folders, or a bare document name (``README.md``). Files on a clock's
    flash (``settings.json``), files a tool writes (``hall-setup/``), other
    projects' files and placeholders (``docs/pictures/NAME.clock``) are not."""
    if re.search(r"(^|[/-])(NAME|N|GAP|BOARD)([./-]|$)", name):
        return False  # a placeholder
    if "/" not in name:
        return name.endswith(".md")
    head = name.split("/")[0]
    return head in tops_of(files) or head in ("..", ".")


def word_at(text, index):
    """The whitespace-separated word of ``text`` that holds ``index``."""
    start = index
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    end = index
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[start:end]


def broken_references():
    files = tracked()
    problems = []
    for where, text in documents():
        for match in _PATH.finditer(text):
            name = match.group(1)
            if "://" in word_at(text, match.start()):
                continue  # part of a web address
            if is_project_path(name, files) and not path_exists(name, where, files):
                problems.append("%s names the file %s" % (where, name))
        names = set(_MODULE.findall(text)) | set(_RUN_MODULE.findall(text))
        if where == FIGURES:
            names = set(_RUN_MODULE.findall(text))  # its dotted names are the figures' keys
        for dotted in sorted(names):
            if dotted.split(".")[0] not in PACKAGES:
                continue  # another project's module (``python -m pytest``)
            if re.search(r"\.(json|bad|clock|md|py)\b", dotted):
                continue  # a file name (``hall.json.bad``), checked above if it is one
            if (where.split(":")[0], dotted) in ELSEWHERE:
                continue
            if not module_exists(dotted, files):
                problems.append("%s names the module %s" % (where, dotted))
    return problems


def test_every_named_path_and_module_exists():
    assert broken_references() == []
