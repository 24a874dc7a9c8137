# The Pico W's image (MicroPython's RPI_PICO_W board): the board's own manifest
# (the rp2 port's frozen modules and the network's: mip, ntptime, ...) and the
# clock (../manifest.py).
# ruff: noqa: F821
include("$(BOARD_DIR)/manifest.py")
include("../manifest.py")
