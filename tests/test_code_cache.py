"""sim.code_cache: a module the firmware imports again is read from its file once, and
still starts afresh at each import; a file changed meanwhile is read again."""

import os
import sys
from importlib import machinery, util

import pytest

from sim.code_cache import CodeCache


@pytest.fixture
def package(tmp_path):
    """A package ``cachedpkg`` on sys.path, served by its own cache, then forgotten."""
    folder = tmp_path / "cachedpkg"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "part.py").write_text("VALUE = 1\nFRESH = []\n")
    cache = CodeCache(machinery, util, packages=("cachedpkg",))
    sys.path.insert(0, str(tmp_path))
    sys.meta_path.insert(0, cache)
    try:
        yield folder, cache
    finally:
        sys.meta_path.remove(cache)
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.split(".")[0] == "cachedpkg"]:
            del sys.modules[name]


def import_again(name):
    sys.modules.pop(name, None)
    return __import__(name, None, None, ["*"])


def test_a_module_imported_again_runs_its_body_afresh_from_the_same_code(package):
    folder, cache = package
    first = import_again("cachedpkg.part")
    first.FRESH.append("changed by the first life")
    code = cache.codes[str(folder / "part.py")][1]
    second = import_again("cachedpkg.part")
    assert second is not first and second.FRESH == []  # its body ran again
    assert cache.codes[str(folder / "part.py")][1] is code  # from the code read once
    assert second.__file__ == str(folder / "part.py")
    assert second.__spec__.loader is cache
    assert sorted(cache.codes) == [str(folder / "__init__.py"), str(folder / "part.py")]


def test_a_file_changed_since_is_read_again(package):
    folder, cache = package
    assert import_again("cachedpkg.part").VALUE == 1
    path = folder / "part.py"
    path.write_text("VALUE = 2\nFRESH = []\n")
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert import_again("cachedpkg.part").VALUE == 2


def test_it_serves_the_firmwares_packages_and_the_adafruit_libraries_only():
    cache = CodeCache(machinery, util)
    for name in ("firmware", "firmware.app", "hal.keys", "boards.pico", "adafruit_ticks"):
        assert cache.serves(name), name
    for name in ("hall", "hall.view", "halt", "sim.world", "tests", "json"):
        assert not cache.serves(name), name
