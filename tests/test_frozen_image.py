"""A frozen image holds everything the board's boot and play import: nothing is left to
load from the filesystem.

The boot's import graph is walked from the board's main (``tools/board_main.py``,
frozen as ``board_main``) through every ``import`` of every module it reaches,
those inside functions too (the modules loaded on demand), and compared with
the modules manifest.py freezes, read by running it with the manifest
functions as the MicroPython build defines them. An import that neither the
manifest freezes nor MicroPython builds in would be looked for on the
filesystem, where a board with a frozen image has none of the clock. Imports
under ``try: ... except ImportError`` (typing, CircuitPython's modules) are
optional and not followed. ``boards.load`` imports a board's definition by
name: every module of ``boards/`` is reached.

Each board's manifest (manifests/<board>.py) includes its port's or board's own
manifest and this one, and the installer (tools/stale_firmware.py) removes from
a board's filesystem every top-level name the manifest freezes.
"""

import ast
import functools
import os
import shutil
import subprocess

import pytest

from hal import board_check
from tools import stale_firmware

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "manifest.py")
ENTRY = ("board_main", os.path.join(ROOT, "tools", "board_main.py"))
# What MicroPython's rp2 and esp32 ports build in that the clock imports.
BUILT_IN = {
    "array",
    "binascii",  # the hall's CA to DER for mbedTLS (hal/tls_stream.py)
    "errno",
    "esp32",
    "gc",
    "io",  # io.IOBase, the main loop's sleep stream (hal/sleep.py): MICROPY_PY_IO_IOBASE
    "json",
    "machine",
    "micropython",
    "network",
    "os",
    "random",
    "rp2",
    "select",
    "socket",
    "ssl",  # the hall link's TLS (hal/tls_stream.py): mbedTLS, on the boards with a network
    "struct",
    "sys",
    "time",
}
BOARD_MANIFESTS = {
    "pico": "$(PORT_DIR)/boards/manifest.py",
    "pico_big": "$(PORT_DIR)/boards/manifest.py",
    "pico_w": "$(BOARD_DIR)/manifest.py",
    "esp32": "$(PORT_DIR)/boards/manifest.py",
}


def frozen_modules(monkeypatch, manifest=MANIFEST):
    """{module name: source path} of what ``manifest`` freezes: ``package`` takes every
    .py file under the folder (or ``files``), ``module`` one file, as
    MicroPython's manifest reader does; ``include`` is followed for files
    of this repository."""
    frozen = {}

    def add(name, path):
        if name.endswith(".__init__"):
            name = name[: -len(".__init__")]
        frozen[name] = path

    def package(name, files=None, base_path=".", opt=None):
        folder = os.path.join(base_path, name)
        if files is None:
            files = []
            for base, _dirs, names in os.walk(folder):
                files += [
                    os.path.relpath(os.path.join(base, n), folder)
                    for n in names
                    if n.endswith(".py")
                ]
        for file in files:
            add(name + "." + file[:-3].replace(os.sep, "."), os.path.join(folder, file))

    def module(path, base_path=".", opt=None):
        add(os.path.basename(path)[:-3], os.path.join(base_path, path))

    def include(path, **options):
        if "$(" not in path:
            run(os.path.normpath(os.path.join(os.getcwd(), path)))

    def run(path):
        monkeypatch.chdir(os.path.dirname(path))
        with open(path) as handle:
            code = compile(handle.read(), path, "exec")
        names = {"package": package, "module": module, "include": include}
        names.update({n: lambda *a, **k: None for n in ("metadata", "require", "freeze")})
        exec(code, names)

    monkeypatch.delenv("CLOCK_SELFTEST", raising=False)
    run(manifest)
    return frozen


def _optional(node, parents):
    """True if ``node`` sits in a ``try`` whose handlers catch ImportError."""
    child = node
    for parent in parents:
        if isinstance(parent, ast.Try) and child in parent.body:
            for handler in parent.handlers:
                names = ast.unparse(handler.type) if handler.type is not None else ""
                if "ImportError" in names or not names:
                    return True
        child = parent
    return False


