"""What the hall's tests share: a broker on loopback, a subscriber that records, a proxy.

``worker_port`` gives each test worker (pytest-xdist runs several side by side)
ports from a range of its own, so two workers' brokers never take the same one.

``need_broker`` (and ``running_broker``, a broker on that port) skips a test with
the reason when Debian's mosquitto is missing, ``chromium_browser`` when chromium is
(``make hall-tools`` installs both; CI does). ``Recorder`` subscribes with an
account (by default one of the broker's read-only ``watch-N``: one login holds one
session, so a test observes without taking the view's or the arbiter's) and keeps
every message it receives. ``Client`` is a plain MQTT
client of the tests (paho). ``Proxy`` sits between a clock and the broker
and can pass, refuse, hang, slow, stall in the middle of a packet or trickle
a byte a second, and cut every connection, to break the network at chosen
instants.
"""

import contextlib
import os
import select
import socket
import threading
import time

import paho.mqtt.client as paho
import pytest

from hall import broker as broker_module
from hall import screenshot, tls


def need_broker():
    missing = broker_module.missing_tools()
    if missing:
        pytest.skip(
            "Debian's mosquitto is not installed (missing %s): make hall-tools" % ", ".join(missing)
        )


@contextlib.contextmanager
def running_broker(boards, **options):
    """A broker for ``boards`` on this worker's own port (``options``: ``tls=True``),
    stopped after; the test skips, naming the target, without mosquitto."""
    need_broker()
    running = broker_module.Broker(boards, port=worker_port(), **options)
    try:
        yield running
    finally:
        running.stop()


@contextlib.contextmanager
def chromium_browser():
    """Debian's chromium, headless, closed after; the test skips, naming the target,
    without it."""
    from hall.devtools import Browser

    if screenshot.chromium() is None:
        pytest.skip("Debian's chromium is not installed: make hall-tools")
    with Browser(screenshot.chromium()) as running:
        yield running


def until(predicate, timeout_s=20.0, poll_s=0.01):
    """Whether ``predicate`` comes true within ``timeout_s``: a test waits for the state it
    then asserts, never a fixed time a loaded machine may not keep; the timeout only
    bounds a hang."""
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(poll_s)
    return True


def worker_port():
    """A port on 127.0.0.1 nobody listens on now, from this worker's own range (gw0:
    20000-20999, gw1: 21000-21999, ...), below the kernel's ephemeral ports, so a port
    probed free stays free for this worker's broker."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    base = 20000 + 1000 * int(worker[2:] or 0)
    for port in range(base, base + 1000):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise OSError("no free port in %d-%d" % (base, base + 999))


_watchers_taken = {}


def watcher(broker):
    """A ``watch-N`` account of ``broker`` no other recorder of this test run holds."""
    taken = _watchers_taken.setdefault(id(broker), [])
    for name in broker_module.WATCHERS:
        if name not in taken:
            taken.append(name)
            return name
    raise RuntimeError("every watch-N account of the broker is taken")


def release_watcher(broker, name):
    taken = _watchers_taken.get(id(broker), [])
    if name in taken:
        taken.remove(name)


def secure(client, broker):
    """TLS with the broker's own CA when its listener speaks TLS."""
    if broker.tls:
        client.tls_set_context(tls.client_context(broker.ca))


class Recorder:
    """A subscriber with ``user``'s account (default: a free ``watch-N``) on ``topic``;
    ``messages`` as (topic, payload)."""

    def __init__(self, broker, user=None, topic="hall/#", password=None):
        self.broker = broker
        self.watcher = user is None
        user = watcher(broker) if user is None else user
        self.user = user
        self.messages = []
        self.ready = threading.Event()
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="test-" + user)
        self.client.username_pw_set(user, password or broker.passwords[user])
        secure(self.client, broker)
        self.client.on_connect = lambda c, u, f, code, p: (
            c.subscribe(topic, qos=1) if not code.is_failure else None
        )
        self.client.on_subscribe = lambda *args: self.ready.set()
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, m.payload))
        self.client.connect(broker.host, broker.port, 30)
        self.client.loop_start()
        assert self.ready.wait(5), "the subscriber did not get its subscription"

    def on(self, topic):
        return [payload for name, payload in self.messages if name == topic]

    def wait_for(self, predicate, timeout_s=20.0):
        return until(predicate, timeout_s, poll_s=0.02)

    def close(self):
        self.client.disconnect()  # first: its network loop ends at once, not at its 1 s select
        self.client.loop_stop()
        if self.watcher:
            release_watcher(self.broker, self.user)


class Client:
    """A plain MQTT 3.1.1 client of the tests (paho) logged in as ``account``: an arbiter,
    a forger, a clock's account. ``code`` is the broker's answer to the login."""

    def __init__(self, broker, account, client_id=None, password=None):
        self.client = paho.Client(
            paho.CallbackAPIVersion.VERSION2,
            client_id=client_id or account,
            protocol=paho.MQTTv311,
        )
        self.client.username_pw_set(account, password or broker.passwords[account])
        secure(self.client, broker)
        self.code = None
        self.client.on_connect = self._connected
        self.client.connect(broker.host, broker.port, 30)
        self.client.loop_start()
        deadline = time.monotonic() + 5
        while self.code is None and time.monotonic() < deadline:
            time.sleep(0.01)

    def _connected(self, client, userdata, flags, code, properties):
        self.code = code

    def publish(self, topic, payload, retain=False):
        self.client.publish(topic, payload, qos=0, retain=retain).wait_for_publish(5)

    def disconnect(self):
        self.client.disconnect()
        self.client.loop_stop()


class Proxy:
    """A TCP proxy on 127.0.0.1 to ``port``; ``mode``: pass, refuse, hang (nothing
    passes), slow (0.3 s before each chunk), stall (the first byte of what the broker
    sends next, then nothing more: a packet cut after its first byte) or trickle
    (one byte a second, both ways)."""

    def __init__(self, port):
        self.target = port
        self.mode = "pass"
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.open = []
        self.running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while self.running:
            readable, _, _ = select.select([self.listener], [], [], 0.1)
            if not readable:
                continue
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.mode == "refuse":
                client.close()
                continue
            threading.Thread(target=self._carry, args=(client,), daemon=True).start()

    def cut(self):
        """Close every connection now (a broker or an access point that vanished)."""
        for sock in list(self.open):
            try:
                sock.close()
            except OSError:
                pass
        self.open = []

    def _carry(self, client):
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target), timeout=2)
        except OSError:
            client.close()
            return
        self.open += [client, upstream]
        peers = {client: upstream, upstream: client}
        stalled = False
        try:
            while self.running and client in self.open:
                readable, _, _ = select.select(list(peers), [], [], 0.1)
                for sock in readable:
                    data = sock.recv(4096)
                    if not data:
                        return
                    mode = self.mode
                    if mode == "hang" or stalled:
                        continue  # swallowed: the other side waits for nothing
                    if mode == "stall" and sock is upstream:
                        peers[sock].sendall(data[:1])  # a packet's first byte, then silence
                        stalled = True
                        continue
                    if mode == "slow":
                        time.sleep(0.3)
                    if mode == "trickle":
                        for index in range(len(data)):
                            if not self.running or client not in self.open:
                                return
                            time.sleep(1.0)
                            peers[sock].sendall(data[index : index + 1])
                        continue
                    peers[sock].sendall(data)
        except OSError:
            pass
        finally:
            for sock in (client, upstream):
                try:
                    sock.close()
                except OSError:
                    pass

    def close(self):
        self.running = False
        self.cut()
        self.listener.close()
