"""The clock's own network code (hal/hall_link.py) against a real Mosquitto, and its ACL.

Each clock is the firmware on a simulated Pico W (hall.clock.HallClock) whose
MQTT client is its own (hal/mqtt.py) over a real non-blocking socket to a
broker on 127.0.0.1. The broker drops a forbidden publish without a word, so every
refusal is checked by what a subscriber receives, after a permitted message
sent later has arrived (the broker keeps one connection's order).
"""

import json
import time

import pytest

from firmware import engine
from hall.clock import HallClock
from sim import vclock
from tests.hall_helpers import Client, Recorder, running_broker

# One worker plays the whole module: one broker for it.
pytestmark = pytest.mark.xdist_group("hall-network")


@pytest.fixture(scope="module")
def broker():
    with running_broker([1, 2, 3]) as running:
        yield running


@pytest.fixture
def recorder(broker):
    made = []

    def make(user=None, topic="hall/#"):
        made.append(Recorder(broker, user, topic))
        return made[-1]

    yield make
    for one in made:
        one.close()


def states(recorder, board):
    return [json.loads(payload) for payload in recorder.on("hall/board/%d" % board) if payload]


def last(recorder, board):
    found = states(recorder, board)
    return found[-1] if found else {}


def connected(broker, account, client_id=None):
    """An MQTT client logged in to ``broker`` as ``account`` with its own password."""
    client = Client(broker, account, client_id)
    assert client.code is not None and not client.code.is_failure
    return client


def paced(clock, until_ms, step_ms=100):
    """Advance to virtual ``until_ms`` in steps with a little wall time each: the broker
    answers in wall time, and the link gives an answer ``hal.mqtt.ANSWER_MS`` of virtual
    time (a loaded host may take some milliseconds)."""
    while vclock.now_ms() < until_ms:
        clock.advance(min(vclock.now_ms() + step_ms, until_ms))
        time.sleep(0.002)


def run_until(clock, predicate, step_ms=100, timeout_s=20.0):
    """Advance the clock in steps of virtual time, each paced by a little wall time, until
    ``predicate()`` holds (messages travel in wall time)."""
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            return False
        clock.advance(vclock.now_ms() + step_ms)
        time.sleep(0.01)
    return True


def test_publishes_on_change_only_with_a_heartbeat_and_the_will(broker, recorder):
    watch = recorder()
    clock = HallClock(broker.hall_file(1), control="300")
    try:
        paced(clock, 1000)
        assert watch.wait_for(lambda: len(states(watch, 1)) == 1)
        boot = states(watch, 1)[0]
        assert boot["reason"] == "boot" and boot["state"] == "setup" and boot["seq"] == 1
        assert watch.on("hall/board/1/status") == [b"online"]
        paced(clock, 10_000)  # nothing changes in setup: nothing more is sent
        clock.press_running_lever()  # the left lever: White (right) starts
        paced(clock, 13_000)
        clock.press_running_lever()  # White moves after 3 s
        paced(clock, 14_000)
        assert watch.wait_for(lambda: len(states(watch, 1)) == 3)
        moved = states(watch, 1)[2]
        # White's 3 s (10.0 s to 13.0 s, charged from the first contact edge): 297 s.
        assert moved["right_ms"] == 297_000 and moved["to_move"] == "left"
        assert moved["moves"] == 1 and moved["seq"] == 3
        # 30 s without a change: one heartbeat, with Black's running time.
        paced(clock, 13_000 + 30_000 + 100)
        assert watch.wait_for(lambda: len(states(watch, 1)) == 4)
        beat = states(watch, 1)[3]
        assert beat["reason"] == "heartbeat" and beat["seq"] == 4
        assert 300_000 - 30_200 <= beat["left_ms"] <= 300_000 - 29_980
        clock.link.client.stream.sock.close()  # the connection dies without a DISCONNECT
        assert watch.wait_for(lambda: watch.on("hall/board/1/status")[-1:] == [b"offline"])
        paced(clock, 44_000)  # the failure is noticed, the link backs off 1 s, then returns
        paced(clock, 46_000)
        assert watch.wait_for(lambda: watch.on("hall/board/1/status")[-1:] == [b"online"])
        assert watch.wait_for(lambda: states(watch, 1)[-1]["reason"] == "reconnect")
        assert clock.link.failures == 1
    finally:
        clock.close()


def test_a_clock_cannot_publish_another_boards_topic_or_settings(broker, recorder):
    watch = recorder()
    client = connected(broker, "clock-2")
    client.publish("hall/board/3", b"forged", retain=True)
    client.publish("hall/board/3/status", b"offline", retain=True)
    client.publish("hall/settings", b'{"id": "x", "control": "60"}', retain=True)
    client.publish("hall/board/2", b"own", retain=False)  # permitted, and sent last
    assert watch.wait_for(lambda: watch.on("hall/board/2") == [b"own"])
    client.disconnect()
    assert watch.on("hall/board/3") == []
    assert watch.on("hall/board/3/status") == []
    assert watch.on("hall/settings") == []


