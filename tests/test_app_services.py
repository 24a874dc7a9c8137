"""The app declares the board's services the screens and the hall's message may use
(``App.storage``, ``has_network``, ``battery``, ``renumber_hall``): the setup menus,
the boot's journal and the hall's message and push ask the app for them and never
reach into its hardware or its hall link (docs/architecture.md)."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
# The menus and their screens, the boot's restore (firmware/boot/), the hall's message and push.
ASKERS = sorted((FIRMWARE / "menu").glob("*.py")) + sorted((FIRMWARE / "boot").glob("*.py"))
ASKERS += [FIRMWARE / "menu_gate.py", FIRMWARE / "hall_message.py", FIRMWARE / "hall_push.py"]
REACHED = ("hardware", "hall", "board")  # the app's hardware, its hall link, the board


def reaches(source):
    """``(line, expression)`` of every ``X.hardware``, ``app.hall``… read in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in REACHED:
            value = node.value
            owner = value.attr if isinstance(value, ast.Attribute) else getattr(value, "id", "")
            if owner == "app" or node.attr == "hardware":
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "getattr":
            found.append((node.lineno, ast.unparse(node)))  # a field asked for by name
    return found


def test_the_screens_and_the_hall_message_ask_the_app_for_the_boards_services():
    problems = []
    for path in ASKERS:
        for line, expression in reaches(path.read_text()):
            if expression.startswith("getattr(settings"):  # the settings' own fields by name
                continue
            problems.append("%s:%d %s" % (path.relative_to(ROOT), line, expression))
    assert problems == []


def test_the_check_finds_a_reach_into_the_hardware():
    source = (
        "board = getattr(app.hardware, 'board', None)\n"
        "self.app.hardware.storage.write_json(x)\n"
        "link = self.app.hall\n"
        "app.storage().read_json(x)\n"  # the service: fine
    )
    assert sorted(line for line, _ in reaches(source)) == [1, 1, 2, 3]


def test_the_app_declares_the_services():
    tree = ast.parse((FIRMWARE / "app.py").read_text())
    app = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "App")
    methods = {n.name for n in app.body if isinstance(n, ast.FunctionDef)}
    assert {"storage", "has_network", "battery", "renumber_hall"} <= methods


# docs/architecture.md: the app asks its services through methods only and reads
# none of their fields; of the hardware it names only the parts hal/board_io.py builds
# and the board's ``network`` flag it sets.
PARTS = ("inputs", "keys", "displays", "battery", "buzzer", "leds", "storage", "watchdog")
PARTS += ("ticker", "display_restore")
HARDWARE_NAMES = PARTS + ("network",)
SERVICES = PARTS + ("journal", "hall")


def owner_name(node):
    """The name the code gives the object ``node`` is: ``hardware`` for
    ``self.hardware`` and for ``hardware.displays[0]``'s ``hardware.displays``."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def field_reads(source):
    """``(line, expression)`` of every read of a service's attribute that is not a
    method called at once, of every ``hardware.X`` with X not a part, and of every
    ``getattr`` of the hardware or a service (a field asked for by name)."""
    tree = ast.parse(source)
    called = {
        id(node.func)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "getattr":
            if node.args and owner_name(node.args[0]) in SERVICES + ("hardware",):
                found.append((node.lineno, ast.unparse(node)))
            continue
        if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
            continue
        owner = owner_name(node.value)
        if owner == "hardware" and node.attr not in HARDWARE_NAMES:
            found.append((node.lineno, ast.unparse(node)))
        elif owner in SERVICES and owner != "hardware" and id(node) not in called:
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_the_app_reads_no_field_of_its_services():
    source = (FIRMWARE / "app.py").read_text()
    reads = field_reads(source)
    assert reads == []
    assert "self.hardware.inputs" in source  # the parts are named: the check has work


def test_the_field_check_finds_a_field_read():
    source = (
        "low = self.hardware.battery.low\n"  # a field of the battery
        "n = self.journal.seq\n"
        "ok = displays[0].took_last()\n"  # a method: fine
        "b = hardware.board\n"  # not a part
        "b = getattr(self.hardware, 'board', None)\n"  # asked for by name
        "n = getattr(self.journal, 'seq', 0)\n"
        "net = self.hardware.network\n"  # the board's flag: fine
        "d = getattr(settings, 'tenths')\n"  # the settings are data: fine
    )
    assert sorted(line for line, _ in field_reads(source)) == [1, 2, 4, 5, 6]
