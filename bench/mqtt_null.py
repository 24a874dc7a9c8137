"""A ``umqtt.simple`` that never reaches a broker, for measuring inside MicroPython.

The MicroPython lane has no network; ``bench/hall_heap.py`` puts this in place
of micropython-lib's client to boot the firmware with a hall file and weigh
what the firmware's own network code takes. ``connect`` fails as a board
without a broker would.
"""


class MQTTClient:
    def __init__(self, client_id, server, port=0, user=None, password=None, keepalive=0):
        self.sock = None

    def set_callback(self, callback):
        pass

    def set_last_will(self, topic, message, retain=False, qos=0):
        pass

    def connect(self, clean_session=True, timeout=None):
        raise OSError(113)  # EHOSTUNREACH
