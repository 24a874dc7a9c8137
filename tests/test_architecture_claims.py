"""docs/architecture.md's claims about who reads, imports and calls what, each checked.

"Everything that shows what the clock displays reads the chip model's RAM, never the
firmware's frames" (the simulator, the window and the terminal, the manuals'
pictures): none of them imports firmware.frames or reads an app's frame. The outside
modules the layers' bullets name are the ones tools/layers.py allows; the core moves
and compares ticks only wraparound-safe and holds no float; no module of the clock
imports the hall's reading (firmware/hall_decode.py); only the boot path imports
firmware/boot/; the app never steps the hall's link, the main loop does; one call
lets a module go. Each check was seen failing on a fault put in for it (a module
left out of the doc's list, an unmasked tick difference, a raw tick comparison, a
float literal, the app polling the link, the app importing hall_decode or
firmware.boot, a second let_go)."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHOWERS = ("sim", "live", "tools/pictures")


def frame_uses(source):
    """``(line, what)`` of every import of firmware.frames and read of ``app.frame``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "firmware":
            found += [(node.lineno, "frames") for alias in node.names if alias.name == "frames"]
        elif isinstance(node, ast.ImportFrom) and node.module == "firmware.frames":
            found.append((node.lineno, "firmware.frames"))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name == "firmware.frames"]
        elif isinstance(node, ast.Attribute) and node.attr == "frame":
            owner = node.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name == "app":
                found.append((node.lineno, ast.unparse(node)))
    return found


def test_what_shows_the_displays_reads_the_chips_ram_not_the_frames():
    problems = []
    for folder in SHOWERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, what in frame_uses(path.read_text()):
                problems.append("%s:%d %s" % (path.relative_to(ROOT), line, what))
    assert problems == []


def test_the_check_finds_a_frame_read():
    source = "from firmware import engine, frames\nshown = board.app.frame[0]\n"
    assert [line for line, _ in frame_uses(source)] == [1, 2]


# --- the layers' lists of outside modules, as docs/architecture.md states them ---

ARCHITECTURE = ROOT / "docs" / "architecture.md"


def bullet(heading):
    """The text of the bullet of docs/architecture.md's layers that starts ``heading``."""
    text = ARCHITECTURE.read_text()
    start = text.index("- **%s**" % heading)
    end = text.find("\n- **", start + 1)
    return " ".join(text[start:end].split())


def named_modules(text):
    """The module names written in backquotes in ``text`` (``adafruit_*`` as a prefix)."""
    import re

    return {name for name in re.findall(r"`([a-z_0-9*]+)`", text)}


def test_the_doc_names_the_outside_modules_the_layer_check_allows():
    from tools import layers

    core = bullet("`firmware/`, the core")
    core = core[core.index("built-ins") : core.index("never `machine`")]
    assert named_modules(core) == set(layers.OUTSIDE["firmware"])
    hal = bullet("`hal/`")
    hal = hal[: hal.index("the list `tools/layers.py` checks")]
    allowed = set(layers.OUTSIDE["hal"]) - set(layers.OUTSIDE["firmware"])
    allowed |= {prefix + "*" for prefix in layers.OUTSIDE_PREFIXES["hal"]}
    assert named_modules(hal) - {"hal/"} == allowed


# --- time in the core: ticks moved and compared wraparound-safe, no floats ---

FIRMWARE = ROOT / "firmware"


def _is_tick(node):
    """A tick value by its name: ``now`` or a field or name ending in ``_at``."""
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
    return name is not None and (name == "now" or (name.endswith("_at") and name.islower()))


def raw_tick_arithmetic(source):
    """``(line, text)`` of each comparison of a tick with ``<``, ``>``, ``==``… and of
    each ``+``/``-`` on a tick not masked at once to the period (``& _TICKS_MAX``)."""
    tree = ast.parse(source)
    masked = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
            if getattr(node.right, "id", None) == "_TICKS_MAX":
                masked.add(id(node.left))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
                continue  # ``wake_at is None``
            if any(_is_tick(operand) for operand in operands):
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            if any(_is_tick(side) for side in (node.left, node.right)) and id(node) not in masked:
                found.append((node.lineno, ast.unparse(node)))
    return found


