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
            if dotted.split(".")[-1] in ("NAME", "BOARD"):
                continue  # a placeholder (``python -m bench.NAME``), as for paths
            if not module_exists(dotted, files):
                problems.append("%s names the module %s" % (where, dotted))
    return problems


def test_every_named_path_and_module_exists():
    assert broken_references() == []


# Measured figures live in docs/figures.md, written from bench/latest.json; another
# document links to its section instead of copying a number that the next run changes.
# A copy is a figure of bench/latest.json written in a manual: with four significant
# digits or more anywhere (490,871), with three only beside its own unit (47.5 s for a
# ``_s`` figure), so that a page size of 256 bytes or Article 15.1 is no copy.
LATEST = ROOT / "bench" / "latest.json"
COPY_FREE = ("README.md", "docs/*.md")
NOT_COPIES = ("docs/figures.md",)
# A number that is a figure's by chance: (document, number) and what it is there.
BY_CHANCE = {
    ("docs/build.md", "65.2"),  # the 18650 cell's length by its datasheet, not a case's height
    ("docs/port.md", "512"),  # littlefs's compacted metadata, two program pages: not a heap's
}
# Figures that are set, not measured: what a run was given (clocks, presses, games),
# the chips' and the standards' numbers the bench repeats, the power budget's
# results, which docs/build.md and docs/boards.md carry from tools/power_budget.py
# (tests/test_power_budget.py checks those tables), and the case model's outer size,
# which docs/boards.md states (tests/test_manual_case_facts.py checks it).
SET_NOT_MEASURED = re.compile(
    r"(^|\.)(clocks|seconds|games|presses|moves|rounds|venues|group|repeat|cpus|pages"
    r"|endurance_cycles|real_heap_bytes|commit_bytes|largest_packet_accepted_bytes"
    r"|largest_free_block_bound_bytes|budget_bytes|bound_ms|goal_p99_ms|chip_heap_bytes"
    r"|hours_default_brightness|hours_full_brightness|battery_low_mv|tolerance_mm"
    r"|switch_force_n|lever_\w+|default_brightness|takeover_attempts"
    r"|broker_max_connections|passes|cuts|outer_mm)$"
)
_UNITS = (
    ("_ms", ("ms",)),
    ("_s", ("s",)),
    ("_us", ("µs", "us")),
    ("_bytes", ("B", "bytes")),
    ("_kib", ("KiB",)),
    ("_mm", ("mm",)),
    ("_percent", ("%",)),
)
_KNOWN_UNITS = {name for _suffix, names in _UNITS for name in names}
_NUMBER = re.compile(r"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)(?![\w]|[.,]\d)( ?(?:[µ%\w]+))?")


def significant_digits(text):
    """The digits of ``text`` between its first and last that are not 0 (30.00: 1)."""
    return len(text.replace(",", "").replace(".", "").strip("0"))


def _leaves(value, path=""):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, "%s.%s" % (path, key) if path else key)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, path)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield path, value


def measured_forms(figures):
    """``{text: (path, units)}``: how each measured figure of ``figures`` may be written
    (490871 and 490,871; 158.1 also as 158), with three significant digits or more,
    and the units beside which a three-digit one counts."""
    forms = {}
    for path, value in _leaves(figures):
        if path.startswith("heap.measured") or SET_NOT_MEASURED.search(path):
            continue
        units = next((names for suffix, names in _UNITS if path.endswith(suffix)), ())
        if isinstance(value, int):
            texts = {str(value), "{:,}".format(value)}
        else:
            texts = set()
            for places in (0, 1, 2):
                for pattern in ("{:.%df}", "{:,.%df}"):
                    texts.add((pattern % places).format(round(value, places)))
        for text in texts:
            if significant_digits(text) >= 3:
                forms.setdefault(text, (path, units))
    return forms


def copies(text, forms):
    """``(line, number, path)`` of each figure of ``forms`` that ``text`` copies."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in _NUMBER.finditer(line):
            written, unit = match.group(1), (match.group(2) or "").strip()
            if written not in forms:
                continue
            path, units = forms[written]
            if units and unit in _KNOWN_UNITS and unit not in units:
                continue  # a quantity of another kind (1,408 KiB is no count of bytes)
            if significant_digits(written) >= 4 or unit in units:
                found.append((number, written, path))
    return found


def without_generated(text):
    """``text`` with each block ``make docs`` writes from its source (between its
    ``<!-- generated by make docs`` and ``<!-- end of the generated`` markers) blanked,
    line for line: a figure there is drawn from the model, not copied from a run."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("<!-- generated by make docs"):
            inside = True
        out.append("" if inside else line)
        if line.startswith("<!-- end of the generated"):
            inside = False
    return "\n".join(out)


def copied_figures():
    import json

    forms = measured_forms(json.loads(LATEST.read_text()))
    problems = []
    for pattern in COPY_FREE:
        for path in sorted(ROOT.glob(pattern)):
            name = str(path.relative_to(ROOT))
            if name in NOT_COPIES:
                continue
            for line, written, figure in copies(without_generated(path.read_text()), forms):
                if (name, written) in BY_CHANCE:
                    continue
                problems.append(
                    "%s:%d copies %s (%s): link to docs/figures.md" % (name, line, written, figure)
                )
    return problems


def test_no_document_copies_a_measured_figure():
    assert copied_figures() == []


def test_the_copy_check_knows_a_copy_from_a_specification():
    forms = measured_forms(
        {
            "journal": {"rp2": {"single": {"cut_points": 490871}, "wall_s": 158.1}},
            "hall": {"clocks": 1000, "bytes_per_message_mqtt": 349},
        }
    )
    assert [w for _l, w, _p in copies("| cut points | 490,871 (12,051) |", forms)] == ["490,871"]
    assert [w for _l, w, _p in copies("wall time of the sweep: 158 s", forms)] == ["158"]
    assert copies("a 158-byte page, 1,000 clocks, 490,8712 bytes", forms) == []
    assert copies("a message of 349 bytes", forms) == []  # three digits, a unit not its own
    assert copies("the sweep took 1581 s", forms) == []
    forms = measured_forms({"heap": {"growth_bytes": 1408}})
    assert [w for _l, w, _p in copies("grew by 1,408 B", forms)] == ["1,408"]
    assert [w for _l, w, _p in copies("grew by 1408 in a game", forms)] == ["1408"]
    assert copies("352 blocks (1,408 KiB)", forms) == []  # a size of another unit


def _anchor(heading):
    """GitHub's anchor of a heading: lower case, punctuation gone, spaces as dashes."""
    kept = "".join(c for c in heading.strip().lower() if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


def test_every_link_into_the_figures_page_finds_its_section():
    page = (ROOT / FIGURES).read_text()
    anchors = {_anchor(line.lstrip("#")) for line in page.splitlines() if line.startswith("#")}
    problems = []
    for pattern in COPY_FREE:
        for path in sorted(ROOT.glob(pattern)):
            for anchor in re.findall(r"figures\.md#([\w-]+)", path.read_text()):
                if anchor not in anchors:
                    problems.append("%s links to figures.md#%s" % (path.relative_to(ROOT), anchor))
    assert problems == []
    assert _anchor("Power cuts at every byte, on the real littlefs") == (
        "power-cuts-at-every-byte-on-the-real-littlefs"
    )
