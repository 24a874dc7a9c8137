"""The simulator's stand-in for micropython-lib's ``umqtt`` package (``simple.py``).

``install()`` puts it and the simulator's ``network`` in place of MicroPython's,
so a board definition with ``NETWORK`` boots its hall link on the host.
"""

import sys


def install():
    import sim.umqtt.simple
    from sim import network

    sys.modules["network"] = network
    sys.modules["umqtt"] = sys.modules["sim.umqtt"]
    sys.modules["umqtt.simple"] = sim.umqtt.simple