def floats(source):
    """``(line, text)`` of each float literal, true division and ``float()`` call."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, float):
            found.append((node.lineno, repr(node.value)))
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Div):
            found.append((node.lineno, "/"))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "float":
            found.append((node.lineno, "float()"))
    return found


def core_sources():
    for path in sorted(FIRMWARE.rglob("*.py")):
        yield path.relative_to(ROOT), path.read_text()


def test_the_core_moves_and_compares_ticks_only_wraparound_safe():
    problems = [
        "%s:%d %s" % (path, line, text)
        for path, source in core_sources()
        if path.name != "tickmath.py"
        for line, text in raw_tick_arithmetic(source)
    ]
    assert problems == []


def test_the_tick_check_finds_a_raw_comparison_and_an_unmasked_difference():
    source = (
        "if now >= self.wake_at:\n    pass\n"
        "late = now - self.redraw_at\n"
        "ok = (now - quiet) & _TICKS_MAX < _TICKS_HALF\n"
        "none = self.wake_at is None\n"
    )
    assert [line for line, _ in raw_tick_arithmetic(source)] == [1, 3]


def test_the_core_holds_no_float():
    problems = [
        "%s:%d %s" % (path, line, text)
        for path, source in core_sources()
        for line, text in floats(source)
    ]
    assert problems == []


def test_the_float_check_finds_a_literal_a_division_and_a_conversion():
    source = "a = 0.5\nb = now / 1000\nc = float(x)\nd = now // 1000\n"
    assert [line for line, _ in floats(source)] == [1, 2, 3]


# --- who imports and calls what ---


def imports_in(path):
    """``(line, module, the function it is imported in or "")`` of each import."""
    found = []

    def visit(node, function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Import):
                found.extend((child.lineno, alias.name, function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                found.extend(
                    (child.lineno, "%s.%s" % (base, alias.name), function) for alias in child.names
                )
            visit(child, function)

    visit(ast.parse(path.read_text()), "")
    return found


def clock_modules():
    for folder in ("firmware", "hal"):
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_no_module_of_the_clock_imports_the_halls_reading():
    problems = [
        "%s:%d" % (path.relative_to(ROOT), line)
        for path in clock_modules()
        for line, module, _function in imports_in(path)
        if module.startswith("firmware.hall_decode")
    ]
    assert problems == []


def test_no_module_of_the_clock_loads_the_latency_check():
    # hal/latency_check.py is loaded by `make selftest LATENCY=1` alone (tools/selftest.py
    # sends the board the lines that import it), never by the boot or the main loop.
    problems = [
        "%s:%d" % (path.relative_to(ROOT), line)
        for path in clock_modules()
        for line, module, _function in imports_in(path)
        if module.startswith("hal.latency_check")
    ]
    assert problems == []
    selftest = (ROOT / "tools" / "selftest.py").read_text()
    assert "from hal import latency_check" in selftest


# The boot path's importers of firmware/boot/: (module, function).
BOOT_PATH = {
    ("hal/boot.py", "start"),
    ("firmware/settings_file.py", "load"),
    ("firmware/hall_settings.py", "load"),
}


def test_only_the_boot_path_imports_the_boot_folder():
    found = set()
    for path in clock_modules():
        name = str(path.relative_to(ROOT))
        if name.startswith("firmware/boot/"):
            continue
        for _line, module, function in imports_in(path):
            if module.startswith("firmware.boot"):
                found.add((name, function))
    assert found == BOOT_PATH
    hal_boot = (ROOT / "hal" / "boot.py").read_text()
    assert "settings_file.load(" in hal_boot  # boot is what reads the settings
    link = (ROOT / "hal" / "hall_link.py").read_text()
    assert "hall_settings.load(" in link and "def attach(" in link
    assert (
        "hall_link.attach("
        in (ROOT / "hal" / "boot.py").read_text() + (ROOT / "hal" / "board_io.py").read_text()
    )


def calls_on(source, owner):
    """The names of the methods called on ``owner`` (``self.hall``) in ``source``."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if ast.unparse(node.func.value) == owner:
                found.add(node.func.attr)
    return found


def test_the_link_is_no_step_of_the_apps_the_main_loop_gives_it_its_turn():
    app = (ROOT / "firmware" / "app.py").read_text()
    assert calls_on(app, "self.hall") == {"renumber"}
    runtime = (ROOT / "hal" / "runtime.py").read_text()
    loop = next(
        node
        for node in ast.walk(ast.parse(runtime))
        if isinstance(node, ast.FunctionDef) and node.name == "turn"
    )
    assert {"poll", "writing"} <= calls_on(ast.unparse(loop), "hall")


def test_one_call_lets_a_module_go_the_journal_stores_setup():
    calls = []
    for path in clock_modules():
        if path.name == "lifetime.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "lifetime.let_go":
                calls.append((str(path.relative_to(ROOT)), ast.unparse(node)))
    assert calls == [("hal/journal_store.py", "lifetime.let_go(hal, 'journal_setup')")]
