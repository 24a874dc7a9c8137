# The Pico's image (MicroPython's RPI_PICO board): the rp2 port's own frozen
# modules, which mount the filesystem at boot, and the clock (../manifest.py).
# make firmware BOARD=pico MICROPYTHON=/path/to/micropython builds it.
# ruff: noqa: F821
include("$(PORT_DIR)/boards/manifest.py")
include("../manifest.py")
