"""The board's millisecond tick counter: ``time.ticks_ms`` on MicroPython.

On CPython (the simulator's host lane) the counter comes from
``adafruit_ticks``. ``source`` is whatever gives the ticks; the simulated
board puts its virtual time there (``sim.vclock.install``), as a chip's own
counter stands behind it on a board, so no module of another project is
changed for it. ``ticks_ms`` looks the source up on every call, so a source
put in after this module was imported is obeyed; the main loop's pass
(``hal.runtime.service``) reads ``source.ticks_ms()`` itself, the same way.
"""

import time as _time

if hasattr(_time, "ticks_ms"):
    source = _time
else:
    import adafruit_ticks as source


def ticks_ms():
    """The current millisecond tick (wraps like MicroPython's)."""
    return source.ticks_ms()
