# The big-digit Pico's image (MicroPython's RPI_PICO board): the rp2 port's own
# frozen modules and the clock (../manifest.py).
# ruff: noqa: F821
include("$(PORT_DIR)/boards/manifest.py")
include("../manifest.py")
