"""The bench's side-by-side tick figure: the pinned first release, and a clone without it."""

import os

from bench import first_release


def test_the_pinned_commit_is_the_first_release_with_its_own_tick_measurement(tmp_path):
    assert len(first_release.FIRST_RELEASE) == 40
    tree = first_release.prepare(first_release.FIRST_RELEASE, str(tmp_path))
    # issue 2's spine: its own measurement, compiled firmware and this tree's runner
    assert os.path.isfile(os.path.join(tree, "sim", "measure.py"))
    assert os.path.isfile(os.path.join(tree, "build", "mpy", "firmware", "engine.mpy"))
    assert os.path.isfile(os.path.join(tree, "build", "mpy", "lib", "adafruit_ticks.mpy"))
    assert os.path.isfile(os.path.join(tree, "tools", "mpy", "run.mjs"))
    # before the quickplay claims: no claims module yet
    assert not os.path.exists(os.path.join(tree, "firmware", "claims.py"))


def test_a_clone_without_the_commit_says_so_and_measures_this_tree(monkeypatch, capsys):
    monkeypatch.setattr(first_release, "FIRST_RELEASE", "0" * 40)
    runs = iter([30.0, 10.0, 20.0])
    figures = first_release.side_by_side(lambda: {"cpu_us_per_tick": next(runs)}, rounds=3)
    assert figures["first_release_available"] is False
    assert figures["current_cpu_us_per_tick"] == 10.0  # the least of 30, 10, 20
    assert figures["current_spread_us"] == [10.0, 20.0, 30.0]
    assert "not in this clone" in capsys.readouterr().out
    assert first_release.rows(figures)[0][1] == "-"


def test_the_ratio_is_of_the_least_runs_and_reports_its_spread_round_by_round():
    # a load only adds time: round 2 disturbed this tree, round 3 the first release
    to_first, per_round = first_release.ratio([10.0, 30.0, 12.0], [40.0, 42.0, 80.0])
    assert to_first == 0.25  # 10 / 40, whatever the medians say (12 / 42)
    assert per_round == [0.15, 0.25, 0.714]


def test_the_trees_alternate_round_after_round():
    order = []
    runs = first_release.alternate(
        {"a": lambda: order.append("a") or 1, "b": lambda: order.append("b") or 2}, 3
    )
    assert order == ["a", "b"] * 3
    assert runs == {"a": [1, 1, 1], "b": [2, 2, 2]}
