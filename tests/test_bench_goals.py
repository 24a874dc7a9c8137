"""The bench's one judge of a figure against its goal (bench/goals.py): every form of
goal at its limit and just past it, and the mark a missed figure gets in the terminal's
table and on docs/figures.md."""

import pytest

from bench import figures_page, goals

MET, MISSED = goals.MET, goals.MISSED

# (goal, a figure exactly at the limit, its verdict, a figure just past it, its verdict)
AT_AND_PAST = [
    ("<= 0.25", 0.25, MET, 0.251, MISSED),
    ("≤ 0.25", 0.25, MET, 0.251, MISSED),
    ("≤ 5,000 ms", 5000, MET, 5001, MISSED),
    ("p99 <= 100", 100, MET, 100.1, MISSED),
    ("< 100 µs", 99.9, MET, 100, MISSED),
    ("< 100,000", 99_999, MET, 100_000, MISSED),
    (">= 1000", 1000, MET, 999, MISSED),
    ("≥ 1000×", 1000, MET, 999.9, MISSED),
    ("> 5' (20/20 letter)", 5.1, MET, 5, MISSED),
    ("0", 0, MET, 1, MISSED),
    ("0 ms", 0.0, MET, 0.001, MISSED),
    ("2,048 B", 2048, MET, 2049, MISSED),
    ("2048", 2048, MET, 2047, MISSED),  # a number alone is met on neither side of it
    ("yes", True, MET, False, MISSED),
    ("True", True, MET, False, MISSED),
    ("no", False, MET, True, MISSED),
    ("none", [], MET, ["a mutation"], MISSED),
    ("all", "17 of 17", MET, "16 of 17", MISSED),
]


@pytest.mark.parametrize("goal, at, at_verdict, past, past_verdict", AT_AND_PAST)
def test_each_goal_at_its_limit_and_just_past_it(goal, at, at_verdict, past, past_verdict):
    assert goals.judge(at, goal) == at_verdict
    assert goals.judge(past, goal) == past_verdict


@pytest.mark.parametrize(
    "goal",
    ["report", "", "flat", "≤ the chip's heap", "refused, never late", "all of the game's"],
)
def test_a_goal_in_words_is_not_judged(goal):
    assert goals.judge(12, goal) is goals.NOT_JUDGED


def test_a_figure_the_goal_cannot_read_is_not_judged():
    assert goals.judge(None, "0") is goals.NOT_JUDGED
    assert goals.judge("5, 4.0", "< 60 s") is goals.NOT_JUDGED  # two figures: say which
    assert goals.judge(3, "yes") is goals.NOT_JUDGED
    assert goals.judge(17, "all") is goals.NOT_JUDGED


def test_a_list_meets_its_goal_only_if_each_item_does():
    assert goals.judge([0, 0], "0 each") == MET
    assert goals.judge([0, 1], "0 each") == MISSED
    assert goals.judge([8.9, 12.1], "> 5'") == MET
    assert goals.judge([8.9, 5], "> 5'") == MISSED


def test_a_row_is_judged_by_the_figure_its_goal_is_about():
    row = ("keys for a claim: presses, seconds", "5, 61.0", "< 60 s", 61.0)
    assert goals.row_verdict(row) == MISSED
    assert goals.row_verdict(("keys", "5, 4.0", "< 60 s", 4.0)) == MET


def test_the_terminal_table_marks_each_miss_and_counts_them():
    lines = goals.table(
        [
            ("tick CPU, this tree / first release", 0.37, "<= 0.25"),
            ("tick CPU, this tree / before", 0.968, "<= 1"),
            ("CPU per display frame", 40.5, "report"),
        ]
    )
    assert lines[0].endswith(goals.MISS_MARK)
    assert goals.MISS_MARK not in lines[1] and goals.MISS_MARK not in lines[2]
    assert lines[3] == "1 figure misses its goal (MISS)"
    assert len(goals.table([("a", 0, "0")])) == 1  # nothing missed, nothing counted


def test_every_printer_of_the_bench_goes_through_the_judge():
    """No bench module prints a goal itself: each table of goals is goals.print_table's."""
    import ast
    import os

    folder = os.path.join(os.path.dirname(os.path.dirname(__file__)), "bench")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py") or name == "goals.py":
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
                texts = [
                    sub.value
                    for sub in ast.walk(node)
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str)
                ]
                assert not any("goal" in text for text in texts), (
                    "bench/%s:%d prints goals without bench/goals.py" % (name, node.lineno)
                )


def test_the_figures_page_marks_a_missed_figure_and_lists_it_on_top():
    page = figures_page.render({"core": {"tick_to_first_release": 0.251, "tick_to_before": 1}})
    assert "| tick CPU, this tree / first release | 0.251 | ≤ 0.25 | **✗ missed** |" in page
    assert "| tick CPU, this tree / before | 1 | ≤ 1 | ✓ |" in page
    assert "Missed in this run (1): tick CPU, this tree / first release." in page
    page = figures_page.render({"core": {"tick_to_first_release": 0.25}})
    assert "| 0.25 | ≤ 0.25 | ✓ |" in page and "Missed in this run" not in page


def test_a_goal_in_a_tables_column_is_judged_in_each_cell():
    case = {"strip_lines": 3, "outside_card_or_viewport": 0}
    page = figures_page.render({"hall_page": {"wall": case, "phone": dict(case, strip_lines=2)}})
    assert "| strip lines (goal ≤ 2) |" in page
    assert "| 3 **✗ missed** |" in page
    assert "| phone |" in page and "| 2 |" in page
    assert "wall: strip lines" in page.split("##")[0]


def test_the_last_make_test_is_reported_against_two_minutes(tmp_path):
    from bench import core

    record = tmp_path / "make-test.json"
    assert core.make_test_figures(str(record)) == {"make_test": None}
    for wall, verdict in ((120, goals.MET), (121, goals.MISSED)):
        record.write_text(
            '{"wall_s": %d, "cores": 2, "workers": 3, "status": 0, "commit": "1234567"}' % wall
        )
        figures = core.make_test_figures(str(record))
        assert figures["make_test"]["wall_s"] == wall
        row = [row for row in core.rows(_core_figures(figures)) if "make test" in row[0]][0]
        assert goals.row_verdict(row) == verdict, wall


def _core_figures(extra):
    """The core bench's figures with every tick figure set, and ``extra``."""
    figures = {
        "method_branches_outside_methods": 0,
        "method_branches_before": 66,
        "first_release_cpu_us_per_tick": 40.0,
        "before_cpu_us_per_tick": 17.0,
        "cpu_us_per_tick": 9.0,
        "first_release_spread_us": [40, 41, 42],
        "spread_us": [9, 10, 11],
        "tick_to_first_release": 0.225,
        "tick_to_first_release_per_round": [0.2, 0.22, 0.3],
        "tick_to_before": 0.5,
        "stepping_tick_to_before": 0.9,
        "alloc_bytes_per_tick": 0,
        "alloc_bytes_per_press": 0,
    }
    figures.update(extra)
    return figures
