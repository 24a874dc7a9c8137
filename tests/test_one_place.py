"""One place for each thing: the board names and the inputs' pull.

The boards are the files of boards/ (``hal.board_check.board_names``; the Makefile's
``BOARD_NAMES`` reads the same folder): no code lists them all by hand, so a board
added or removed is a file added or removed. A manual that lists them is checked
against the folder (tests/test_manual_facts.py). The levers' and keys' pull has one
default, ``boards.input_pull``: nothing else reads ``INPUT_PULL``. Each check was
seen failing on the tree before they were made one (seven hand lists; three reads
of ``INPUT_PULL`` with three defaults).
"""

import ast
import re
import subprocess

from hal import board_check
from tests.manual_facts import ROOT


def tracked(suffix):
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout
    return [name for name in out.split() if name.endswith(suffix)]


def docstrings(tree):
    nodes = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, nodes) and node.body and isinstance(node.body[0], ast.Expr):
            found.add(id(node.body[0].value))
    return found


def hand_lists(source, names):
    """Lines of ``source`` (Python) that list every one of ``names`` by hand: a tuple,
    list or set of their strings, or a string (not a docstring) naming them all."""
    names = set(names)
    tree = ast.parse(source)
    skip = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = {e.value for e in node.elts if isinstance(e, ast.Constant)}
            if names <= items:
                found.append(node.lineno)
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        ):
            if names <= set(re.findall(r"\w+", node.value)):
                found.append(node.lineno)
    return found


def make_hand_lists(text, names):
    return [
        number
        for number, line in enumerate(text.splitlines(), 1)
        if set(names) <= set(re.findall(r"\w+", line))
    ]


def test_no_code_lists_every_board_by_hand():
    names = board_check.board_names()
    found = []
    for path in tracked(".py"):
        lines = hand_lists((ROOT / path).read_text(), names)
        found += ["%s:%d" % (path, line) for line in lines]
    for path in ("Makefile", ".ci/run"):
        found += ["%s:%d" % (path, n) for n in make_hand_lists((ROOT / path).read_text(), names)]
    assert found == []


def test_the_check_finds_a_hand_list():
    names = ["esp32", "pico"]
    source = '"""pico, esp32"""\nBOARDS = ("pico", "esp32")\nHELP = "pico|esp32"\nONE = ["pico"]\n'
    assert hand_lists(source, names) == [2, 3]
    assert make_hand_lists("a: pico\nBOARD=pico|esp32\n", names) == [2]


def test_the_board_names_are_the_files_of_boards():
    files = {path.stem for path in (ROOT / "boards").glob("*.py")} - {"__init__"}
    assert board_check.board_names(simulated=True) == sorted(files)
    assert board_check.board_names() == sorted(files - {"sim", "browser"})


def pull_reads(source):
    """Lines that read a board's ``INPUT_PULL`` (an attribute, or getattr's name)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "INPUT_PULL":
            if isinstance(node.ctx, ast.Load):
                found.append(node.lineno)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "getattr":
            if any(isinstance(a, ast.Constant) and a.value == "INPUT_PULL" for a in node.args):
                found.append(node.lineno)
    return found


def test_the_input_pull_is_read_in_one_place():
    reads = {}
    for path in tracked(".py"):
        if not path.startswith("tests/"):
            lines = pull_reads((ROOT / path).read_text())
            if lines:
                reads[path] = lines
    assert list(reads) == ["boards/__init__.py"]
    assert pull_reads('getattr(board, "INPUT_PULL", "up")\nx = board.INPUT_PULL\n') == [1, 2]


# bench/ holds figures: each module is reached from ``make bench`` (bench/__main__.py)
# by an import, a section's name, a module run inside MicroPython ("bench.measure") or
# a file run by its path ("tls_mpy_probe.py", in MicroPython's unix port). Test drivers
# live in tests/ (tests/mpy/ for those run inside MicroPython too).


def bench_references(source, modules):
    """The modules of bench/ that ``source`` names: imported, as a string, or by
    their file's name."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "bench":
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bench."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("bench.")}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found |= set(re.findall(r"bench\.(\w+)", node.value))
            found |= {node.value, node.value.removesuffix(".py")} & modules
    return found & modules


def unreached_bench_modules(read):
    """The modules of bench/ that ``make bench`` never reaches; ``read(name)`` gives
    the source of bench/NAME.py or None."""
    modules = {path.stem for path in (ROOT / "bench").glob("*.py")} - {"__init__"}
    reached, todo = set(), ["__main__"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += sorted(bench_references(read(name), modules))
    return sorted(modules - reached)


def test_every_module_of_bench_serves_a_figure():
    def read(name):
        return (ROOT / "bench" / (name + ".py")).read_text()

    assert unreached_bench_modules(read) == []


def test_the_reach_follows_imports_names_and_files():
    modules = {"a", "b", "c", "d", "e"}
    source = 'from bench import a\nimport bench.b\nX = "bench.c"\nY = "d.py"\nZ = "f.py"\n'
    assert bench_references(source, modules) == {"a", "b", "c", "d"}


def section_shape(source, name):
    """What a section module lacks of the bench's shape: its figures' ``rows`` (the
    figure and its goal) and its command, ``main`` run by ``python -m bench.NAME``
    (named in its docstring)."""
    tree = ast.parse(source)
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    missing = [what for what in ("rows", "main") if what not in defined]
    if "python -m bench.%s" % name not in (ast.get_docstring(tree) or ""):
        missing.append("its command in the docstring")
    return missing


def test_every_section_of_make_bench_has_its_rows_and_its_command():
    from bench.__main__ import SECTIONS

    lacking = {}
    for name in sorted({module for _key, module, _function in SECTIONS} | {"build"}):
        missing = section_shape((ROOT / "bench" / (name + ".py")).read_text(), name)
        if missing:
            lacking[name] = missing
    assert lacking == {}
    assert section_shape('"""Figures."""\ndef rows(f):\n    pass\n', "x") == [
        "main",
        "its command in the docstring",
    ]
