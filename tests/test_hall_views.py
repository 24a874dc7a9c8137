"""Views and tools that coexist, against Mosquitto with the hall's configuration: two
views with their own accounts (a wall PC beside the arbiter's computer) read side by
side without a loss; a second view on the same account puts the first off once, and
the first steps back, says so in its log and on its page (not a lost broker), and
never takes the session back; the arbiter's push says the same."""

import json
import time

import pytest

from hall import push
from hall import screenshot as shots
from hall.devtools import Browser
from hall.view import HallView
from tests.hall_helpers import Client, running_broker
from tests.mpy import hall_messages

pytestmark = pytest.mark.xdist_group("hall-views")
WATCH_S = 6  # six of the old loop's losses would have come in this time (8 in 15 s)
TAKEOVER_LIMIT_S = 30


@pytest.fixture(scope="module")
def broker():
    with running_broker([1]) as running:
        yield running


def start_view(broker, user, lines):
    """A view connected, its claim on its account taken by the broker (sent back to it):
    a view started after it is the later one."""
    view = HallView(broker.host, broker.port, user, broker.passwords[user], log=lines.append)
    assert view.connected.wait(10)
    deadline = time.monotonic() + TAKEOVER_LIMIT_S
    while time.monotonic() < deadline and not (view.claimed or view.taken_over):
        time.sleep(0.05)
    return view


def wait_taken_over(view):
    """Until ``view`` stepped back: it is put off, waits its reconnection delay (1 s),
    comes back through the gate and reads the other's claim, a second or two on a quiet
    machine; the limit is for a machine under load, the wait ends as soon as it has."""
    deadline = time.monotonic() + TAKEOVER_LIMIT_S
    while time.monotonic() < deadline and not view.taken_over:
        time.sleep(0.05)


def losses(lines):
    return [line for line in lines if "lost the broker" in line or "another program" in line]


def publish_moves(broker, moves):
    message = json.loads(hall_messages.lines()[0])
    message.update(board=1, moves=moves, seq=moves, reason="boot" if moves == 1 else "change")
    clock = Client(broker, "clock-1")
    try:
        clock.publish("hall/board/1", json.dumps(message), retain=True)
    finally:
        clock.disconnect()


def shown_moves(view):
    message = view.snapshot()[0]["message"]
    return message and message["moves"]


def test_two_views_on_their_own_accounts_read_side_by_side_without_a_loss(broker):
    first_lines, second_lines = [], []
    first = start_view(broker, "view", first_lines)
    second = start_view(broker, "view-2", second_lines)
    try:
        began = time.monotonic()
        moves = 0
        while time.monotonic() - began < WATCH_S:
            moves += 1
            publish_moves(broker, moves)
            time.sleep(0.5)
        deadline = time.monotonic() + 5
        while (
            time.monotonic() < deadline and not shown_moves(first) == shown_moves(second) == moves
        ):
            time.sleep(0.05)
        assert shown_moves(first) == shown_moves(second) == moves
        assert losses(first_lines) == [] and losses(second_lines) == []
        assert first.broker_up and second.broker_up
    finally:
        first.close()
        second.close()


def test_a_second_view_on_the_same_account_puts_the_first_off_once_and_it_steps_back(broker):
    first_lines, second_lines = [], []
    first = start_view(broker, "view", first_lines)
    second = None
    try:
        second = start_view(broker, "view", second_lines)
        wait_taken_over(first)
        assert first.taken_over, (first_lines, second_lines)
        # the first came back once (putting the second off once: the second's loss may
        # be logged a moment after the first stepped back), found the second's claim and
        # stepped back; the second came back: then nobody puts anybody off
        deadline = time.monotonic() + TAKEOVER_LIMIT_S
        while time.monotonic() < deadline and not (losses(second_lines) and second.broker_up):
            time.sleep(0.05)
        time.sleep(WATCH_S)  # the old views took the session back and forth meanwhile
        stepped = [line for line in first_lines if "another program" in line]
        assert len(stepped) == 1 and "view.json, view-2.json" in stepped[0], first_lines
        assert len(losses(first_lines)) == 2, first_lines  # put off once, stepped back
        assert len(losses(second_lines)) == 1, second_lines
        assert second.broker_up
        assert first.hall_state()["taken_over"] and not first.broker_up
        publish_moves(broker, 40)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and shown_moves(second) != 40:
            time.sleep(0.05)
        assert shown_moves(second) == 40  # the one that holds the session reads on
    finally:
        first.close()
        if second is not None:
            second.close()


def test_the_page_of_a_view_that_stepped_back_says_so_not_a_lost_broker(broker):
    if shots.chromium() is None:
        pytest.skip("Debian's chromium is not installed: make hall-tools")
    lines = []
    first = start_view(broker, "view", lines)
    second = None
    try:
        url = first.serve()
        second = start_view(broker, "view", [])
        wait_taken_over(first)
        assert first.taken_over, lines
        with Browser(shots.chromium()) as browser:
            dom = shots.page_dom(url, shots.PHONE, "document.body.className !== ''", browser)
        assert "second-view" in dom.split('<body class="')[1].split('"')[0].split()
        banner = dom.split('<div id="banner">')[1].split("</div>")[0]
        assert "Another view logged in with this view's account (view)" in banner
        assert "view-2.json" in banner and "lost the broker" not in banner
    finally:
        first.close()
        if second is not None:
            second.close()


def test_the_arbiters_push_on_its_own_account_beside_a_view(broker):
    # the arbiter's two tools: two accounts, each its own session
    lines = []
    view = start_view(broker, "view", lines)
    try:
        for user in ("arbiter", "arbiter-2"):
            account = {"broker": broker.host, "port": broker.port, "user": user}
            account["password"] = broker.passwords[user]
            push.publish(account, push.settings_message("300+2", None, "off", "appendix-g", user))
        assert losses(lines) == []
    finally:
        view.close()


class _Recorder:
    """A stand-in for the view's MQTT client: what it was asked to publish."""

    def __init__(self):
        self.published = []

    def publish(self, topic, payload, qos=0, retain=False):
        self.published.append((topic, payload, retain))

    def subscribe(self, topics):
        pass

    def disconnect(self):
        pass


def test_a_view_put_off_before_its_claim_got_in_claims_again_and_keeps_the_session():
    """The later view must keep the session: one put off by the earlier one's return
    before the broker took its claim claims again at its next connection, until the
    broker sends the claim back; then the earlier one, finding it, steps back."""
    import paho.mqtt.reasoncodes as codes

    lines = []
    view = HallView("127.0.0.1", 9, "view", "x", log=lines.append)  # nothing listens there
    view.stopping.set()
    try:
        ok = codes.ReasonCode(codes.PacketTypes.CONNACK, identifier=0)
        client = _Recorder()
        view._on_connect(client, None, None, ok, None)
        view._on_disconnect(client, None, None, ok, None)  # put off: the claim never got in
        view._on_connect(client, None, None, ok, None)
        claims = [item for item in client.published if item[0] == view.presence_topic]
        assert claims == [(view.presence_topic, view.run_id, True)] * 2
        view._presence(view.run_id)  # the broker sent it back: claimed
        view._on_disconnect(client, None, None, ok, None)
        view._on_connect(client, None, None, ok, None)
        assert len([item for item in client.published if item[0] == view.presence_topic]) == 2
        view._presence(b"another run")  # a later program's claim: this one steps back
        assert view.taken_over
    finally:
        view.client.disconnect()
