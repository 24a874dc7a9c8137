"""Two venues bridged to a central Mosquitto (hall/bridge.py): the boards reach the central
view, the arbiter's settings reach the venues, and a venue's account cannot write another
venue's boards on the central broker."""

import time

import paho.mqtt.client as paho

from hall import bridge
from hall.broker import Broker
from tests.hall_helpers import Recorder, need_broker, worker_port


def client(broker, user, password):
    mqtt = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="test-" + user)
    mqtt.username_pw_set(user, password)
    mqtt.ready = False
    mqtt.on_connect = lambda c, u, f, code, p: setattr(c, "ready", not code.is_failure)
    mqtt.connect(broker.host, broker.port, 30)
    mqtt.loop_start()
    deadline = time.monotonic() + 10
    while not mqtt.ready and time.monotonic() < deadline:
        time.sleep(0.02)
    assert mqtt.ready
    return mqtt


def test_venues_bridge_their_own_boards_only():
    need_broker()
    venues = {"north": [1, 2], "south": [3, 4]}
    users = [bridge.venue_user(name) for name in venues]
    central = Broker([], port=worker_port(), accounts=users, acl=bridge.central_acl(venues, "hall"))
    started = [central]
    try:
        for name, boards in venues.items():
            conf = bridge.venue_bridge(
                name, central.host, central.port, central.passwords[bridge.venue_user(name)], "hall"
            )
            started.append(Broker(boards, port=worker_port(), conf=conf))
        north, south = started[1], started[2]
        watcher = Recorder(central)
        in_south = Recorder(south)
        assert watcher.ready.wait(10) and in_south.ready.wait(10)
        time.sleep(1.5)  # the bridges connect
        clock = client(north, "clock-1", north.passwords["clock-1"])
        clock.publish("hall/board/1", b"from north", retain=True).wait_for_publish(5)
        assert watcher.wait_for(lambda: ("hall/board/1", b"from north") in watcher.messages, 10)
        # north's account on the central broker, writing south's board: dropped there
        intruder = client(central, "venue-north", central.passwords["venue-north"])
        intruder.publish("hall/board/3", b"forged").wait_for_publish(5)
        intruder.publish("hall/board/2", b"own board").wait_for_publish(5)
        assert watcher.wait_for(lambda: ("hall/board/2", b"own board") in watcher.messages, 10)
        assert ("hall/board/3", b"forged") not in watcher.messages
        arbiter = client(central, "arbiter", central.passwords["arbiter"])
        arbiter.publish("hall/settings", b'{"id":"r1"}', retain=True).wait_for_publish(5)
        assert in_south.wait_for(lambda: ("hall/settings", b'{"id":"r1"}') in in_south.messages, 10)
        for mqtt in (clock, intruder, arbiter):
            mqtt.disconnect()
        watcher.close()
        in_south.close()
    finally:
        for broker in started:
            broker.stop()


def test_a_venue_bridges_over_tls_only_to_the_broker_its_ca_signed(tmp_path):
    """The central broker over TLS: a venue bridging with the event's CA carries its
    boards; one given another CA never connects, so nothing of it arrives."""
    need_broker()
    from hall import tls

    venues = {"north": [1], "south": [2]}
    users = [bridge.venue_user(name) for name in venues]
    central = Broker(
        [], port=worker_port(), accounts=users, acl=bridge.central_acl(venues, "hall"), tls=True
    )
    started = [central]
    try:
        other_ca, _ = tls.make_ca(str(tmp_path), "another hall")
        for (name, boards), cafile in zip(venues.items(), (central.ca, other_ca), strict=True):
            password = central.passwords[bridge.venue_user(name)]
            conf = bridge.venue_bridge(name, central.host, central.port, password, "hall", cafile)
            started.append(Broker(boards, port=worker_port(), conf=conf))
        north, south = started[1], started[2]
        watcher = Recorder(central)
        for venue, board in ((north, 1), (south, 2)):
            sender = client(venue, "clock-%d" % board, venue.passwords["clock-%d" % board])
            sender.publish("hall/board/%d" % board, b"from %d" % board, retain=True)
            sender.disconnect()
            sender.loop_stop()
        assert watcher.wait_for(lambda: ("hall/board/1", b"from 1") in watcher.messages, 10)
        time.sleep(1.0)
        assert ("hall/board/2", b"from 2") not in watcher.messages
        watcher.close()
    finally:
        for broker in started:
            broker.stop()
