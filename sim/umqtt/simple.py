"""``umqtt.simple.MQTTClient`` for the simulator, over the host's MQTT library (paho-mqtt).

micropython-lib's ``umqtt.simple`` is MicroPython-only, so the simulator
supplies its interface, as ``sim/machine.py`` supplies ``machine``: the
clock's own network code (``hal/hall_link.py``) runs unchanged against a
real broker. Only what the clock uses is here, with umqtt's behaviour:

- ``connect(timeout=...)`` returns once the broker accepted the connection
  and raises ``MQTTException`` with the broker's return code if it refused
  it (a wrong password: 5), or ``OSError`` if nothing answered in ``timeout``;
- ``publish`` and ``check_msg`` raise ``OSError`` once the connection is
  lost; ``check_msg`` calls the callback with ``(topic, message)`` as bytes;
- ``sock`` has ``settimeout`` and ``close``.

paho keeps its socket non-blocking after the connect: a publish queues its
bytes and writes what the socket takes at once, so no call here waits on the
network except ``connect``, which ``timeout`` bounds.
"""

import time

import paho.mqtt.client as paho


class MQTTException(Exception):
    """The broker refused the connection (the code of its CONNACK)."""


class _Socket:
    """umqtt's ``sock``: the timeout the firmware sets, and close."""

    def __init__(self, client):
        self.client = client
        self.timeout = None

    def settimeout(self, seconds):
        self.timeout = seconds  # paho's socket is non-blocking: every call returns at once

    def setblocking(self, flag):
        pass

    def close(self):
        raw = self.client.socket()
        if raw is not None:
            raw.close()


class MQTTClient:
    """The ``umqtt.simple`` client, on paho."""

    def __init__(
        self,
        client_id,
        server,
        port=0,
        user=None,
        password=None,
        keepalive=0,
        ssl=None,
        ssl_params=None,
    ):
        if isinstance(client_id, bytes):
            client_id = client_id.decode()
        self.server = server
        self.port = port or 1883
        self.keepalive = keepalive
        self.callback = None
        self.paho = paho.Client(
            paho.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=paho.MQTTv311
        )
        if user is not None:
            self.paho.username_pw_set(user, password)
        self.paho.on_connect = self._on_connect
        self.paho.on_message = self._on_message
        self.accepted = None  # the CONNACK's code once it came
        self.sock = _Socket(self.paho)

    def set_callback(self, callback):
        self.callback = callback

    def set_last_will(self, topic, message, retain=False, qos=0):
        self.paho.will_set(_text(topic), message, qos=qos, retain=retain)

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        self.accepted = reason_code.value

    def _on_message(self, client, userdata, message):
        if self.callback is not None:
            self.callback(message.topic.encode(), message.payload)

    def connect(self, clean_session=True, timeout=None):
        limit = 5.0 if timeout is None else float(timeout)
        self.paho.connect_timeout = limit
        try:
            self.paho.connect(self.server, self.port, self.keepalive or 60)
        except OSError:
            raise
        except Exception as error:  # paho's own errors for a socket that failed
            raise OSError(str(error))
        deadline = time.monotonic() + limit
        while self.accepted is None:
            left = deadline - time.monotonic()
            if left <= 0:
                self.sock.close()
                raise OSError("no CONNACK within %.2f s" % limit)
            if self.paho.loop(timeout=min(left, 0.05)) != paho.MQTT_ERR_SUCCESS:
                if self.accepted is None:
                    raise OSError("the broker closed the connection")
        if self.accepted != 0:
            self.sock.close()
            raise MQTTException(_connack_code(self.accepted))
        return False

    def disconnect(self):
        self.paho.disconnect()

    def ping(self):
        self._check(self.paho.loop(timeout=0))

    def publish(self, topic, message, retain=False, qos=0):
        info = self.paho.publish(_text(topic), message, qos=qos, retain=retain)
        self._check(info.rc)
        self._check(self.paho.loop_write())

    def subscribe(self, topic, qos=0):
        result, _mid = self.paho.subscribe(_text(topic), qos)
        self._check(result)

    def check_msg(self):
        self._check(self.paho.loop(timeout=0))

    def wait_msg(self):
        self._check(self.paho.loop(timeout=1.0))

    def _check(self, code):
        if code != paho.MQTT_ERR_SUCCESS:
            raise OSError("MQTT: %s" % paho.error_string(code))


def _text(topic):
    return topic.decode() if isinstance(topic, bytes) else topic


def _connack_code(value):
    """MQTT 3.1.1's CONNACK return codes (umqtt raises them as they come)."""
    return {0x84: 4, 0x86: 4, 0x87: 5, 0x85: 2, 0x88: 3}.get(value, value)
