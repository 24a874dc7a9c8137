"""The engine owns its state: only ``firmware/engine.py`` assigns a field of a
``Clock``, only ``firmware/timing.py`` (the timing methods, each a side's clock)
one of a side, only ``firmware/claims.py`` one of a ``Claims``.

Every other module changes them through their named operations (``configure``,
``add_time``, ``finish``, ``restore``, ``note``…), which bump the change
counter the journal compares each tick; a field written from outside would
change the game without the journal noticing. The field names are read from
the classes themselves (every ``self.NAME = …`` in their methods), so a new
field is guarded as soon as it exists.
"""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
OWNERS = {
    "engine.py": ("Clock",),
    "timing.py": None,  # every class: each timing method is a side's clock
    "claims.py": ("Claims",),
}


def own_fields(path, class_names):
    """The attributes the classes ``class_names`` of ``path`` assign on ``self``."""
    tree = ast.parse(path.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and (class_names is None or node.name in class_names):
            for sub in ast.walk(node):
                if (
                    isinstance(sub, ast.Attribute)
                    and isinstance(sub.ctx, ast.Store)
                    and isinstance(sub.value, ast.Name)
                    and sub.value.id == "self"
                ):
                    names.add(sub.attr)
    return names


def stores(source):
    """``(line, attribute node)`` of every attribute assigned in ``source`` (``=``,
    ``+=``, tuple targets, ``for`` targets)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
            targets = [node.target]
        else:
            continue
        for target in targets:
            for sub in ast.walk(target):
                if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
                    found.append((node.lineno, sub))
    return found


def field_writes(source, fields):
    """``(line, target)`` of every assignment to ``something.FIELD`` in ``source``
    where ``something`` is not ``self``."""
    return [
        (line, ast.unparse(sub))
        for line, sub in stores(source)
        if not (isinstance(sub.value, ast.Name) and sub.value.id == "self") and sub.attr in fields
    ]


def guarded():
    """``{module file name: fields it must not assign}``."""
    fields = {name: own_fields(FIRMWARE / name, OWNERS[name]) for name in OWNERS}
    rules = {}
    for path in sorted(FIRMWARE.rglob("*.py")):
        name = path.name if path.parent == FIRMWARE else str(path.relative_to(FIRMWARE))
        forbidden = set()
        for owner, owned in fields.items():
            if name != owner:
                forbidden |= owned
        rules[path] = forbidden
    return rules


def test_the_fields_are_found():
    clock = own_fields(FIRMWARE / "engine.py", OWNERS["engine.py"])
    sides = own_fields(FIRMWARE / "timing.py", OWNERS["timing.py"])
    claims = own_fields(FIRMWARE / "claims.py", OWNERS["claims.py"])
    assert {"state", "mover", "turn_used", "changes", "sides"} <= clock
    assert {"remaining_ms", "flagged", "control", "added_mode", "byo_left", "period"} <= sides
    assert {"state", "claimant", "quickplay", "edition", "log", "record", "changes"} <= claims


def test_no_module_writes_a_field_of_the_engine_or_the_claims():
    problems = []
    for path, forbidden in guarded().items():
        for line, target in field_writes(path.read_text(), forbidden):
            problems.append("%s:%d assigns %s" % (path.relative_to(ROOT), line, target))
    assert problems == []


def test_the_check_finds_the_writes_it_forbids():
    fields = own_fields(FIRMWARE / "engine.py", OWNERS["engine.py"])
    fields |= own_fields(FIRMWARE / "timing.py", OWNERS["timing.py"])
    fields |= own_fields(FIRMWARE / "claims.py", OWNERS["claims.py"])
    source = (
        "def restore(clock, claims, side, buf):\n"
        "    clock.state = 2\n"
        "    clock.sides[0].remaining_ms += 5\n"
        "    side.flagged, x = True, 1\n"
        "    claims.quickplay = 'g5'\n"
        "    app.clock.turn_used = 0\n"
        "    self.state = 1\n"  # a class's own field: not an outside write
        "    menu.changed = True\n"  # not a field of theirs
    )
    found = [target for _, target in field_writes(source, fields)]
    assert found == [
        "clock.state",
        "clock.sides[0].remaining_ms",
        "side.flagged",
        "claims.quickplay",
        "app.clock.turn_used",
    ]


# The app, its screens, the journal and the hardware objects: each field is assigned only by
# its own class. Their field names are too common to forbid everywhere (``low``,
# ``due``, ``errors``), so an assignment counts as theirs by the name the code
# gives the object it writes to, the names the project uses for them.
OBJECTS = {
    "firmware/app.py": ("App", ("app",)),
    "firmware/journal.py": ("Journal", ("journal",)),
    "firmware/arbiter.py": ("Arbiter", ("arbiter",)),
    "firmware/menu_gate.py": ("Menu", ("menu",)),
    "firmware/menu/screens.py": ("MenuScreens", ("screens",)),
    "firmware/notices.py": ("Notices", ("notices",)),
    "firmware/sound.py": ("Sound", ("sound",)),
    "hal/hardware.py": ("Hardware", ("hardware",)),
    "hal/battery.py": ("Battery", ("battery",)),
    "hal/buzzer.py": ("Buzzer", ("buzzer",)),
    "hal/displays.py": ("SegmentDisplay", ("display", "displays", "left", "right")),
    "hal/edges.py": ("EdgeRing", ("inputs", "ring", "edges")),
    "hal/journal_store.py": ("JournalStore", ("store", "journal_store")),
    "hal/keys.py": ("KeyButtons", ("keys",)),
    "hal/leds.py": ("StatusLeds", ("leds",)),
    "hal/storage.py": ("Storage", ("storage",)),
    "hal/ticker.py": ("Ticker", ("ticker",)),
    "hal/watchdog.py": ("Watchdog", ("watchdog",)),
}
FOLDERS = ("firmware", "hal", "boards", "sim", "live", "hall", "bench", "tools", "tests")


def receiver_name(node):
    """The name the code gives the object of ``node.attr``: ``app`` for
    ``board.app.drawn``, ``displays`` for ``hardware.displays[0].valid``."""
    value = node.value
    while isinstance(value, ast.Subscript):
        value = value.value
    if isinstance(value, ast.Attribute):
        return value.attr
    if isinstance(value, ast.Name):
        return value.id
    return None


def object_writes(source, owners):
    """``(line, target)`` of every assignment to ``RECEIVER.FIELD`` where ``owners``
    maps ``RECEIVER`` to the fields its class owns."""
    found = []
    for line, sub in stores(source):
        name = receiver_name(sub)
        if name != "self" and sub.attr in owners.get(name, ()):
            found.append((line, ast.unparse(sub)))
    return found


def object_owners():
    """``{owner file: {receiver name: the fields its class assigns}}``."""
    rules = {}
    for owner, (class_name, receivers) in OBJECTS.items():
        fields = own_fields(ROOT / owner, (class_name,))
        assert fields, "%s defines no fields of %s" % (owner, class_name)
        rules[owner] = {receiver: fields for receiver in receivers}
    return rules


def test_no_module_writes_a_field_of_the_app_the_journal_or_the_hardware():
    rules = object_owners()
    problems = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = str(path.relative_to(ROOT))
            owners = {}
            for owner, receivers in rules.items():
                if owner != name:
                    owners.update(receivers)
            for line, target in object_writes(path.read_text(), owners):
                problems.append("%s:%d assigns %s" % (name, line, target))
    assert problems == []


def test_the_object_check_finds_the_writes_it_forbids():
    source = (
        "def boot(app, board, hardware, settings):\n"
        "    app.settings = settings\n"
        "    board.app.drawn = -1\n"
        "    hardware.displays[0].valid = False\n"
        "    hardware.battery.low_mv = 3400\n"
        "    app.journal.failures += 1\n"
        "    self.drawn = 0\n"  # a class's own field
        "    app.settings.tenths = True\n"  # the settings' field, not the app's
        "    app.colour = 1\n"  # not a field of the app
    )
    owners = {}
    for receivers in object_owners().values():
        owners.update(receivers)
    found = [target for _, target in object_writes(source, owners)]
    assert found == [
        "app.settings",
        "board.app.drawn",
        "hardware.displays[0].valid",
        "hardware.battery.low_mv",
        "app.journal.failures",
    ]


def test_the_core_reads_no_field_of_the_hardware():
    """The core asks the hardware's parts through their methods only."""
    rules = object_owners()
    problems = []
    for path in sorted((ROOT / "firmware").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)):
                continue
            name = receiver_name(node)
            for owner, receivers in rules.items():
                if not owner.startswith("hal/") or owner == "hal/hardware.py":
                    continue  # the app's own objects, and the hardware's list of parts
                if node.attr in receivers.get(name, ()):
                    problems.append(
                        "%s:%d reads %s" % (path.relative_to(ROOT), node.lineno, ast.unparse(node))
                    )
    assert problems == []


