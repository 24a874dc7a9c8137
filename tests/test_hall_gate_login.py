"""The login gate's reading of MQTT and its back-off, at their limits (hall/gate_login.py),
and the gate's refusals to start (hall/gate.py): a port taken, a certificate missing,
plain MQTT off loopback."""

import socket

import pytest

from hall import broker_conf, gate, gate_login, gate_process, probe


def read(data, limit=gate_login.MAX_PACKET_BYTES):
    """The first packet of ``data``, and what is left after it."""
    buffer = bytearray(data)
    return gate_login.split_packet(buffer, limit), bytes(buffer)


def packet_of(size):
    """A PUBLISH of exactly ``size`` bytes, its remaining length in two bytes."""
    return b"\x30" + probe._length(size - 3) + b"x" * (size - 3)


def test_a_packet_of_the_brokers_largest_size_is_read_and_one_byte_more_is_refused():
    whole = packet_of(broker_conf.MAX_PACKET_BYTES)
    assert read(whole + b"next") == ((whole, 3), b"next")
    with pytest.raises(ValueError, match="2049 bytes, over 2048"):
        read(packet_of(broker_conf.MAX_PACKET_BYTES + 1))
    with pytest.raises(ValueError, match="over 2048"):  # said by its length: refused at once
        read(b"\x30\xff\x7f")


def test_a_remaining_length_of_four_bytes_is_read_and_of_five_refused():
    assert read(b"\x30\x80\x80\x80\x00", limit=10) == ((b"\x30\x80\x80\x80\x00", 5), b"")
    with pytest.raises(ValueError, match="more than 4 bytes"):
        read(b"\x30\x80\x80\x80\x80\x00")


