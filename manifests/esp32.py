# The ESP32's image (MicroPython's ESP32_GENERIC board, whose manifest is the
# port's): the esp32 port's own frozen modules, which mount the filesystem at
# boot and bring the network's, and the clock (../manifest.py).
# ruff: noqa: F821
include("$(PORT_DIR)/boards/manifest.py")
include("../manifest.py")
