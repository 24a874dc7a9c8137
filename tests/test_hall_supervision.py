"""The view never fails silently, against a real Mosquitto: garbage from a clock's own
account leaves it reading the other boards, a lost broker is logged in one line, shown with
the time it was lost and retried until it is back."""

import json
import time

import paho.mqtt.client as paho
import pytest

from hall.broker import Broker
from hall.view import HallView
from tests.hall_helpers import need_broker, until, worker_port
from tests.mpy import hall_messages


def message(board, seq):
    data = json.loads(hall_messages.lines()[0])
    data.update(board=board, seq=seq)
    return json.dumps(data, separators=(",", ":")).encode()


def publisher(broker, board):
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="test-clock-%d" % board)
    client.username_pw_set("clock-%d" % board, broker.passwords["clock-%d" % board])
    client.on_connect = lambda c, u, f, code, p: setattr(c, "ready", not code.is_failure)
    client.ready = False
    client.connect(broker.host, broker.port, 30)
    client.loop_start()
    assert until(lambda: client.ready)
    return client


def by_number(view):
    return {entry["board"]: entry for entry in view.snapshot()}


@pytest.fixture
def hall():
    need_broker()
    broker = Broker([1, 2], port=worker_port())
    lines = []
    view = HallView(broker.host, broker.port, "view", broker.passwords["view"], log=lines.append)
    assert view.connected.wait(10)
    yield broker, view, lines
    view.close()
    broker.stop()


def test_garbage_from_a_clocks_account_never_stops_the_view(hall):
    broker, view, lines = hall
    one, two = publisher(broker, 1), publisher(broker, 2)
    try:
        for payload in (b"[" * 2000, b"{" * 900, message(1, 5)[:-1] + b',"x":NaN}'):
            one.publish("hall/board/1", payload, retain=True).wait_for_publish(5)
        two.publish("hall/board/2", message(2, 3)).wait_for_publish(5)
        assert until(lambda: (by_number(view).get(2) or {}).get("message"))
        assert until(lambda: by_number(view)[1]["refused"] == 3)
        one.publish("hall/board/1", message(1, 6)).wait_for_publish(5)
        assert until(lambda: (by_number(view)[1]["message"] or {}).get("seq") == 6)
        assert view.thread.is_alive()
        assert not any("Traceback" in line for line in lines)
    finally:
        one.disconnect()
        two.disconnect()


def test_a_lost_broker_is_shown_logged_and_retried(hall):
    broker, view, lines = hall
    assert view.hall_state()["broker"] is True
    before = time.time()
    broker.halt()
    assert until(lambda: view.hall_state()["broker"] is False)
    state = view.hall_state()
    assert before - 1 <= state["lost_at_ms"] / 1000 <= time.time()
    assert any(line.startswith("lost the broker at") for line in lines)
    assert all("\n" not in line for line in lines)
    broker.start()
    assert until(lambda: view.hall_state()["broker"] is True, 40)
    two = publisher(broker, 2)
    try:
        two.publish("hall/board/2", message(2, 9)).wait_for_publish(5)
        assert until(lambda: (by_number(view).get(2) or {}).get("message"))
    finally:
        two.disconnect()
