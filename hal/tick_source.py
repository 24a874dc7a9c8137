"""The board's millisecond tick counter: ``time.ticks_ms`` on MicroPython.

On CPython (the simulator's host lane) the counter comes from
``adafruit_ticks``, which the simulator replaces by virtual time. The
functions look the source up on every call, so a simulator that installs
virtual time after this module was imported is still obeyed.
"""

import time as _time

if hasattr(_time, "ticks_ms"):
    _source = _time
else:
    import adafruit_ticks as _source


def ticks_ms():
    """The current millisecond tick (wraps like MicroPython's)."""
    return _source.ticks_ms()
