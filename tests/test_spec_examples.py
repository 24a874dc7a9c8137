"""The example scripts of the specification pages (docs/spec/) run and every expect holds."""

import os
import re

import pytest

from sim import runner

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "docs", "spec")


def examples():
    """(page, script) for each page's "Example" section: its control and at lines."""
    found = []
    for name in sorted(os.listdir(SPEC)):
        with open(os.path.join(SPEC, name), encoding="utf-8") as handle:
            text = handle.read()
        if "\n## Example\n" not in text:
            continue
        section = text.split("\n## Example\n", 1)[1].split("\n## ", 1)[0]
        lines = [line.strip() for line in section.splitlines()]
        script = [line for line in lines if re.match(r"(control|at) ", line)]
        found.append((name, "\n".join(script) + "\n"))
    return found


def test_the_timing_and_script_pages_have_examples():
    assert {name for name, _script in examples()} >= {"timing.md", "scripts.md"}


@pytest.mark.parametrize("name, script", examples(), ids=[name for name, _s in examples()])
def test_the_example_holds(name, script):
    printed = []
    assert "expect" in script
    assert runner.run_script(name, script, printed.append) == 0, "\n".join(printed)
    assert printed[-1].startswith(name + ": end: ")
