"""The engine owns its state: only ``firmware/engine.py`` (and
``firmware/move_count.py``, its counter correction, loaded on demand) assigns a
field of a ``Clock`` or a ``Side``, only ``firmware/claims.py`` one of a ``Claims``.

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
OWNERS = {"engine.py": ("Clock", "Side"), "claims.py": ("Claims",)}
# The engine's own code kept in a module of its own, loaded only while it is used
# (firmware.lifetime): it writes the engine's fields as engine.py does.
ENGINE_PARTS = {"move_count.py": "engine.py"}


def own_fields(path, class_names):
    """The attributes the classes ``class_names`` of ``path`` assign on ``self``."""
    tree = ast.parse(path.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in class_names:
            for sub in ast.walk(node):
                if (
                    isinstance(sub, ast.Attribute)
                    and isinstance(sub.ctx, ast.Store)
                    and isinstance(sub.value, ast.Name)
                    and sub.value.id == "self"
                ):
                    names.add(sub.attr)
    return names


def field_writes(source, fields):
    """``(line, target)`` of every assignment to ``something.FIELD`` in ``source``
    (``=``, ``+=``, tuple targets, ``for`` targets) where ``something`` is not ``self``."""
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
                if not (isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store)):
                    continue
                if isinstance(sub.value, ast.Name) and sub.value.id == "self":
                    continue
                if sub.attr in fields:
                    found.append((node.lineno, ast.unparse(sub)))
    return found


def guarded():
    """``{module file name: fields it must not assign}``."""
    fields = {name: own_fields(FIRMWARE / name, OWNERS[name]) for name in OWNERS}
    rules = {}
    for path in sorted(FIRMWARE.rglob("*.py")):
        name = path.name if path.parent == FIRMWARE else str(path.relative_to(FIRMWARE))
        forbidden = set()
        for owner, owned in fields.items():
            if ENGINE_PARTS.get(name, name) != owner:
                forbidden |= owned
        if name in ENGINE_PARTS:
            forbidden -= fields[ENGINE_PARTS[name]]  # ``clock.changes`` is the engine's
        rules[path] = forbidden
    return rules


def test_the_fields_are_found():
    clock = own_fields(FIRMWARE / "engine.py", OWNERS["engine.py"])
    claims = own_fields(FIRMWARE / "claims.py", OWNERS["claims.py"])
    assert {"state", "mover", "turn_used", "remaining_ms", "flagged", "control"} <= clock
    assert {"changes", "added_mode", "byo_left"} <= clock
    assert {"state", "claimant", "quickplay", "edition", "log", "record", "changes"} <= claims


def test_no_module_writes_a_field_of_the_engine_or_the_claims():
    problems = []
    for path, forbidden in guarded().items():
        for line, target in field_writes(path.read_text(), forbidden):
            problems.append("%s:%d assigns %s" % (path.relative_to(ROOT), line, target))
    assert problems == []


def test_the_check_finds_the_writes_it_forbids():
    fields = own_fields(FIRMWARE / "engine.py", OWNERS["engine.py"])
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
