"""No network fault waits the clock: the hall link over a scripted stream, on both lanes.

``sim/net_faults.py`` plays one seeded game on a simulated Pico W with a hall
file while the stream behind ``hal.mqtt`` misbehaves (one byte per call, the
first byte then silence, no CONNACK, no SUBACK, writes refused, a reset in the
middle of a publish, a push split over many reads, garbage, an oversized
packet, a refused connect) for the first 12 s; every call costs its chip
time, added to virtual time. The same game played offline gives the lines to
compare: the network changes no state line and no display, and no pass of the
main loop is late enough for the watchdog. The module runs on CPython and
inside MicroPython (``tools/mpy``); both give the same results.
"""

import json
import os
import subprocess

import pytest

from hal import hall_link, mqtt
from sim import net_faults, vclock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOAL_PASS_US = 2000  # the longest main-loop pass the network may cause (docs/hall.md)
WATCHDOG_MS = 5000
# The faults that must end the connection (the link notices and comes back).
BREAKING = (
    "first byte then silence",
    "no connack",
    "no suback",
    "reset mid-publish",
    "garbage",
    "connect refused",
)
# The faults a good connection rides out.
RIDDEN = ("none", "writes refused", "oversized packet")


# The tests of the faults' results run on one worker, which plays the faults once.
ON_THE_RESULTS = pytest.mark.xdist_group("hall-faults")


@pytest.fixture(scope="module")
def cpython_results():
    printed = []
    net_faults_main(printed.append)
    return [json.loads(line) for line in printed]


def net_faults_main(out):
    offline = net_faults.offline_lines()
    out(json.dumps({"fault": "offline", "lines": offline}))
    for name in net_faults.FAULTS:
        pushed = net_faults.PUSH if name in net_faults.PUSHED else None
        out(json.dumps(net_faults.run_fault(name, pushed)))


def by_fault(results):
    return {result["fault"]: result for result in results}


@ON_THE_RESULTS
def test_every_fault_leaves_time_and_the_watchdog_alone(cpython_results):
    results = by_fault(cpython_results)
    offline = results.pop("offline")["lines"]
    assert len(offline) == len(net_faults.THINK_MS) + 1
    assert sorted(results) == sorted(net_faults.FAULTS)
    for name, result in results.items():
        assert result["watchdog_resets"] == 0, name
        assert 0 < result["longest_pass_us"] <= GOAL_PASS_US, name
        if name not in net_faults.PUSHED:
            assert result["lines"] == offline, name  # state, times and displays, line for line


@ON_THE_RESULTS
def test_a_broken_connection_is_noticed_and_the_board_comes_back(cpython_results):
    results = by_fault(cpython_results)
    for name in BREAKING:
        result = results[name]
        assert result["failures"] >= 1, name
        # On the page again once the network is good: the backoff (at most 16 s) and a
        # connect with its answers.
        assert result["back_after_ms"] is not None, name
        assert result["back_after_ms"] <= hall_link.MAX_BACKOFF_MS + mqtt.ANSWER_MS, name
        assert result["last_state"] is not None, name
    for name in RIDDEN:
        assert results[name]["failures"] == 0 and results[name]["connections"] == 1, name


@ON_THE_RESULTS
def test_a_push_comes_whole_over_one_byte_reads_and_after_an_oversized_packet(cpython_results):
    results = by_fault(cpython_results)
    for name in net_faults.PUSHED:
        result = results[name]
        last = json.loads(result["last_state"])
        # The push came in setup (the game starts at 1 s): in force, and said so.
        assert result["control"] == "600+5", name
        assert last["push"] == "applied" and last["push_id"] == "round-2", name
        # 600+5 before White's first move: 600 s plus the increment.
        assert '"left_ms":605000' in result["lines"][0], name


