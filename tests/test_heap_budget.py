"""Every board on its real heap: the budget's rule at its limit, the ESP32's heap from
MicroPython's own arithmetic, the shipped paths inside their budgets, and the let-go
machinery gone but for the journal store's one call.

The figures themselves are measured by ``python -m bench.heap`` (not here: it boots
every board on two lanes and plays a tournament day on each); this reads what it
wrote to bench/latest.json.
"""

import ast
import json
import os

from bench import heap, let_go_lines, results
from boards.chips import esp32, rp2040, rp2040w

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _gc_blocks(area_bytes):
    """Blocks of a MicroPython heap area of ``area_bytes`` (py/gc.c, gc_setup_area,
    with finalisers): A = (T - 1) * 8 / (8 + 8 * 4 / 8 + 8 * 4 * 16) table bytes,
    4 blocks each."""
    return (area_bytes - 1) * 8 // (8 + 4 + 512) * 4


def test_the_esp32_heap_is_two_areas_of_56_kib_less_their_tables():
    first = _gc_blocks(56 * 1024)
    # gc_try_add_heap: a new area as large as the heap with its tables (blocks / 4
    # + blocks / 8 + blocks * 16 + 1 gap byte + a 32-byte header, to 16 bytes).
    second_bytes = (first // 4 + first // 8 + first * 16 + 1 + 32 + 15) // 16 * 16
    second = _gc_blocks(second_bytes - 32)
    assert esp32.HEAP_BYTES == (first + second) * 16
    # The Pico's is measured on the port (make port); the Pico W's still estimated.
    assert not esp32.HEAP_ESTIMATED and not rp2040.HEAP_ESTIMATED and rp2040w.HEAP_ESTIMATED
    # The rp2 heap is the RAM after .bss: less than 256 KiB, less still with the radio.
    assert rp2040w.HEAP_BYTES < rp2040.HEAP_BYTES < 256 * 1024
    for chip in (esp32, rp2040, rp2040w):
        assert "MicroPython v1.27.0" in chip.HEAP_SOURCE


def _measured(boot, game):
    path = {"boot": {"offline": {"heap_after_boot_bytes": boot}}, "day": {}}
    path["boot"]["hall"] = {"heap_after_boot_bytes": boot}
    path["day"] = {
        "games": 10,
        "a_game_needs_bytes": game,
        "largest_free_block_after_each_game_bytes": [0],
        "largest_free_block_bound_bytes": 0,
        "heap_growth_after_the_first_game_bytes": 0,
        "statements_not_applied": 0,
    }
    return path


def test_the_budget_holds_at_its_limit_and_not_a_byte_past_it():
    real = esp32.HEAP_BYTES
    game = 5_000
    budget = real * 60 // 100 - game  # 40 % of the heap left free after boot and a game
    assert heap.budget_bytes(real, game) == budget
    for boot, holds in ((budget, True), (budget + 1, False)):
        out, days = {}, {}
        heap.rows_of_board(
            "esp32", {"mpy": _measured(boot, game), "frozen": _measured(0, 0)}, out, days
        )
        entry = out["esp32 mpy offline"]
        assert entry["budget_bytes"] == budget and entry["holds"] is holds
        assert entry["free_after_boot_bytes"] == real - boot
        assert days["esp32 mpy"]["boot_and_a_game_within_budget"] is holds


def _stored():
    with open(results.LATEST) as handle:
        return json.load(handle)["heap"]


def test_every_shipped_path_holds_its_budget_and_every_board_ships():
    paths = _stored()["paths"]
    for board in heap.BOARDS:
        for hall in ("offline", "hall"):
            shipped = [p for p in heap.PATHS if paths["%s %s %s" % (board, p, hall)]["shipped"]]
            assert shipped, "%s ships no path %s" % (board, hall)
    for name, entry in paths.items():
        if entry["shipped"]:
            assert entry["holds"], name
        assert entry["loaded_from_files"] == [], name  # the frozen lane loaded it all frozen
    assert paths["esp32 frozen hall"]["boot_heap_bytes"] <= 40 * 1024


def test_no_module_lets_go_but_the_journal_store():
    """The let-go machinery went; a new ``let_go`` call (or import of lifetime) fails
    here until docs/architecture.md says what it pays for."""
    callers = set()
    for folder in ("firmware", "hal"):
        for base, _dirs, names in os.walk(os.path.join(ROOT, folder)):
            for name in names:
                if not name.endswith(".py") or name == "lifetime.py":
                    continue
                path = os.path.join(base, name)
                with open(path) as handle:
                    tree = ast.parse(handle.read())
                for node in ast.walk(tree):
                    named = isinstance(node, ast.Attribute) and node.attr == "let_go"
                    imported = isinstance(node, ast.ImportFrom) and any(
                        alias.name == "lifetime" for alias in node.names
                    )
                    if named or imported:
                        callers.add(os.path.relpath(path, ROOT))
    assert callers == {"hal/journal_store.py"}
    assert not os.path.exists(os.path.join(ROOT, "firmware", "arbiter_gate.py"))


def test_lines_of_code_leave_out_docstrings_comments_and_blank_lines():
    text = (
        '"""A module."""\n\n# a comment\nx = 1  # code\n\n\n'
        'def f():\n    """Doc."""\n    return (\n        2\n    )\n'
    )
    assert sorted(let_go_lines.code_lines(text)) == [4, 7, 9, 10, 11]
