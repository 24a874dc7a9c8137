# The clock's modules, to freeze into a MicroPython firmware image. A board's image
# is built from its own manifest, manifests/<board>.py, which includes the port's
# or the MicroPython board's own manifest and this one; from a MicroPython checkout:
#
#   make firmware BOARD=pico MICROPYTHON=/path/to/micropython    (docs/boards.md)
#
# which runs, for the Pico,
#
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/clock/manifests/pico.py
#
# ADAFRUIT_LIB_DIR, an environment variable the builder sets, is the folder
# that holds the Adafruit packages adafruit_ht16k33/ and adafruit_bus_device/
# as .py sources, for example after
#
#   pip install --no-deps --target /tmp/clock-lib \
#       adafruit-circuitpython-ht16k33==4.6.17 adafruit-circuitpython-busdevice==5.2.17
#   export ADAFRUIT_LIB_DIR=/tmp/clock-lib
#
# Left unset, it is the site-packages folder of this repository's .venv
# (made by `make setup`, with the versions pinned in requirements.txt).
#
# Nothing from micropython-lib: the tournament hall's MQTT client is the
# clock's own (hal/mqtt.py, docs/hall.md). Everything else is built into
# MicroPython (machine, micropython, time, os, io, json, array, select, socket,
# network, and ssl for the hall link's TLS).
#
# The build runs this file with the manifest functions (metadata, include,
# require, package, module, freeze) predefined and with this folder as the
# current directory.
# ruff: noqa: F821

import glob
import os

metadata(
    version="0.1.0",
    description="Chess clock firmware: timing engine, hardware layer and board pin maps",
)

package("firmware")
package("hal")
package("boards")

adafruit_lib = os.environ.get("ADAFRUIT_LIB_DIR")
if not adafruit_lib:
    found = sorted(glob.glob(".venv/lib/python3*/site-packages"))
    adafruit_lib = os.path.abspath(found[-1]) if found else ""
if not os.path.isdir(os.path.join(adafruit_lib, "adafruit_ht16k33")):
    raise Exception(
        "set ADAFRUIT_LIB_DIR to the folder holding adafruit_ht16k33/ and adafruit_bus_device/"
        " (now %r)" % adafruit_lib
    )
# Only the modules the firmware uses: the HT16K33 driver's base class and its I2C device.
package("adafruit_ht16k33", files=["__init__.py", "ht16k33.py"], base_path=adafruit_lib)
package("adafruit_bus_device", files=["__init__.py", "i2c_device.py"], base_path=adafruit_lib)
# The tick helpers (hal.tick_source reads them where time.ticks_ms is not built in).
module("adafruit_ticks.py", base_path=adafruit_lib)
# The board's main: /main.py holds only "import board_main" (make install-frozen).
module("board_main.py", base_path="tools")

# CLOCK_SELFTEST=1 also freezes the runner that `make selftest FROZEN=1` plays the
# clock scripts with (sim/runner.py and the sim/ modules it imports): run from
# flash, it fits the heap of a board that cannot hold it as .mpy files in RAM
# (docs/boards.md, "make selftest").
SELFTEST_RUNNER = [
    "__init__.py",
    "flash.py",
    "ht16k33.py",
    "latency.py",
    "machine.py",
    "ready.py",
    "rp2.py",
    "rp2_dma.py",
    "runner.py",
    "script.py",
    "vclock.py",
    "wakes.py",
    "world.py",
]
if os.environ.get("CLOCK_SELFTEST"):
    package("sim", files=SELFTEST_RUNNER)
