"""docs/fide.md, FIDE's clock requirements clause by clause: every clause has its row,
every file a row points at exists, every test it names is in that file; and the
legibility argument of clause (c) holds for every board's digits."""

import math
import os
import re

import pytest

import boards
from tests.scripting import ROOT

FIDE = os.path.join(ROOT, "docs", "fide.md")
CLAUSES = "abcdefghijkl"
# A pointer: `path` or `path::test_name`, a path under one of the project's folders.
POINTER = re.compile(r"`((?:tests|docs|boards|tools|bench|firmware|hal|sim)/[^`\s:]+)(?:::(\w+))?`")
MIN_ARCMIN = 16  # ISO 9241-303 / ANSI/HFES 100: the least for a character that must be read
DISTANCE_MM = 3000  # clause (c)
BOARDS = sorted(
    name[:-3]
    for name in os.listdir(os.path.join(ROOT, "boards"))
    if name.endswith(".py") and name[:-3] not in ("__init__", "sim")
)


def table_rows():
    with open(FIDE) as handle:
        lines = handle.read().splitlines()
    rows = {}
    for line in lines:
        match = re.match(r"\| \(([a-l])\) \|", line)
        if match:
            rows[match.group(1)] = line
    return rows


def test_every_clause_has_a_row_that_points_somewhere():
    rows = table_rows()
    assert sorted(rows) == list(CLAUSES)
    for clause, row in rows.items():
        assert POINTER.search(row), "clause (%s) points at nothing" % clause


def test_every_file_and_test_the_table_points_at_exists():
    with open(FIDE) as handle:
        text = handle.read()
    pointers = POINTER.findall(text)
    assert len(pointers) > 30
    for path, test_name in pointers:
        full = os.path.join(ROOT, path)
        exists = os.path.isdir(full) if path.endswith("/") else os.path.isfile(full)
        assert exists, "docs/fide.md points at %s, which does not exist" % path
        if test_name:
            with open(full) as handle:
                source = handle.read()
            assert re.search(r"^def %s\(" % test_name, source, re.M), (
                "docs/fide.md names %s::%s, which is not there" % (path, test_name)
            )


def test_the_bench_figures_the_table_quotes_are_the_measured_ones():
    # Clause (j): the presses and seconds in the row are bench/latest.json's.
    import json

    with open(os.path.join(ROOT, "bench", "latest.json")) as handle:
        tasks = json.load(handle)["arbiter_tasks"]
    row = table_rows()["j"]
    for name, words in (
        ("+2:00 penalty", "+2:00 in %d presses, %.1f s"),
        ("move counter 38 -> 40", "move counter 38 → 40 in %d presses, %.1f s"),
        ("G.5 rejected", "G.5 rejection with its +2:00 in %d presses, %.1f s"),
    ):
        task = tasks[name]
        assert task["seconds"] < 60
        assert words % (task["presses"], task["seconds"]) in row, name


def arcmin(height_mm, distance_mm):
    return math.degrees(2 * math.atan(height_mm / 2 / distance_mm)) * 60


@pytest.mark.parametrize("name", BOARDS)
def test_every_board_is_legible_from_three_metres(name):
    board = boards.load(name)
    assert arcmin(board.DIGIT_HEIGHT_MM, DISTANCE_MM) >= MIN_ARCMIN


def test_the_legibility_arithmetic():
    # The table of docs/fide.md, worked again: 0.56" = 14.2 mm, 1.2" = 30.5 mm.
    assert round(arcmin(14.2, 3000), 1) == 16.3
    assert round(arcmin(30.5, 3000), 1) == 35.0
    assert arcmin(13, 3000) < MIN_ARCMIN  # a smaller digit would fail the test above
    with open(FIDE) as handle:
        text = handle.read()
    assert "| 14.2 mm | 16.3′ | 3.05 m | 2.44 m |" in text
    assert "| 30.5 mm | 35.0′ | 6.55 m | 5.24 m |" in text
