"""docs/figures.md is what bench/figures_page.py writes from the committed bench/latest.json,
and a figure the page does not know is still listed, never a crash."""

import json
import os

from bench import figures_page

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def committed_figures():
    with open(os.path.join(ROOT, "bench", "latest.json"), encoding="utf-8") as handle:
        return json.load(handle)


def test_the_committed_page_is_the_one_the_figures_give():
    with open(os.path.join(ROOT, "docs", "figures.md"), encoding="utf-8") as handle:
        committed = handle.read()
    assert committed == figures_page.render(committed_figures()), (
        "docs/figures.md is out of date: python -m bench.figures_page"
    )


def test_a_known_figure_has_its_named_row_and_goal():
    page = figures_page.render({"micropython": {"cpu_us_per_tick": 71.25}})
    assert "| CPU per tick of a running game, most of them at rest | 71.25 µs | < 100 µs |" in page
    assert "## Other figures" not in page


def test_an_unknown_figure_is_listed_by_its_path():
    figures = committed_figures()
    figures["tick_side_by_side"] = {"first_release_us": 72.4, "runs": [1, 2], "commit": "abc"}
    page = figures_page.render(figures)
    assert "| `tick_side_by_side.first_release_us` | 72.4 |" in page
    assert "| `tick_side_by_side.runs` | 1, 2 |" in page
    assert "| `tick_side_by_side.commit` | abc |" in page


def test_a_known_figure_that_moved_is_not_lost():
    figures = committed_figures()
    figures["bench_measure"] = figures.pop("micropython")
    page = figures_page.render(figures)
    assert "| CPU per tick |" not in page
    assert (
        "| `bench_measure.cpu_us_per_tick` | %s |"
        % (figures_page.format_value(figures["bench_measure"]["cpu_us_per_tick"]))
        in page
    )


def test_values_read_as_a_reader_expects():
    assert figures_page.format_value(64224, "B") == "64,224 B"
    assert figures_page.format_value(True) == "yes"
    assert figures_page.format_value(" 1.30.") == '`" 1.30."`'
    assert figures_page.format_value("a|b") == "a\\|b"
    assert figures_page.render({}).startswith("# Figures")


def test_a_declared_figure_is_one_row_of_its_table_and_of_the_page():
    from bench.figure_rows import Figure, on_page, table_rows

    declared = (
        Figure("wait, typical", "sweep.wait.typical", "ms", "≤ 3,000 ms"),
        Figure("blocks", "sweep.blocks", "", "report", False),
        Figure("absent", "sweep.absent", "", "0"),
    )
    figures = {"wait": {"typical": 3001}, "blocks": 24}
    assert table_rows(declared, "sweep", figures) == [
        ("wait, typical", "3,001 ms", "≤ 3,000 ms", 3001),
        ("blocks", "24", "report", 24),
        ("absent", "not measured", "0", None),
    ]
    assert on_page(declared) == (
        ("wait, typical", "sweep.wait.typical", "ms", "≤ 3,000 ms"),
        ("absent", "sweep.absent", "", "0"),
    )


def test_a_sections_table_and_the_page_give_each_figure_the_same_name_and_goal():
    from bench import (
        capture_sweep,
        chip,
        core,
        figure_rows,
        hall,
        hall_guard,
        hall_link,
        hall_scale,
        hall_tls,
        inside_micropython,
        journal,
        live_simulator,
        power,
        preparation,
        simulator,
    )

    figures = committed_figures()
    page = figures_page.render(figures)
    hall_module, hall = hall, figures["hall"]
    sections = [
        (module.declared(), module.rows(figures[module.__name__.split(".")[1]]))
        for module in (capture_sweep, core, journal, live_simulator, power, preparation)
    ]
    sections += [
        (chip.declared(figures["chip"]), chip.rows(figures["chip"])),
        (inside_micropython.declared(), inside_micropython.rows(figures)),
        ((simulator.SPEED, simulator.CHARGE_ERROR), simulator.rows(figures)),
        (hall_tls.declared(), hall_tls.rows(hall["tls"])),
        (hall_guard.declared(), hall_guard.rows(hall["guard"])),
        (hall_module.declared(), figure_rows.table_rows(hall_module.declared(), "hall", hall)),
        (hall_link.declared(), hall_link.rows(hall)),
        (hall_scale.declared_matrix(), hall_scale.scale_rows(hall["scale"])),
        (hall_scale.declared_runs() + (hall_scale.FLOOD_VIEW,), hall_scale.run_rows(hall)),
    ]
    for declared, rows in sections:
        paths = {figure.name: figure.path for figure in declared}
        for name, shown, goal, *value in rows:
            if name not in paths:  # a row of the table alone (the arbiter's keys)
                continue
            row = "| %s | %s | %s |" % (name, shown, goal)
            listed = "| `%s` | %s |" % (paths[name], figures_page.format_value(value[0]))
            assert row in page or listed in page or shown == "not measured", name