# Modules of the project's own packages; any other imported module is another
# project's (MicroPython's, the Adafruit libraries, paho, the standard library).
PROJECT = ("firmware", "hal", "boards", "sim", "live", "hall", "bench", "tools", "tests")
# Assignments into another project's module allowed, and why (hal/keys.py says why the
# one there was, patching adafruit_debouncer's clock, went with the library): the
# simulator's stand-in for MicroPython's REPL interrupt (sim/ctrl_c.py), which the
# host's ``micropython`` has none of, put in and taken out as a board's REPL would.
FOREIGN_ALLOWED = {("sim/ctrl_c.py", "micropython.kbd_intr")}


def foreign_writes(source):
    """``(line, target)`` of every assignment to an attribute of a module imported
    from outside the project (``import time``, ``import adafruit_ticks as t``)."""
    tree = ast.parse(source)
    foreign = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in PROJECT:
                    foreign.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] not in PROJECT:
                for alias in node.names:
                    foreign.add(alias.asname or alias.name)
    return [
        (line, ast.unparse(sub))
        for line, sub in stores(source)
        if isinstance(sub.value, ast.Name) and sub.value.id in foreign
    ]


def test_no_module_changes_another_projects_module():
    problems = []
    for folder in PROJECT:
        if folder == "tests":
            continue  # a test may stand in for a library, as pytest's monkeypatch does
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = str(path.relative_to(ROOT))
            for line, target in foreign_writes(path.read_text()):
                if (name, target) not in FOREIGN_ALLOWED:
                    problems.append("%s:%d assigns %s" % (name, line, target))
    assert problems == []


