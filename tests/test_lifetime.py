"""firmware.lifetime.let_go: a folder or a module used for a while, dropped whole."""

import importlib
import sys

import pytest

import firmware
from firmware import lifetime


@pytest.fixture
def restored():
    """Put sys.modules and the firmware package back as they were after the test."""
    modules = dict(sys.modules)
    attributes = dict(vars(firmware))
    yield
    sys.modules.clear()
    sys.modules.update(modules)
    for name in list(vars(firmware)):
        if name not in attributes:
            delattr(firmware, name)
    for name, value in attributes.items():
        setattr(firmware, name, value)


def test_a_folder_goes_with_every_module_of_it(restored):
    importlib.import_module("firmware.menu.screens")  # loads items, control, presets too
    inside = [name for name in sys.modules if name.startswith("firmware.menu.")]
    assert len(inside) >= 4
    lifetime.let_go(firmware, "menu")
    folder = [n for n in sys.modules if n == "firmware.menu" or n.startswith("firmware.menu.")]
    assert folder == []
    assert not hasattr(firmware, "menu")
    assert "firmware.engine" in sys.modules  # what the folder imported from outside stays
    assert importlib.import_module("firmware.menu.screens").MenuScreens  # loads again


def test_a_single_module_goes_alone(restored):
    importlib.import_module("firmware.control_parser")
    lifetime.let_go(firmware, "control_parser")
    assert "firmware.control_parser" not in sys.modules
    assert not hasattr(firmware, "control_parser")
    assert "firmware.timecontrol" in sys.modules  # it imports timecontrol: not a folder


def test_a_name_not_loaded_is_no_error(restored):
    lifetime.let_go(firmware, "menu")
    modules = set(sys.modules)
    names = set(vars(firmware))
    lifetime.let_go(firmware, "menu")  # gone already
    lifetime.let_go(firmware, "nonesuch")  # never there
    assert set(sys.modules) == modules
    assert set(vars(firmware)) == names
    assert "firmware.engine" in sys.modules
