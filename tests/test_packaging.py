"""The MicroPython ways of installing: mip's ``package.json`` and the freezing ``manifest.py``.

``package.json`` must be what tools/mip_package.py generates: the modules of
firmware/, hal/ and boards/, and the Adafruit files at the tags requirements.txt
pins, which mpremote's own mip (run here against a stand-in board) installs;
``manifest.py`` is run here with stand-ins for the functions the MicroPython
build predefines, and the calls it makes are checked.
"""

import ast
import builtins
import io
import json
import os
import re
import shutil
import subprocess
import sys
import types

import pytest

from tools import mip_package

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("firmware", "hal", "boards")
MANIFEST = os.path.join(ROOT, "manifest.py")
MANIFEST_FUNCTIONS = ("metadata", "include", "require", "package", "module", "freeze")


def modules_on_disk():
    found = set()
    for package in PACKAGES:
        for folder, folders, files in os.walk(os.path.join(ROOT, package)):
            folders[:] = [name for name in folders if name != "__pycache__"]
            for name in files:
                if name.endswith(".py"):
                    found.add(
                        os.path.relpath(os.path.join(folder, name), ROOT).replace(os.sep, "/")
                    )
    return found


def package_json():
    with open(os.path.join(ROOT, "package.json")) as handle:
        return json.load(handle)


def project_version():
    with open(os.path.join(ROOT, "pyproject.toml")) as handle:
        for line in handle:
            if line.startswith("version"):
                return line.split("=", 1)[1].strip().strip('"')
    raise AssertionError("pyproject.toml has no version")


# --- package.json ----------------------------------------------------------


def own_entries():
    return [entry for entry in package_json()["urls"] if "://" not in entry[1]]


def test_package_json_is_the_generated_one():
    with open(os.path.join(ROOT, "package.json")) as handle:
        committed = handle.read()
    assert committed == mip_package.text(), (
        "package.json is out of date: python -m tools.mip_package"
    )


def test_package_json_lists_every_module():
    listed = {source for _destination, source in own_entries()}
    missing = sorted(modules_on_disk() - listed)
    assert not missing, "package.json does not list %s" % ", ".join(missing)


def test_package_json_lists_nothing_that_does_not_exist():
    for _destination, source in own_entries():
        assert os.path.isfile(os.path.join(ROOT, source)), "%s does not exist" % source


def test_package_json_entries_are_relative_module_paths():
    urls = package_json()["urls"]
    destinations = [destination for destination, _source in urls]
    assert len(destinations) == len(set(destinations)), "a destination is listed twice"
    for entry in own_entries():
        assert isinstance(entry, list) and len(entry) == 2
        destination, source = entry
        # Installed at the same path below the board's lib folder, so that
        # `import hal.boot` finds it; resolved against package.json's URL.
        assert destination == source
        assert source.split("/")[0] in PACKAGES, "%s is not part of the firmware" % source
        assert not source.startswith("/") and ".." not in source.split("/")
        assert ":" not in source, "%s should be relative to the repository" % source


def test_the_adafruit_files_are_at_the_tags_requirements_pins(monkeypatch):
    pins = mip_package.pinned_versions()
    repositories = {repo: name for name, repo, _files in mip_package.ADAFRUIT}
    pattern = re.compile(r"https://raw\.githubusercontent\.com/(adafruit/[\w]+)/([^/]+)/(.+)")
    seen = set()
    for destination, url in package_json()["urls"]:
        if "://" not in url:
            continue
        repository, tag, path = pattern.fullmatch(url).groups()
        assert tag == pins[repositories[repository]], url
        assert destination == path  # below /lib, where `import adafruit_ht16k33` looks
        seen.add(path)
    # The same files the frozen image and `make mpy` take: what the firmware loads.
    frozen = {
        path for _base, path in frozen_adafruit_files(run_manifest(monkeypatch, site_packages()))
    }
    assert seen == frozen


def test_a_version_requirements_does_not_pin_is_refused(tmp_path):
    (tmp_path / "requirements.txt").write_text("adafruit-circuitpython-ht16k33==4.6.17\n")
    with pytest.raises(ValueError, match="busdevice"):
        mip_package.adafruit_urls(mip_package.pinned_versions(str(tmp_path)))


def test_package_json_version_and_deps():
    data = package_json()
    assert data["version"] == project_version()
    assert isinstance(data.get("deps", []), list)
    assert data["deps"] == []  # the hall's MQTT client is the clock's own (hal/mqtt.py)
    for dependency in data.get("deps", []):
        assert isinstance(dependency, list) and len(dependency) == 2


class Board:
    """mpremote's transport, standing in for a board: the files mip writes, by path."""

    def __init__(self):
        self.files = {}

    def fs_exists(self, path):
        return True

    def fs_writefile(self, path, data, progress_callback=None):
        self.files[path] = data

    def exec(self, code):
        pass

    def eval(self, code):
        return 6  # the .mpy format of MicroPython 1.27


