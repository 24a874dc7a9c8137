"""A figure declared once: its name, its path in bench/latest.json, its unit and its goal.

A section of the bench declares its figures as ``Figure`` rows beside the code that
measures them; the figures page (bench/figures_page.py) shows them under the
section's heading and the section's own table (``python -m bench.NAME``, ``make
bench``) shows the same rows, so a figure's name and goal are written in one place
and judged by one judge (bench/goals.py). A row with ``page=False`` is printed in
the table only: the page lists that figure by its path, under "Other figures".
"""

from collections import namedtuple

NOT_MEASURED = "not measured"

Figure = namedtuple("Figure", "name path unit goal page", defaults=(True,))


def lookup(figures, path):
    """The value at ``path`` (keys joined by dots) of ``figures``, or None."""
    value = figures
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def format_value(value, unit=""):
    """A figure as the page and the tables show it: thousands separated, booleans as
    yes/no."""
    if isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, int):
        text = "{:,}".format(value)
    elif isinstance(value, float):
        text = "{:,}".format(round(value, 4))
    elif isinstance(value, list):
        text = ", ".join(format_value(item) for item in value)
    elif value != str(value).strip():
        text = '`"%s"`' % value  # a display's text, its spaces kept visible
    else:
        text = str(value)
    text = text.replace("|", "\\|")
    return text + (" " + unit if unit and not isinstance(value, bool) else "")


def on_page(declared):
    """The page's rows of ``declared`` (``Figure`` rows, or ``(name, path, unit, goal)``
    tuples, all on the page): ``(name, path, unit, goal)``."""
    return tuple(figure[:4] for figure in declared if len(figure) == 4 or figure[4])


def table_rows(declared, key, figures):
    """The rows of a section's table (bench/goals.py, ``table``): ``(name, shown, goal,
    judged)`` of each figure of ``declared``, the section's figures stored under
    ``key`` (None: ``figures`` holds the keys themselves); a figure not among them is
    shown as not measured (and not judged)."""
    rows = []
    for figure in declared:
        value = lookup(figures if key is None else {key: figures}, figure.path)
        shown = NOT_MEASURED if value is None else format_value(value, figure.unit)
        rows.append((figure.name, shown, figure.goal, value))
    return rows