@functools.cache
def imports_of(path):
    """The modules the file at ``path`` imports, as dotted names with the names imported
    from them (``from a import b`` gives ``a`` and ``a.b``), optional ones left out."""
    with open(path) as handle:
        tree = ast.parse(handle.read(), path)
    parents = {}
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            parents[child] = parent
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        chain = []
        up = parents.get(node)
        while up is not None:
            chain.append(up)
            up = parents.get(up)
        if _optional(node, chain):
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        else:
            assert node.level == 0, "%s: a relative import" % path
            found.add(node.module)
            found.update(node.module + "." + alias.name for alias in node.names)
    return frozenset(found)


def _module_file(frozen, name):
    """True if ``name`` (a.b) is a module file beside its frozen package's own files."""
    parent, _, last = name.rpartition(".")
    source = frozen.get(parent)
    if source is None or not source.endswith("__init__.py"):
        return False
    folder = os.path.dirname(source)
    return os.path.exists(os.path.join(folder, last + ".py")) or os.path.isdir(
        os.path.join(folder, last)
    )


def reached(frozen):
    """Every module the boot's import graph reaches, and the imports that are neither
    frozen (by ``frozen``) nor built in."""
    seen = {ENTRY[0]}
    todo = [ENTRY[1]]
    missing = set()
    while todo:
        for name in sorted(imports_of(todo.pop())):
            parts = name.split(".")
            for end in range(1, len(parts) + 1):
                prefix = ".".join(parts[:end])
                if prefix in seen:
                    continue
                if prefix in frozen:
                    seen.add(prefix)
                    todo.append(frozen[prefix])
                    if prefix == "boards":  # boards.load(name): every board definition
                        for other in frozen:
                            if other.startswith("boards.") and other not in seen:
                                seen.add(other)
                                todo.append(frozen[other])
                elif end == 1 and prefix not in BUILT_IN:
                    missing.add(prefix)
                elif end > 1 and _module_file(frozen, prefix):
                    missing.add(prefix)  # a module of a frozen package left out
                # else ``from a import b``, b a name of a: nothing to load
    return seen, missing


def test_the_manifest_freezes_everything_the_boot_imports(monkeypatch):
    frozen = frozen_modules(monkeypatch)
    seen, missing = reached(frozen)
    assert not missing, "imported, neither frozen nor built in: %s" % ", ".join(sorted(missing))
    # The walk reaches what a board loads: the core, the hardware layer, the hall's
    # link, the menus and the arbiter loaded on demand, the display driver.
    for name in (
        "hal.boot",
        "firmware.app",
        "firmware.menu.screens",
        "firmware.arbiter",
        "hal.hall_link",
        "hal.mqtt",
        "boards.esp32",
        "adafruit_ht16k33.ht16k33",
        "adafruit_bus_device.i2c_device",
        "adafruit_ticks",
    ):
        assert name in seen, name


def test_a_module_left_out_of_the_manifest_is_found_missing(monkeypatch):
    """The check fails the way it claims: the manifest without the tick helpers."""
    frozen = frozen_modules(monkeypatch)
    del frozen["adafruit_ticks"]
    _seen, missing = reached(frozen)
    assert missing == {"adafruit_ticks"}


def test_a_module_of_a_package_left_out_is_found_missing(monkeypatch):
    """The Adafruit packages are frozen file by file: one left out is found."""
    frozen = frozen_modules(monkeypatch)
    del frozen["adafruit_bus_device.i2c_device"]
    _seen, missing = reached(frozen)
    assert missing == {"adafruit_bus_device.i2c_device"}


def test_the_manifest_freezes_no_simulator_and_no_tool_but_the_main(monkeypatch):
    frozen = frozen_modules(monkeypatch)
    tops = {name.split(".")[0] for name in frozen}
    assert tops == set(stale_firmware.FROZEN_NAMES)


@pytest.mark.parametrize("board", sorted(BOARD_MANIFESTS))
def test_each_board_manifest_includes_its_own_and_the_clock(board, monkeypatch):
    path = os.path.join(ROOT, "manifests", board + ".py")
    included = []

    def include(name, **options):
        included.append(name)

    monkeypatch.chdir(os.path.dirname(path))
    with open(path) as handle:
        exec(compile(handle.read(), path, "exec"), {"include": include})
    assert included == [BOARD_MANIFESTS[board], "../manifest.py"]
    assert os.path.normpath(os.path.join(os.path.dirname(path), included[1])) == MANIFEST


