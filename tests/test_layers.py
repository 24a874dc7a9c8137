"""Imports point one way: firmware, boards, hal, sim, then the tools on top (tools/layers.py)."""

import os
import textwrap

from tests.scripting import ROOT
from tools import layers


def problems(folder, source, module=""):
    return layers.problems_of(folder, textwrap.dedent(source), module)


def test_no_import_points_up():
    assert layers.violations(ROOT) == []


def test_every_folder_of_the_layers_is_walked():
    walked = {folder for folder, _path, _dotted in layers.modules(ROOT)}
    assert {"firmware", "boards", "hal", "sim", "tools", "bench", "hall"} <= walked
    paths = {path for _folder, path, _dotted in layers.modules(ROOT)}
    assert os.path.join("firmware", "menu", "screens.py") in paths  # folders inside too
    assert os.path.join("hal", "boot.py") in paths


def test_an_upward_import_inside_a_function_is_found():
    found = problems(
        "firmware",
        """
        from firmware import engine

        def start():
            from hal.board_io import Hardware
            return Hardware
        """,
    )
    assert len(found) == 1 and found[0].startswith("5: firmware imports hal.board_io")


def test_each_layer_may_import_only_those_below_it():
    assert problems("boards", "import firmware.input_codes\n") != []  # boards: data only
    assert problems("boards", "from boards.pico import *\n") == []  # its own folder
    assert problems("hal", "import boards\nfrom firmware import engine\n") == []
    assert problems("hal", "from sim import world\n") != []
    assert problems("sim", "from hal import boot\nimport boards\n") == []
    assert problems("sim", "from bench import menu_tasks\n") != []
    assert problems("bench", "from sim import runner\nfrom hall import broker\n") == []


def test_the_core_reads_no_clock_and_touches_no_hardware():
    assert problems("firmware", "import machine\n") != []
    assert problems("firmware", "import time\n") != []
    assert problems("firmware", "def f():\n    import os\n") != []
    assert problems("firmware", "import sys\nfrom micropython import const\n") == []
    assert problems("hal", "import machine\nimport adafruit_ht16k33.ht16k33\n") == []
    assert problems("boards", "import sys\n") != []


def test_relative_imports_are_resolved():
    assert problems("firmware", "from .engine import Clock\n", "firmware.app") == []
    assert problems("firmware", "from ...hal import boot\n", "firmware.menu.screens") != []


def test_the_checker_fails_on_a_bad_tree(tmp_path):
    """The whole walk, on a small tree with one arrow pointing up."""
    for folder in ("firmware", "hal"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "hal" / "io.py").write_text("from firmware import core\n")
    (tmp_path / "firmware" / "core.py").write_text("import sys\n\n\ndef f():\n    import hal.io\n")
    found = layers.violations(str(tmp_path))
    assert found == [
        os.path.join("firmware", "core.py") + ":5: firmware imports hal.io, a layer above it (hal)"
    ]


def test_the_committed_picture_is_the_generated_one():
    with open(os.path.join(ROOT, layers.PICTURE), encoding="utf-8") as handle:
        committed = handle.read()
    assert committed == layers.svg(ROOT), "docs/pictures/layers.svg: run python -m tools.layers"


def test_the_picture_draws_only_downward_arrows():
    folders, _outside = layers.graph(ROOT)
    for folder, imported in folders.items():
        for other in imported:
            assert layers.rank(other) <= layers.rank(folder), (folder, other)
    text = layers.svg(ROOT)
    assert 'id="hal-imports-firmware"' in text and 'id="firmware-imports-' not in text