def test_the_view_reads_but_cannot_publish(broker, recorder):
    watch = recorder()
    client = connected(broker, "view", "view-forger")
    client.publish("hall/board/1", b"forged", retain=True)  # the view's account cannot write...
    client.publish("hall/settings", b'{"id": "x", "control": "60"}', retain=True)
    client.disconnect()
    view = recorder("view")  # ...and subscribes fine (one session at a time: after the forger)
    control = connected(broker, "clock-1")
    control.publish("hall/board/1/status", b"online-check")
    control.disconnect()
    assert watch.wait_for(lambda: b"online-check" in watch.on("hall/board/1/status"))
    assert view.wait_for(lambda: b"online-check" in view.on("hall/board/1/status"))
    assert b"forged" not in watch.on("hall/board/1")
    assert watch.on("hall/settings") == []


def test_a_wrong_password_is_refused_and_publishes_nothing(broker, recorder):
    watch = recorder()
    hall = broker.hall_file(3, password="not-the-password")
    clock = HallClock(hall)
    try:
        paced(clock, 5_000)
        assert not clock.link.client.up() and clock.link.failures >= 2  # backed off, retried
        assert clock.link.client.refused == 5  # the CONNACK's code (MQTT 3.1.1): not authorised
        assert watch.on("hall/board/3") == [] and watch.on("hall/board/3/status") == []
    finally:
        clock.close()


def arbiter_push(broker, payload):
    client = connected(broker, "arbiter")
    client.publish("hall/settings", payload, retain=True)
    client.disconnect()


@pytest.fixture
def push(broker):
    """The arbiter's retained settings push, cleared after the test whether it passed or
    not: no later clock of the module may find it on the broker."""
    yield lambda payload: arbiter_push(broker, payload)
    arbiter_push(broker, b"")


def test_the_arbiters_push_applies_in_setup_and_is_refused_in_a_game(broker, push, recorder):
    watch = recorder()
    playing = HallClock(broker.hall_file(2), control="300")
    try:
        playing.advance(1000)
        playing.press_running_lever()
        playing.advance(2000)
        push(b'{"id": "round-3", "control": "5400+30", "quickplay": "off"}')
        # While the clock runs the push is not even read (reading it allocates)...
        assert run_until(playing, lambda: playing.link.push_again)
        paced(playing, vclock.now_ms() + 1500)
        # (the board's messages reach the watcher in wall time: wait for the running one)
        assert run_until(playing, lambda: last(watch, 2).get("state") == "running")
        assert last(watch, 2).get("push") == "none" and playing.link.push == "none"
        assert playing.app.clock.state == engine.RUNNING
        # ...and once it stands (paused) the broker's retained copy is read: refused.
        playing.board.press("play")
        assert run_until(playing, lambda: last(watch, 2).get("push") == "refused")
        assert states(watch, 2)[-1]["push_id"] == "round-3"
        assert states(watch, 2)[-1]["state"] == "paused"
        assert playing.app.settings.control_left == "300"  # never a change during a game
    finally:
        playing.close()
    waiting = HallClock(broker.hall_file(1), control="300")  # gets the retained push
    try:
        assert run_until(waiting, lambda: last(watch, 1).get("push") == "applied")
        settings = waiting.app.settings
        assert settings.control_left == settings.control_right == "5400+30"
        assert states(watch, 1)[-1]["left_ms"] == 5_400_000 + 30_000  # increment before move 1
        assert waiting.app.notices.texts == ["HALL"]  # the display says where it came from
        stored = json.loads(open(waiting.flash + "/settings.json").read())
        assert stored["control_left"] == "5400+30"
        waiting.advance(vclock.now_ms() + 100)
        assert waiting.board.display_text() == "HALL|HALL"
    finally:
        waiting.close()


def test_corrupt_hall_file_leaves_the_clock_offline_with_err4():
    clock = HallClock('{"broker": "127.0.0.1", "board": "twelve"}')
    try:
        assert clock.link is None
        paced(clock, 100)
        assert clock.board.display_text() == "Err4|Err4"
        assert clock.app.notices.texts == ["Err4"]
    finally:
        clock.close()


def test_the_link_never_waits_when_the_wifi_is_gone(broker):
    from sim import network

    clock = HallClock(broker.hall_file(3))
    try:
        paced(clock, 1000)
        assert clock.link.client.up()
        network.set_link(False)
        paced(clock, 3000)
        assert not clock.link.client.up() and clock.link.published == 1
        network.set_link(True)
        paced(clock, 5000)
        assert clock.link.client.up() and clock.link.published == 2
    finally:
        network.set_link(True)
        clock.close()


def test_the_desktop_simulator_joins_the_hall_as_one_more_board(broker, recorder, tmp_path):
    from live.session import LiveSession, header_text

    watch = recorder()
    path = tmp_path / "hall.json"
    path.write_text(json.dumps(broker.hall_file(3)))
    wall = [0.0]
    session = LiveSession(
        header_text("300+3", "pico_w"), "pico_w", clock=lambda: wall[0], hall_file=str(path)
    )
    try:
        session.go_live()
        for _ in range(50):
            wall[0] += 0.1
            session.advance()
            time.sleep(0.01)
            if watch.on("hall/board/3/status")[-1:] == [b"online"] and last(watch, 3):
                break  # online, and its state sent after (a write of 96 bytes a pass)
        assert last(watch, 3)["state"] == "setup"
        assert watch.on("hall/board/3/status")[-1] == b"online"
    finally:
        session.board.app.hall.close()
        session.close()
