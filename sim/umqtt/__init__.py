"""The simulator's network for a board with a hall file: ``install()``.

It puts the simulator's ``network`` (``sim/network.py``) in place of
MicroPython's, so a board definition with ``NETWORK`` boots its hall link on
the host. The link's MQTT client is the clock's own (``hal/mqtt.py``) over the
host's sockets: it needs no stand-in. (The name stays for the callers that
install the network through it: ``hall.clock``, ``live.session``.)
"""


def install():
    from sim import network

    network.install()