def test_every_board_has_a_manifest():
    names = {
        name[:-3]
        for name in os.listdir(os.path.join(ROOT, "boards"))
        # the simulator's board and the web page's (make web) take no frozen image
        if name.endswith(".py") and name not in ("__init__.py", "sim.py", "browser.py")
    }
    assert names == set(BOARD_MANIFESTS)


def test_the_installer_removes_every_stale_copy_and_nothing_else(tmp_path):
    """A board's filesystem after make deploy (.mpy files in the root) and mip (.py
    files under /lib), with the clock's data files: only the clock's modules go, and
    the debouncer an earlier install left (RETIRED_NAMES)."""
    kept = ["settings.json", "hall.json", "board.txt", "main.py", "lib/other.py", "journal/0"]
    stale = [
        "firmware/engine.mpy",
        "firmware/menu/screens.mpy",
        "hal/boot.mpy",
        "boards/pico.mpy",
        "lib/adafruit_ht16k33/ht16k33.mpy",
        "lib/adafruit_debouncer.mpy",
        "lib/adafruit_ticks.py",
        "lib/firmware/app.py",
        "lib/hal/keys.py",
        "lib/boards/esp32.py",
        "lib/adafruit_bus_device/i2c_device.py",
        "board_main.py",
    ]
    for path in kept + stale:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(path)
    removed = stale_firmware.remove_stale(str(tmp_path))
    left = sorted(
        os.path.relpath(os.path.join(base, name), tmp_path)
        for base, _dirs, names in os.walk(tmp_path)
        for name in names
    )
    assert left == sorted(kept)
    assert {os.path.relpath(p, tmp_path) for p in removed if not p.endswith("/")} == set(stale)
    # The empty folders went too; a second run finds nothing.
    assert not (tmp_path / "firmware").exists() and (tmp_path / "lib").is_dir()
    assert stale_firmware.remove_stale(str(tmp_path)) == []


def _make(*arguments):
    return subprocess.run(
        ["make", "--no-print-directory", "-C", ROOT, *arguments],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
@pytest.mark.parametrize(
    "board, port, micropython_board",
    [
        ("pico_w", "rp2", "RPI_PICO_W"),
        ("esp32", "esp32", "ESP32_GENERIC"),
        ("pico", "rp2", "RPI_PICO"),
    ],
)
def test_make_firmware_builds_the_board_manifest_in_the_given_checkout(
    tmp_path, board, port, micropython_board
):
    """A stand-in MicroPython checkout whose Makefiles say what they were asked."""
    (tmp_path / "py").mkdir()
    (tmp_path / "py" / "mpconfig.h").write_text("")
    for folder in ("mpy-cross", "ports/" + port):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "Makefile").write_text(
            "all submodules:\n\t@echo '%s' $@ BOARD=$(BOARD) FROZEN_MANIFEST=$(FROZEN_MANIFEST)\n"
            % folder
        )
    done = _make("firmware", "BOARD=" + board, "MICROPYTHON=" + str(tmp_path))
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stdout.splitlines() if line.startswith(("mpy-cross", "ports/"))]
    manifest = os.path.join(ROOT, "manifests", board + ".py")
    assert said == [
        "mpy-cross all BOARD= FROZEN_MANIFEST=",
        "ports/%s submodules BOARD=%s FROZEN_MANIFEST=" % (port, micropython_board),
        "ports/%s all BOARD=%s FROZEN_MANIFEST=%s" % (port, micropython_board, manifest),
    ]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_firmware_refuses_a_missing_board_or_checkout(tmp_path):
    done = _make("firmware", "BOARD=sim", "MICROPYTHON=" + str(tmp_path))
    assert done.returncode == 2
    assert "BOARD must be one of: %s" % " ".join(board_check.board_names()) in done.stderr
    assert "is not a MicroPython checkout" in done.stderr
    assert "usage: make firmware" in done.stderr
