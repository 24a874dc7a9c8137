"""Test drivers that run inside MicroPython as well as on CPython (``node
tools/mpy/run.mjs tests.mpy.NAME``): what the tests compare between the lanes, not
figures of ``make bench``."""
