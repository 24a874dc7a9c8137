"""package.json for mip, generated: the clock's modules and its Adafruit libraries at pinned tags.

``python -m tools.mip_package`` rewrites the repository's package.json from the
sources of firmware/, hal/ and boards/ (walked, so a renamed or moved module
needs only this command again) and from the versions pinned in requirements.txt;
``--check`` only says whether the committed file is the generated one.

mip resolves a relative entry of ``urls`` against the address package.json came
from, at the version being installed (``github:OWNER/REPO@TAG``); a full
``https://`` address it downloads as it is. The Adafruit libraries have no
package.json of their own, and a single file given to mip as a dependency lands
in the target folder by its bare name (``ht16k33.py`` outside its package), so
their files are listed here by full addresses at the release tags of the
versions requirements.txt pins, whatever version of the clock is installed.
Every destination is relative to mip's target folder (``/lib`` on a board).
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE_JSON = os.path.join(ROOT, "package.json")
PACKAGES = ("firmware", "hal", "boards")
RAW = "https://raw.githubusercontent.com/%s/%s/%s"

# (the name pinned in requirements.txt, its GitHub repository, the files the clock
# loads). The same files as manifest.py freezes and `make mpy` compiles.
ADAFRUIT = (
    (
        "adafruit-circuitpython-ht16k33",
        "adafruit/Adafruit_CircuitPython_HT16K33",
        ("adafruit_ht16k33/__init__.py", "adafruit_ht16k33/ht16k33.py"),
    ),
    (
        "adafruit-circuitpython-busdevice",
        "adafruit/Adafruit_CircuitPython_BusDevice",
        ("adafruit_bus_device/__init__.py", "adafruit_bus_device/i2c_device.py"),
    ),
    (
        "adafruit-circuitpython-ticks",
        "adafruit/Adafruit_CircuitPython_Ticks",
        ("adafruit_ticks.py",),
    ),
)
# From micropython-lib's index: none (the hall's MQTT client is the clock's own, hal/mqtt.py).
DEPS = ()


def own_modules(root=ROOT):
    """The .py files of firmware/, hal/ and boards/, as sorted repository paths."""
    found = []
    for package in PACKAGES:
        for folder, folders, files in os.walk(os.path.join(root, package)):
            folders[:] = sorted(name for name in folders if name != "__pycache__")
            for name in files:
                if name.endswith(".py"):
                    path = os.path.relpath(os.path.join(folder, name), root)
                    found.append(path.replace(os.sep, "/"))
    return sorted(found)


def pinned_versions(root=ROOT):
    """``{name: version}`` of every ``name==version`` line of requirements.txt (names lowercase)."""
    pins = {}
    with open(os.path.join(root, "requirements.txt"), encoding="utf-8") as handle:
        for line in handle:
            line = line.split("#", 1)[0].strip()
            if "==" in line:
                name, version = line.split("==", 1)
                pins[name.strip().lower()] = version.strip()
    return pins


def project_version(root=ROOT):
    with open(os.path.join(root, "pyproject.toml"), encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("version"):
                return line.split("=", 1)[1].strip().strip('"')
    raise ValueError("pyproject.toml has no version")


def adafruit_urls(pins):
    """``[destination, full address]`` of every Adafruit file, at its pinned tag."""
    urls = []
    for name, repository, files in ADAFRUIT:
        if name not in pins:
            raise ValueError("requirements.txt pins no version of %s" % name)
        for path in files:
            urls.append([path, RAW % (repository, pins[name], path)])
    return urls


def package(root=ROOT):
    """The package.json mip reads, as a dict."""
    urls = [[path, path] for path in own_modules(root)]
    urls += adafruit_urls(pinned_versions(root))
    return {
        "urls": urls,
        "deps": [list(dep) for dep in DEPS],
        "version": project_version(root),
    }


def text(root=ROOT):
    """package.json's text: one file a line, as mip's own packages are written."""
    data = package(root)
    urls = ",\n".join("    " + json.dumps(entry) for entry in data["urls"])
    return '{\n  "urls": [\n%s\n  ],\n  "deps": %s,\n  "version": %s\n}\n' % (
        urls,
        json.dumps(data["deps"]),
        json.dumps(data["version"]),
    )


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    wanted = text()
    if argv == ["--check"]:
        with open(PACKAGE_JSON, encoding="utf-8") as handle:
            same = handle.read() == wanted
        print("package.json is up to date" if same else "package.json is out of date")
        return 0 if same else 1
    if argv:
        print("usage: python -m tools.mip_package [--check]", file=sys.stderr)
        return 2
    with open(PACKAGE_JSON, "w", encoding="utf-8") as handle:
        handle.write(wanted)
    print("package.json: %d files and %d dependencies" % (len(package()["urls"]), len(DEPS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