def test_the_foreign_check_finds_what_it_forbids():
    source = (
        "import time\n"
        "import adafruit_ticks as ticks\n"
        "from sim import vclock\n"
        "def install():\n"
        "    time.ticks_ms = vclock.ticks_ms\n"
        "    ticks.ticks_diff = None\n"
        "    vclock.now = 0\n"  # the project's own module
    )
    assert [target for _, target in foreign_writes(source)] == [
        "time.ticks_ms",
        "ticks.ticks_diff",
    ]


# The edge ring's arrays are its own to read too (docs/architecture.md): the keys
# take a press's record through ``EdgeRing.press_into``, the hardware turns the
# handlers off with ``disable``; nothing reads ``ring_tick``, ``pins``, ``last_edge``…
RING_READERS = ("inputs", "ring", "edges")


def ring_field_reads(source, fields):
    """``(line, expression)`` of every read of ``RECEIVER.FIELD`` for a ring's name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and node.attr in fields
            and receiver_name(node) in RING_READERS
        ):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_no_module_reads_the_edge_rings_arrays():
    fields = own_fields(ROOT / "hal" / "edges.py", ("EdgeRing",))
    assert {"ring_tick", "ring_open", "ring_release", "pins", "active", "last_edge"} <= fields
    problems = []
    for folder in ("firmware", "hal", "boards", "sim", "live", "hall", "bench", "tools"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "hal" / "edges.py":
                continue
            for line, expression in ring_field_reads(path.read_text(), fields):
                problems.append("%s:%d reads %s" % (path.relative_to(ROOT), line, expression))
    assert problems == []