def test_half_a_packet_is_no_packet_yet_and_its_rest_makes_it_whole():
    connect = probe.connect_packet(b"c", b"clock-1", b"secret")
    buffer = bytearray()
    for cut in (1, 2, len(connect) // 2, len(connect) - 1):
        buffer[:] = connect[:cut]
        assert gate_login.split_packet(buffer) is None and buffer == connect[:cut]
    buffer += connect[len(connect) - 1 :]
    assert gate_login.split_packet(buffer) == (connect, 2) and buffer == b""


@pytest.mark.parametrize(
    "name, level, taken",
    [(b"MQTT", 4, 4), (b"MQTT", 5, 5), (b"MQIsdp", 3, 3), (b"MQTT", 0x84, 4), (b"MQTT", 0x85, 5)],
)
def test_the_levels_of_mqtt_3_3_1_1_5_and_of_a_bridge_are_taken(name, level, taken):
    body = probe._text(name) + bytes([level, 0x02, 0, 30]) + probe._text(b"c")
    assert gate_login.connect_level(b"\x10" + probe._length(len(body)) + body, 2) == taken


@pytest.mark.parametrize(
    "packet",
    [
        probe.publish_packet(b"hall/board/1", b"{}"),  # not a CONNECT first
        b"\x10\x00",
        b"\x10\x07" + probe._text(b"MQTT") + bytes([6]),  # a level nobody speaks
        b"\x10\x09" + probe._text(b"MQIsdp") + bytes([4]),  # 3.1's name with 3.1.1's level
        b"\x10\x07" + probe._text(b"HTTP") + bytes([4]),
    ],
)
def test_anything_but_a_connect_is_refused(packet):
    with pytest.raises(ValueError):
        gate_login.connect_level(packet, 2)


@pytest.mark.parametrize(
    "level, code, wrong",
    [
        (4, 0, False),
        (4, 4, True),  # bad user name or password
        (4, 5, True),  # not authorized: Mosquitto's answer to a wrong password
        (4, 3, None),  # server unavailable: not a guess
        (4, 2, None),
        (5, 0, False),
        (5, 0x86, True),
        (5, 0x87, True),
        (5, 0x89, None),  # server busy
        (5, 5, None),  # 3.1.1's code means nothing in MQTT 5
    ],
)
def test_a_connack_tells_a_wrong_login_from_a_taken_one_and_other_refusals(level, code, wrong):
    connack = bytes([0x20, 2, 0, code]) if level == 4 else bytes([0x20, 3, 0, code, 0])
    assert gate_login.wrong_login(connack, 2, level) is wrong


def test_an_answer_other_than_connack_is_refused():
    with pytest.raises(ValueError, match="CONNACK"):
        gate_login.wrong_login(b"\x30\x02\x00\x00", 2, 4)


def refuse(ledger, address, times, now):
    for _ in range(times):
        assert ledger.begin(address, now) is not None
        ledger.end(address, True, now)


def test_the_free_refusals_pass_at_once_and_the_next_waits_the_first_wait():
    ledger = gate_login.Ledger()
    refuse(ledger, "10.0.0.7", gate_login.FREE_REFUSALS - 1, 100.0)
    assert ledger.wait_s("10.0.0.7", 100.0) == 0.0
    refuse(ledger, "10.0.0.7", 1, 100.0)  # the last free one
    assert ledger.wait_s("10.0.0.7", 100.0) == gate_login.FIRST_WAIT_S
    assert ledger.wait_s("10.0.0.7", 100.0 + gate_login.FIRST_WAIT_S) == 0.0
    refuse(ledger, "10.0.0.7", 1, 101.0)
    assert ledger.wait_s("10.0.0.7", 101.0) == 2 * gate_login.FIRST_WAIT_S  # doubling


def test_the_wait_stops_at_its_cap_however_many_refusals():
    ledger = gate_login.Ledger()
    below = 0
    while gate_login.FIRST_WAIT_S * 2 ** (below + 1) <= gate_login.MAX_WAIT_S:
        below += 1
    refuse(ledger, "10.0.0.7", gate_login.FREE_REFUSALS + below, 0.0)
    assert ledger.wait_s("10.0.0.7", 0.0) == gate_login.FIRST_WAIT_S * 2**below  # under the cap
    refuse(ledger, "10.0.0.7", 1, 0.0)
    assert ledger.wait_s("10.0.0.7", 0.0) == gate_login.MAX_WAIT_S  # at it
    refuse(ledger, "10.0.0.7", 500, 0.0)
    assert ledger.wait_s("10.0.0.7", 0.0) == gate_login.MAX_WAIT_S


def test_a_quiet_period_clears_an_address_at_its_end_not_before():
    ledger = gate_login.Ledger()
    refuse(ledger, "10.0.0.7", gate_login.FREE_REFUSALS + 10, 0.0)
    assert ledger.refusals("10.0.0.7", gate_login.QUIET_S - 0.001) == gate_login.FREE_REFUSALS + 10
    assert ledger.refusals("10.0.0.7", gate_login.QUIET_S) == 0
    refuse(ledger, "10.0.0.7", 1, gate_login.QUIET_S)
    assert ledger.wait_s("10.0.0.7", gate_login.QUIET_S) == 0.0  # counted afresh


def test_a_taken_login_clears_the_address_and_another_refusal_keeps_its_count():
    ledger = gate_login.Ledger()
    refuse(ledger, "10.0.0.7", gate_login.FREE_REFUSALS, 0.0)
    ledger.begin("10.0.0.7", 5.0)
    ledger.end("10.0.0.7", None, 5.0)  # a full broker, no answer: not a guess, no pardon
    assert ledger.refusals("10.0.0.7", 5.0) == gate_login.FREE_REFUSALS
    ledger.begin("10.0.0.7", 5.0)
    ledger.end("10.0.0.7", False, 5.0)
    assert ledger.refusals("10.0.0.7", 5.0) == 0


def test_a_waiting_address_has_one_login_under_way_and_others_never_wait():
    ledger = gate_login.Ledger()
    assert ledger.begin("10.0.0.7", 0.0) == 0.0  # logins side by side before any refusal
    assert ledger.begin("10.0.0.7", 0.0) == 0.0
    ledger.end("10.0.0.7", True, 0.0)
    ledger.end("10.0.0.7", True, 0.0)
    refuse(ledger, "10.0.0.7", gate_login.FREE_REFUSALS - 2, 0.0)
    assert ledger.begin("10.0.0.7", 0.0) == gate_login.FIRST_WAIT_S
    assert ledger.begin("10.0.0.7", 0.0) is None  # a second while the first waits
    assert ledger.begin("10.0.0.8", 0.0) == 0.0  # the arbiter's, a clock's: never
    ledger.end("10.0.0.7", True, 1.0)
    assert ledger.begin("10.0.0.7", 1.0) == 2 * gate_login.FIRST_WAIT_S


def test_a_back_off_that_makes_no_sense_is_refused():
    for bad in ({"first_s": 0}, {"first_s": 5, "max_s": 4}, {"quiet_s": 0}, {"free": -1}):
        with pytest.raises(ValueError):
            gate_login.Ledger(**bad)


def test_a_gate_on_a_taken_port_says_so(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        arguments = gate_process.command(["127.0.0.1"], port, 1)
        with pytest.raises(RuntimeError, match="port is taken"):
            gate_process.GateProcess(arguments, str(tmp_path / "gate.log"))


def test_a_gate_without_its_certificate_says_which_file(tmp_path, capsys):
    missing = str(tmp_path / "broker.crt")
    code = gate.main(
        ["--listen", "127.0.0.1", "--port", "1", "--broker-port", "2", "--certfile", missing]
        + ["--keyfile", str(tmp_path / "broker.key")]
    )
    assert code == 2
    assert "certificate %s is missing" % missing in capsys.readouterr().err


def test_a_plain_gate_off_loopback_is_refused(capsys):
    code = gate.main(["--listen", "0.0.0.0", "--port", "0", "--broker-port", "2"])
    assert code == 2
    assert "MQTT in clear only on loopback" in capsys.readouterr().err
