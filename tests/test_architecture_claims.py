"""docs/architecture.md: "Everything that shows what the clock displays reads the
chip model's RAM, never the firmware's frames" (the simulator, the window and the
terminal, the manuals' pictures): none of them imports firmware.frames or reads an
app's frame."""

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