@ON_THE_RESULTS
def test_the_same_results_inside_micropython(cpython_results):
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    done = subprocess.run(
        ["node", runner, "sim.net_faults"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    inside = [json.loads(line) for line in done.stdout.splitlines()]
    assert inside == cpython_results


class Stream:
    """A stream that gives the bytes of ``incoming`` ``per_read`` at a time."""

    def __init__(self, incoming, per_read=1):
        self.incoming = bytearray(incoming)
        self.per_read = per_read
        self.written = bytearray()

    def ready(self):
        return mqtt.WRITABLE | (mqtt.READABLE if self.incoming else 0)

    def readinto(self, buffer, count):
        count = min(count, self.per_read, len(self.incoming))
        buffer[0:count] = self.incoming[0:count]
        del self.incoming[0:count]
        return count

    def write(self, buffer, start, count):
        self.written.extend(buffer[start : start + count])
        return count

    def close(self):
        pass


def connected_client(incoming, per_read=1):
    client = mqtt.Client(b"clock-4", b"clock-4", b"pw", 60, inbox=64)
    stream = Stream(b"\x20\x02\x00\x00" + incoming, per_read)
    client.open(stream, 0, b"hall/board/4/status", b"offline")
    return client, stream


def poll_until(client, wanted, polls=400):
    for now in range(0, polls * 10, 10):
        event = client.poll(now)
        if event == wanted:
            return now
    return None


def test_the_connect_packet_is_mqtt_3_1_1_with_its_will():
    client, stream = connected_client(b"")
    assert poll_until(client, mqtt.CONNECTED) is not None
    # MQTT 3.1.1, 3.1: fixed header 0x10, remaining length 62 (10 of variable header,
    # then five length-prefixed fields: 2+7, 2+19, 2+7, 2+7, 2+2); protocol name and
    # level 4; flags: user 0x80, password 0x40, will retain 0x20, will 0x04, clean 0x02.
    expected = (
        b"\x10\x3e\x00\x04MQTT\x04\xe6\x00\x3c"
        b"\x00\x07clock-4\x00\x13hall/board/4/status\x00\x07offline\x00\x07clock-4\x00\x02pw"
    )
    assert bytes(stream.written) == expected


def test_a_publish_split_into_single_bytes_is_read_whole():
    topic = b"hall/settings"
    payload = b'{"id":"r"}'
    packet = bytes([0x31, 2 + len(topic) + len(payload), 0, len(topic)]) + topic + payload
    client, _stream = connected_client(packet)
    assert poll_until(client, mqtt.CONNECTED) is not None
    assert poll_until(client, mqtt.MESSAGE) is not None
    assert client.topic_is(topic) and not client.topic_is(b"hall/settingz")
    assert client.payload() == payload


def test_a_packet_longer_than_the_inbox_is_skipped_and_the_next_one_read():
    topic = b"t"
    long_payload = b"y" * 200  # the inbox holds 64
    length = 2 + 1 + len(long_payload)
    oversized = bytes([0x30, 0x80 | (length & 0x7F), length >> 7, 0, 1]) + topic + long_payload
    after = b"\x30\x05\x00\x01tok"
    client, _stream = connected_client(oversized + after, per_read=48)
    assert poll_until(client, mqtt.CONNECTED) is not None
    assert poll_until(client, mqtt.MESSAGE) is not None
    assert client.oversized == 1 and client.payload() == b"ok"
    assert client.up()


def test_garbage_ends_the_connection():
    client, _stream = connected_client(b"\x00\x01")
    assert poll_until(client, mqtt.CONNECTED) is not None
    assert poll_until(client, mqtt.LOST) is not None
    assert client.reason == "garbage" and client.state == mqtt.DOWN


def test_silence_after_the_first_byte_is_noticed_by_the_answer_timer():
    client = mqtt.Client(b"c", None, None, 60)
    client.open(Stream(b"\x20"), 0, b"s", b"off")
    lost_at = poll_until(client, mqtt.LOST, polls=1000)
    assert lost_at == mqtt.ANSWER_MS and client.reason == "no answer"


class Acknowledging(Stream):
    """A stream over a stack: each write is held until the far end acknowledges it;
    the far end answers each PINGREQ (with what it acknowledges) while ``alive``."""

    def __init__(self):
        super().__init__(b"\x20\x02\x00\x00", per_read=48)
        self.alive = True
        self.held = 0  # writes the far end has not acknowledged
        self.most_held = 0

    def write(self, buffer, start, count):
        self.held += 1
        self.most_held = max(self.most_held, self.held)
        taken = super().write(buffer, start, count)
        if self.alive:
            if b"\xc0\x00" in self.written[-count - 1 :]:
                self.incoming.extend(b"\xd0\x00")
            if bytes(self.written[:1]) == b"\x10":
                self.held = 0  # the CONNECT and what followed: acknowledged
        return taken


def test_the_writes_the_broker_has_not_confirmed_stay_below_the_stacks_queue():
    # The Pico W's lwIP queues 32 buffers (one a write); a 33rd would make the write
    # wait up to 10 s. Messages every 100 ms for a minute, the far end gone at 20 s.
    client = mqtt.Client(b"clock-4", None, None, 60)
    stream = Acknowledging()
    client.open(stream, 0, b"hall/board/4/status", b"offline")
    message = b"m" * 340
    lost_at = None
    for now in range(0, 60_000, 10):
        if now == 20_000:
            stream.alive = False
        if now % 100 == 0 and client.up():
            client.publish(b"hall/board/4", message)
        if client.poll(now) == mqtt.LOST:
            lost_at = now
            break
    assert stream.most_held <= mqtt.UNCONFIRMED_CALLS < 32
    assert lost_at is not None and 20_000 < lost_at <= 20_000 + mqtt.ANSWER_MS + 100
    assert client.reason in ("no answer", "stalled")


def test_the_name_is_looked_up_outside_a_game_only_and_once():
    vclock.reset()
    broker = net_faults.Broker("none")
    run = net_faults.Run(broker)
    looked_up = []
    try:
        run.link.resolve = lambda host, port: looked_up.append(host) or (host, port)
        run.press_mover()  # the game starts before the link's first turn
        run.advance(3000)
        assert looked_up == [] and broker.connections == 0  # no lookup during a game
        run.board.press("play")  # paused: still a game
        run.advance(4000)
        assert looked_up == []
        run.app.clock.new_game()  # back in setup (the arbiter's new game)
        run.advance(6000)
        assert looked_up == ["127.0.0.2"] and run.link.client.up()
        run.link.client.drop("test")  # the connection goes; the next one needs no lookup
        run.advance(10_000)
        assert looked_up == ["127.0.0.2"] and broker.connections == 2
    finally:
        run.close()


def test_a_new_board_number_is_carried_out_by_the_next_turn_not_by_the_menu():
    vclock.reset()
    broker = net_faults.Broker("none")
    run = net_faults.Run(broker)
    try:
        run.advance(2000)
        assert run.link.client.up()
        calls = run.chip.pass_us
        run.chip.pass_us = 0
        run.link.renumber(12, "clock-12")  # what the menu's step does
        assert run.chip.pass_us == 0 and run.link.client.up()  # no socket call in it
        run.chip.pass_us = calls
        run.advance(2010)  # the next turn: offline under 4, then joins as 12
        assert run.link.topic == b"hall/board/12" and not run.link.client.up()
        run.advance(6000)
        after = [(topic, payload) for at, topic, payload in broker.published if at >= 2000]
        assert after[0] == (b"hall/board/4/status", b"offline")  # the old number leaves
        assert (b"hall/board/12/status", b"online") in after
        assert any(topic == b"hall/board/12" for topic, _payload in after)
        assert run.link.client.up()
    finally:
        run.close()


def test_any_bytes_from_the_network_end_in_a_message_a_drop_or_nothing_never_an_error():
    import random

    chooser = random.Random(21)
    for _ in range(300):
        noise = bytes(chooser.randrange(256) for _ in range(chooser.randrange(1, 120)))
        if chooser.random() < 0.5:  # a plausible start: a PUBLISH header, then noise
            noise = bytes([0x30 | chooser.randrange(16), chooser.randrange(256)]) + noise
        client, _stream = connected_client(noise, per_read=chooser.randrange(1, 49))
        for now in range(0, 3000, 10):
            event = client.poll(now)  # raises nothing
            assert event in (mqtt.IDLE, mqtt.CONNECTED, mqtt.MESSAGE, mqtt.LOST, mqtt.SUBSCRIBED)
            if event == mqtt.MESSAGE:
                assert client.payload_start <= client.payload_end <= len(client.inbox)
            if client.state == mqtt.DOWN:
                break


def test_a_busy_link_allocates_nothing_in_a_pass_not_even_a_message_pass_inside_micropython():
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    done = subprocess.run(
        ["node", runner, "bench.hall_alloc"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["link_up"] and figures["passes"] == 600
    assert figures["receiving"] >= 10 and figures["publishing"] >= 10  # busy both ways
    assert figures["bytes_per_pass_without_a_message_max"] == 0
    assert figures["bytes_per_message_pass_max"] == 0  # the message is written in its buffer
    assert figures["push_in_play_left_unread"] and figures["push_in_play_bytes"] == 0