def install_with_mpremote(monkeypatch, package, version, served):
    """Run mpremote's mip on ``package``; the network answers from ``served`` (URL: bytes)."""
    from mpremote import mip

    requested = []

    class Answer(io.BytesIO):
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    def urlopen(url):
        requested.append(url)
        if url not in served:
            raise AssertionError("mip asked for %s" % url)
        return Answer(served[url])

    monkeypatch.setattr(mip.urllib.request, "urlopen", urlopen)
    board = Board()
    mip._install_package(board, package, mip._PACKAGE_INDEX, "/lib", version, True)
    return board, requested


def served_dependencies():
    served = {url: b"# " + url.encode() for _d, url in package_json()["urls"] if "://" in url}
    return served


def test_mpremote_mip_installs_a_clone_with_the_pinned_libraries(monkeypatch):
    board, requested = install_with_mpremote(
        monkeypatch, os.path.join(ROOT, "package.json"), None, served_dependencies()
    )
    with open(os.path.join(ROOT, "firmware", "engine.py"), "rb") as handle:
        assert board.files["/lib/firmware/engine.py"] == handle.read()
    assert set(board.files) == {"/lib/" + d for d, _s in package_json()["urls"]}
    assert (
        board.files["/lib/adafruit_ht16k33/ht16k33.py"]
        == b"# https://raw.githubusercontent.com/adafruit/Adafruit_CircuitPython_HT16K33/"
        + mip_package.pinned_versions()["adafruit-circuitpython-ht16k33"].encode()
        + b"/adafruit_ht16k33/ht16k33.py"
    )
    assert not any("micropython.org" in url for url in requested)  # nothing from the index


def test_mpremote_mip_installs_a_tag_of_the_repository_with_the_pinned_libraries(monkeypatch):
    served = served_dependencies()
    raw = "https://raw.githubusercontent.com/OWNER/REPO/v9.9.9/"
    with open(os.path.join(ROOT, "package.json"), "rb") as handle:
        served[raw + "package.json"] = handle.read()
    for _destination, source in own_entries():
        served[raw + source] = source.encode()
    board, requested = install_with_mpremote(monkeypatch, "github:OWNER/REPO", "v9.9.9", served)
    assert board.files["/lib/hal/keys.py"] == b"hal/keys.py"
    # The clock's files at the tag asked for; the Adafruit files at their own pinned tags.
    assert all("/v9.9.9/" in url for url in requested if "/OWNER/REPO/" in url)
    assert not any("/v9.9.9/" in url for url in requested if "/adafruit/" in url)
    assert len(board.files) == len(package_json()["urls"])


# --- manifest.py -----------------------------------------------------------


class ManifestCalls:
    """Stand-ins for the manifest functions; they note every call in order."""

    def __init__(self):
        self.calls = []

    def namespace(self):
        def recorder(function):
            def call(*args, **kwargs):
                self.calls.append((function, args, kwargs))

            return call

        return {name: recorder(name) for name in MANIFEST_FUNCTIONS}

    def of(self, function):
        return [(args, kwargs) for name, args, kwargs in self.calls if name == function]


def run_manifest(monkeypatch, lib_dir=None):
    """Run manifest.py as the build does: its folder as the current directory."""
    if lib_dir is None:
        monkeypatch.delenv("ADAFRUIT_LIB_DIR", raising=False)
    else:
        monkeypatch.setenv("ADAFRUIT_LIB_DIR", lib_dir)
    monkeypatch.chdir(ROOT)
    calls = ManifestCalls()
    with open(MANIFEST) as handle:
        exec(compile(handle.read(), MANIFEST, "exec"), calls.namespace())
    return calls


def site_packages():
    return os.path.dirname(
        os.path.dirname(os.path.abspath(__import__("adafruit_ht16k33").__file__))
    )


def test_manifest_parses_and_names_the_three_packages():
    with open(MANIFEST) as handle:
        tree = ast.parse(handle.read(), MANIFEST)
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "package":
            first = node.args[0]
            if isinstance(first, ast.Constant):
                named.add(first.value)
    assert set(PACKAGES) <= named


def test_manifest_calls(monkeypatch):
    calls = run_manifest(monkeypatch, site_packages())
    assert calls.calls[0][0] == "metadata", "metadata() must come first"
    (args, kwargs) = calls.of("metadata")[0]
    assert kwargs["version"] == project_version() == package_json()["version"]
    assert kwargs.get("description")
    assert len(calls.of("metadata")) == 1
    # The port's or board's own frozen modules come from the board's manifest
    # (manifests/<board>.py, tests/test_frozen_image.py), which includes this one.
    assert calls.of("include") == []
    own = [args[0] for args, kwargs in calls.of("package") if "base_path" not in kwargs]
    assert own == list(PACKAGES)
    assert calls.of("require") == []  # the hall's MQTT client is the clock's own
    assert calls.of("freeze") == []


def frozen_adafruit_files(calls):
    files = []
    for args, kwargs in calls.of("package"):
        if "base_path" in kwargs:
            for name in kwargs["files"]:
                files.append((kwargs["base_path"], args[0] + "/" + name))
    for args, kwargs in calls.of("module"):
        if args[0] == "board_main.py":
            continue  # the clock's own main (tools/board_main.py), not an Adafruit file
        files.append((kwargs.get("base_path", args[1] if len(args) > 1 else "."), args[0]))
    return files


