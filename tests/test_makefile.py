"""The Makefile's promises: `make mpy` compiles only what changed and drops the .mpy of a
source that is gone; `make setup` never runs sudo or apt-get; CI installs the desktop
packages through their explicit target."""

import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv")
SOURCES = ("firmware/__init__.py", "firmware/tickmath.py", "hal/__init__.py", "boards/pico.py")

needs_setup = pytest.mark.skipif(
    shutil.which("make") is None or not os.path.isfile(os.path.join(VENV, ".installed")),
    reason="make, or the repository's .venv (make setup), is missing",
)


def make(folder, *goals):
    done = subprocess.run(
        ["make", "--no-print-directory", "-C", str(folder), "VENV=" + VENV, *goals],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def compiled(output):
    return sorted(re.findall(r"^mpy-cross (\S+)$", output, re.M))


@pytest.fixture
def project(tmp_path):
    """A few sources, the Makefile and requirements.txt older than the .venv."""
    for name in ("Makefile", "requirements.txt", *SOURCES):
        os.makedirs(os.path.dirname(str(tmp_path / name)), exist_ok=True)
        shutil.copy(os.path.join(ROOT, name), str(tmp_path / name))
    os.utime(str(tmp_path / "requirements.txt"), (0, 0))  # the .venv stays as it is
    return tmp_path


@needs_setup
def test_make_mpy_compiles_only_what_changed(project):
    first = compiled(make(project, "mpy-files"))
    assert set(SOURCES) <= set(first)
    assert len([name for name in first if "site-packages" in name]) == 5  # the Adafruit files
    for source in SOURCES:
        assert (project / "build" / "mpy" / source.replace(".py", ".mpy")).is_file()
    assert compiled(make(project, "mpy-files")) == []
    changed = project / "firmware" / "tickmath.py"
    later = os.stat(str(changed)).st_mtime + 10
    os.utime(str(changed), (later, later))
    assert compiled(make(project, "mpy-files")) == ["firmware/tickmath.py"]


@needs_setup
def test_make_mpy_removes_the_mpy_of_a_source_that_is_gone(project):
    make(project, "mpy-files")
    os.makedirs(str(project / "firmware" / "boot"))
    os.rename(
        str(project / "firmware" / "tickmath.py"), str(project / "firmware" / "boot" / "t.py")
    )
    output = make(project, "mpy-files")
    assert compiled(output) == ["firmware/boot/t.py"]
    assert "removed build/mpy/firmware/tickmath.mpy" in output
    assert not (project / "build" / "mpy" / "firmware" / "tickmath.mpy").exists()
    assert (project / "build" / "mpy" / "firmware" / "boot" / "t.mpy").is_file()
    assert (project / "build" / "mpy" / "lib" / "adafruit_ticks.mpy").is_file()


def test_make_setup_runs_no_sudo_and_no_apt_get():
    if shutil.which("make") is None:
        pytest.skip("make is missing")
    done = subprocess.run(
        ["make", "-C", ROOT, "--dry-run", "--always-make", "setup"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "pip install" in done.stdout  # the dry run does show setup's commands
    assert "sudo" not in done.stdout and "apt-get" not in done.stdout


def test_ci_installs_the_desktop_and_hall_packages_explicitly():
    with open(os.path.join(ROOT, ".ci", "run")) as handle:
        steps = handle.read().splitlines()
    assert steps.index("make desktop-tools") > steps.index("make setup")
    assert steps.index("make desktop-tools") < steps.index("make test")
    assert "make hall-tools" in steps


def test_make_mpy_compiles_the_adafruit_files_package_json_installs():
    from tools import mip_package

    with open(os.path.join(ROOT, "Makefile")) as handle:
        text = handle.read()
    listed = re.search(r"^ADAFRUIT_LIB\s*:=((?:.*\\\n)*.*)$", text, re.M).group(1)
    in_makefile = sorted(listed.replace("\\\n", " ").split())
    in_package = sorted(path for _name, _repo, files in mip_package.ADAFRUIT for path in files)
    assert in_makefile == in_package


def _stand_in_micropython(folder):
    """A MicroPython checkout whose Makefiles say which folder they were asked to build in."""
    (folder / "py").mkdir()
    (folder / "py" / "mpconfig.h").write_text("")
    for name in ("mpy-cross", "ports/rp2"):
        (folder / name).mkdir(parents=True)
        (folder / name / "Makefile").write_text(
            "all submodules:\n\t@echo '%s' $@ BOARD=$(BOARD) BUILD=$(BUILD)\n" % name
        )
    return folder


def _firmware(micropython, *arguments):
    done = subprocess.run(
        ["make", "--no-print-directory", "-C", ROOT, "firmware"]
        + ["MICROPYTHON=" + str(micropython), *arguments],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return [line for line in done.stdout.splitlines() if line.startswith("ports/rp2 ")]


@needs_setup
def test_make_firmware_builds_each_board_in_its_own_folder(tmp_path):
    """pico and pico_big are both MicroPython's RPI_PICO: in one build folder the second board
    would reuse the first one's CMake cache, and with it the first one's manifest."""
    micropython = _stand_in_micropython(tmp_path)
    pico = _firmware(micropython, "BOARD=pico")
    pico_big = _firmware(micropython, "BOARD=pico_big")
    assert pico == [
        "ports/rp2 submodules BOARD=RPI_PICO BUILD=build-pico",
        "ports/rp2 all BOARD=RPI_PICO BUILD=build-pico",
    ]
    assert pico_big == [
        "ports/rp2 submodules BOARD=RPI_PICO BUILD=build-pico_big",
        "ports/rp2 all BOARD=RPI_PICO BUILD=build-pico_big",
    ]


@needs_setup
def test_make_firmware_skips_the_submodules_only_when_told(tmp_path):
    micropython = _stand_in_micropython(tmp_path)
    assert _firmware(micropython, "BOARD=pico", "SUBMODULES=0") == [
        "ports/rp2 all BOARD=RPI_PICO BUILD=build-pico"
    ]
    assert _firmware(micropython, "BOARD=pico", "SUBMODULES=1")[0].startswith(
        "ports/rp2 submodules"
    )


@needs_setup
def test_make_firmware_compiles_every_module_again(tmp_path):
    """MicroPython's freeze keeps a compiled module unless its source is newer by mtime:
    a module compiled from another checkout's newer file would stay in the image. The
    build's compiled modules are removed before each build, the folder's cache is not."""
    micropython = _stand_in_micropython(tmp_path)
    folder = micropython / "ports" / "rp2" / "build-pico"
    compiled = folder / "frozen_mpy" / "hal" / "hardware.mpy"
    compiled.parent.mkdir(parents=True)
    compiled.write_bytes(b"M\x06")
    (folder / "Makefile").write_text("")
    (folder / "clock-manifest.txt").write_text("%s/manifests/pico.py\n" % ROOT)
    _firmware(micropython, "BOARD=pico", "SUBMODULES=0")
    assert not (folder / "frozen_mpy").exists()
    assert (folder / "Makefile").exists()


@needs_setup
def test_make_firmware_configures_again_a_folder_made_for_another_manifest(tmp_path):
    """The port's build configures CMake only in a folder without its Makefile, and the
    cache keeps the manifest's path: a folder configured from another checkout would
    freeze that checkout's modules. Its stamp names the manifest; another one is
    configured again (its Makefile and cache removed), the same one is left as it is."""
    micropython = _stand_in_micropython(tmp_path)
    folder = micropython / "ports" / "rp2" / "build-pico"
    folder.mkdir()
    (folder / "Makefile").write_text("")
    (folder / "clock-manifest.txt").write_text("/elsewhere/manifests/pico.py\n")
    _firmware(micropython, "BOARD=pico", "SUBMODULES=0")
    assert not (folder / "Makefile").exists()
    assert (folder / "clock-manifest.txt").read_text() == "%s/manifests/pico.py\n" % ROOT
    (folder / "Makefile").write_text("")
    _firmware(micropython, "BOARD=pico", "SUBMODULES=0")
    assert (folder / "Makefile").exists()