def test_manifest_adafruit_files_exist(monkeypatch):
    calls = run_manifest(monkeypatch, site_packages())
    files = frozen_adafruit_files(calls)
    assert files
    for base, path in files:
        assert base == site_packages()
        assert os.path.isfile(os.path.join(base, path)), path


def test_manifest_finds_the_venv_by_default(monkeypatch):
    venv = os.path.join(ROOT, ".venv")
    if not os.path.isdir(venv) or not site_packages().startswith(venv):
        pytest.skip("the tests do not run from the repository's .venv")
    calls = run_manifest(monkeypatch)
    for base, _path in frozen_adafruit_files(calls):
        assert base == site_packages()


def test_manifest_refuses_a_folder_without_the_libraries(monkeypatch, tmp_path):
    with pytest.raises(Exception, match="ADAFRUIT_LIB_DIR"):
        run_manifest(monkeypatch, str(tmp_path))


PROBE = """
import sys


def main(args):
    from sim import world

    world.SimBoard(world.fresh_flash("300+3")).boot()
    for name in sorted(sys.modules):
        if name.startswith("adafruit"):
            print(name)
    return 0
"""


def test_manifest_freezes_every_adafruit_module_the_firmware_loads(monkeypatch, tmp_path):
    """Boot the simulated clock inside MicroPython and compare the Adafruit modules it loaded."""
    node = shutil.which("node")
    if node is None or not os.path.isdir(os.path.join(ROOT, "tools", "mpy", "node_modules")):
        pytest.skip("the MicroPython lane is not set up (make setup)")
    (tmp_path / "loaded_modules.py").write_text(PROBE)
    result = subprocess.run(
        [
            node,
            os.path.join(ROOT, "tools", "mpy", "run.mjs"),
            "loaded_modules",
            "loaded_modules.py",
        ],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    loaded = set(result.stdout.split())
    # adafruit_ticks is the simulator's clock: on a board, time.ticks_ms is built in.
    loaded.discard("adafruit_ticks")
    frozen = set()
    for _base, path in frozen_adafruit_files(run_manifest(monkeypatch, site_packages())):
        name = path[:-3].replace("/", ".")
        frozen.add(name[: -len(".__init__")] if name.endswith(".__init__") else name)
    assert "adafruit_ht16k33.ht16k33" in loaded
    # The displays use the base class: the character tables of ``segments`` stay unloaded.
    assert "adafruit_ht16k33.segments" not in loaded
    assert loaded <= frozen, "not frozen: %s" % ", ".join(sorted(loaded - frozen))


def run_board_main(monkeypatch, tmp_path, content):
    """Run tools/board_main.py with ``content`` as /board.txt (None: no file); the names run."""
    with open(os.path.join(ROOT, "tools", "board_main.py")) as handle:
        source = handle.read()
    board_txt = tmp_path / "board.txt"
    if content is not None:
        board_txt.write_text(content)
    real_open = builtins.open

    def board_open(path, *args, **kwargs):
        return real_open(str(board_txt) if path == "/board.txt" else path, *args, **kwargs)

    runs = []
    stand_in = types.ModuleType("hal.boot")
    stand_in.DEFAULT_BOARD = "pico"
    stand_in.run = runs.append
    import hal

    monkeypatch.setitem(sys.modules, "hal.boot", stand_in)
    monkeypatch.setattr(hal, "boot", stand_in, raising=False)
    monkeypatch.setattr(builtins, "open", board_open)
    exec(compile(source, "board_main.py", "exec"), {"__name__": "__main__"})
    return runs


@pytest.mark.parametrize(
    "content, expected",
    [("esp32\n", "esp32"), ("pico", "pico"), ("", "pico"), ("  \n", "pico"), (None, "pico")],
)
def test_board_main_runs_the_board_of_board_txt(monkeypatch, tmp_path, content, expected):
    assert run_board_main(monkeypatch, tmp_path, content) == [expected]


def shell_lines(path):
    """The lines of the ``sh`` code blocks of the Markdown file ``path``."""
    with open(os.path.join(ROOT, path)) as handle:
        text = handle.read()
    return [
        line for block in re.findall(r"```sh\n(.*?)```", text, re.S) for line in block.splitlines()
    ], text


@pytest.mark.parametrize("path", ["README.md", "docs/boards.md"])
def test_the_mip_commands_work_as_typed_and_say_what_to_replace(path):
    lines, text = shell_lines(path)
    commands = [line for line in lines if re.match(r"\s*(\S*/)?mpremote\b", line)]
    assert commands
    for line in commands:
        assert line.strip().startswith(".venv/bin/mpremote "), line  # make setup's mpremote
    if "OWNER/REPO" in "\n".join(lines):
        prose = re.sub(r"```.*?```", "", text, flags=re.S)
        assert re.search(r"`OWNER/REPO`[^.]*placeholder", prose), "OWNER/REPO is not explained"
