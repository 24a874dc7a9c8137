"""A real hall's files (hall/accounts.py): accounts, ACL, one hall file per board."""

import json
import os
import shlex
import shutil
import signal
import socket
import ssl
import stat
import subprocess
import tempfile
import time

import paho.mqtt.client as paho
import pytest

from firmware import hall_settings
from hal.storage import Files, Storage
from hall import accounts, gate_process, tls
from hall.broker import _which, free_port
from tests.hall_helpers import need_broker, worker_port


@pytest.fixture
def open_parent():
    """A folder Mosquitto's own user may pass through, as /srv is."""
    folder = tempfile.mkdtemp(prefix="hall-accounts-")
    os.chmod(folder, 0o711)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_board_numbers():
    assert accounts.board_numbers("1-3,7") == [1, 2, 3, 7]
    for bad in ("0-3", "5-2", "1-3,2", "x", "1-10000"):
        with pytest.raises(ValueError):
            accounts.board_numbers(bad)


def test_the_setup_files(open_parent):
    need_broker()
    out = os.path.join(open_parent, "setup")
    accounts.write_setup(
        out, [1, 2, 12], "192.168.1.10", 8883, "Hall", "wifi-pw", "open", "0.0.0.0"
    )
    names = sorted(os.listdir(out))
    assert names == sorted(
        ["passwd", "acl", "mosquitto.conf", "boards.json"]
        + ["view.json", "view-2.json", "view-3.json", "arbiter.json", "arbiter-2.json"]
        + ["ca.crt", "ca.key", "broker.crt", "broker.key", "hall-broker.service"]
        + ["hall-gate.service"]
        + ["hall-firewall.nft", "arbiter-key.txt"]
        + ["hall-board-%d.json" % n for n in (1, 2, 12)]
    )
    for name in names:
        mode = 0o644 if name == "ca.crt" else 0o600  # the CA's certificate is public
        assert stat.S_IMODE(os.stat(os.path.join(out, name)).st_mode) == mode
    boards = {}
    for number in (1, 2, 12):
        storage = Storage(out, Files())
        os.replace(os.path.join(out, "hall-board-%d.json" % number), os.path.join(out, "hall.json"))
        hall, code = hall_settings.load(storage)
        assert code is None and hall.board == number and hall.user == "clock-%d" % number
        assert hall.prefix == "open" and hall.ssid == "Hall"
        assert hall.ca == open(os.path.join(out, "ca.crt")).read() and hall.port == 8883
        boards[number] = hall.password
    assert len(set(boards.values())) == 3  # each clock its own password
    passwd = open(os.path.join(out, "passwd")).read()
    for password in boards.values():
        assert password not in passwd  # hashed
    acl = open(os.path.join(out, "acl")).read()
    assert "user clock-12\ntopic write open/board/12\n" in acl
    assert "user view\ntopic read open/#\ntopic write open/views/view\n" in acl
    assert "user view-3\ntopic read open/#\ntopic write open/views/view-3\n" in acl
    assert "user arbiter-2\ntopic readwrite open/settings\n" in acl
    views = [json.load(open(os.path.join(out, "view%s.json" % n))) for n in ("", "-2", "-3")]
    assert [view["user"] for view in views] == ["view", "view-2", "view-3"]
    assert len({view["password"] for view in views}) == 3  # one account per view
    arbiter = json.load(open(os.path.join(out, "arbiter.json")))
    assert arbiter["user"] == "arbiter" and arbiter["password"] not in passwd
    # The broker's places: its 8 accounts (3 clocks, 3 views, 2 arbiter's tools) and 8
    # more; the unit's open files 64 above them.
    # Mosquitto on loopback, plain, behind the gate, which alone listens on the hall's
    # address with TLS (hall.gate).
    conf = open(os.path.join(out, "mosquitto.conf")).read()
    listener = "listener %d 127.0.0.1\nuse_username_as_clientid true\nmax_connections 16\n"
    assert listener % accounts.BROKER_PORT in conf
    assert "max_packet_size 2046\n" in conf and "tls_version" not in conf
    assert "0.0.0.0" not in conf and "listener 8883" not in conf
    unit = open(os.path.join(out, "hall-broker.service")).read()
    assert "\nLimitNOFILE=80\n" in unit and "\nWants=hall-gate.service\n" in unit
    assert "ExecStart=%s -c %s" % (_which("mosquitto"), os.path.join(out, "mosquitto.conf")) in unit
    gate = gate_command(out)
    assert (
        gate[gate.index("--listen") + 1] == "0.0.0.0" and gate[gate.index("--port") + 1] == "8883"
    )
    assert gate[gate.index("--broker-port") + 1] == str(accounts.BROKER_PORT)
    assert gate[gate.index("--certfile") + 1] == os.path.join(out, "broker.crt")
    gate_unit = open(os.path.join(out, "hall-gate.service")).read()
    assert "\nBindsTo=hall-broker.service\nAfter=hall-broker.service\n" in gate_unit
    assert "\nLimitNOFILE=128\n" in gate_unit  # 16 logins and 16 waiting, 2 files each, 64


def gate_command(out):
    """The login gate's command line, as its unit runs it."""
    unit = open(os.path.join(out, "hall-gate.service")).read()
    (line,) = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    return shlex.split(line[len("ExecStart=") :])


def start_gate(out):
    """The gate as ``hall-gate.service`` starts it (RuntimeError if it does not listen)."""
    return gate_process.GateProcess(gate_command(out), os.path.join(out, "gate-test.log"))


def as_root_with_mosquitto():
    need_broker()
    if accounts.broker_account() is None:
        pytest.skip("runs as root with Debian's mosquitto user only")


def test_as_root_a_closed_folder_is_refused_in_one_line(tmp_path):
    as_root_with_mosquitto()
    os.chmod(tmp_path, 0o700)
    with pytest.raises(ValueError, match="cannot pass through"):
        accounts.write_setup(
            str(tmp_path / "setup"), [1], "127.0.0.1", 8883, "", "", "hall", "127.0.0.1"
        )
    assert not (tmp_path / "setup").exists()


def test_as_root_the_broker_reads_the_files_it_was_given(open_parent):
    """docs/hall.md's steps as root: Mosquitto drops to its own user, then reads them."""
    as_root_with_mosquitto()
    out = os.path.join(open_parent, "hall-setup")
    port = worker_port()
    accounts.write_setup(
        out, [1, 2], "127.0.0.1", port, "", "", "hall", "127.0.0.1", broker_port=free_port()
    )
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o711
    for name in ("passwd", "acl", "broker.key"):
        info = os.stat(os.path.join(out, name))
        assert info.st_uid == accounts.broker_account().pw_uid
        assert stat.S_IMODE(info.st_mode) == 0o600
    assert os.stat(os.path.join(out, "hall-board-1.json")).st_uid == 0
    hall_file = json.load(open(os.path.join(out, "hall-board-1.json")))
    broker = subprocess.Popen(
        [_which("mosquitto"), "-c", os.path.join(out, "mosquitto.conf")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    gate = None
    try:
        deadline = time.monotonic() + 10
        broker_port = int(gate_command(out)[gate_command(out).index("--broker-port") + 1])
        while True:
            try:
                socket.create_connection(("127.0.0.1", broker_port), timeout=0.2).close()
                break
            except OSError:
                assert broker.poll() is None, broker.stdout.read().decode()
                assert time.monotonic() < deadline
                time.sleep(0.05)
        gate = start_gate(out)  # as root, it drops to Mosquitto's user once listening
        status = open("/proc/%d/status" % gate.process.pid).read()
        uid = [line.split()[1] for line in status.splitlines() if line.startswith("Uid:")][0]
        assert int(uid) == accounts.broker_account().pw_uid
        client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="clock-1")
        client.username_pw_set("clock-1", hall_file["password"])
        client.tls_set_context(tls.client_context(cadata=hall_file["ca"]))
        codes = []
        client.on_connect = lambda c, u, f, code, p: codes.append(code)
        client.connect("127.0.0.1", port, 10)
        deadline = time.monotonic() + 5
        while not codes and time.monotonic() < deadline:
            client.loop(0.1)
        client.disconnect()
        assert codes and not codes[0].is_failure, codes
    finally:
        if gate is not None:
            gate.stop()
        broker.terminate()
        broker.wait(10)


def test_an_event_in_venues_bridges_each_to_the_central_broker(open_parent):
    need_broker()
    out = os.path.join(open_parent, "event")
    venues = [accounts.venue("north=10.0.0.2:1-2"), accounts.venue("south=10.0.0.3:3")]
    accounts.write_event(out, venues, "10.0.0.1", 8883, "", "", "hall", "0.0.0.0")
    assert sorted(os.listdir(out)) == ["ca.crt", "ca.key", "central", "north", "south"]
    central_acl = open(os.path.join(out, "central", "acl")).read()
    section = central_acl.split("user venue-north\n")[1].split("\n\n")[0]
    assert section.splitlines() == [
        "topic write hall/board/1",
        "topic write hall/board/1/status",
        "topic write hall/board/2",
        "topic write hall/board/2/status",
        "topic read hall/settings",
    ]
    conf = open(os.path.join(out, "south", "mosquitto.conf")).read()
    assert "connection venue-south\naddress 10.0.0.1:8883\n" in conf
    assert "bridge_cafile %s\n" % os.path.join(out, "ca.crt") in conf
    assert "topic hall/board/# out 0\ntopic hall/settings in 0\n" in conf
    view = json.load(open(os.path.join(out, "central", "view.json")))
    assert view["boards"] == "1,2,3" and view["broker"] == "10.0.0.1"
    assert sorted(os.listdir(os.path.join(out, "south"))).count("hall-board-3.json") == 1
    with pytest.raises(ValueError):
        accounts.write_event(
            out + "2",
            venues + [accounts.venue("east=10.0.0.4:2")],
            "c",
            8883,
            "",
            "",
            "hall",
            "0.0.0.0",
        )


def test_one_password_is_refused_in_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        accounts.main(
            [
                "--boards",
                "1-2",
                "--broker",
                "10.0.0.1",
                "--one-password",
                "--out",
                str(tmp_path / "s"),
            ]
        )
    assert stopped.value.code == 2 and "--one-password is refused" in capsys.readouterr().err
    assert not (tmp_path / "s").exists()


def _start(out):
    """Mosquitto and its gate as their units start them: (broker, gate)."""
    broker = subprocess.Popen(
        [_which("mosquitto"), "-c", os.path.join(out, "mosquitto.conf")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 10
    broker_port = int(gate_command(out)[gate_command(out).index("--broker-port") + 1])
    while True:
        try:
            socket.create_connection(("127.0.0.1", broker_port), timeout=0.2).close()
        except OSError:
            assert broker.poll() is None, broker.stdout.read().decode()
            assert time.monotonic() < deadline
            time.sleep(0.05)
            continue
        try:
            return broker, start_gate(out)
        except RuntimeError:
            broker.terminate()
            broker.wait(10)
            raise


def _login(hall_file, client_id, secure=True):
    """A paho client logged in with a hall file's account; its CONNACK (None: none came;
    the OSError when the connection or the TLS handshake failed)."""
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=client_id)
    client.username_pw_set(hall_file["user"], hall_file["password"])
    if secure:
        client.tls_set_context(tls.client_context(cadata=hall_file["ca"]))
    codes = []
    client.on_connect = lambda c, u, f, code, p: codes.append(code)
    try:
        client.connect("127.0.0.1", hall_file["port"], 10)
    except OSError as error:
        return client, error
    deadline = time.monotonic() + 20  # a bound on a hang, not a pace a loaded machine keeps
    while not codes and time.monotonic() < deadline:
        if client.loop(0.05) != paho.MQTT_ERR_SUCCESS:
            break  # the connection is gone: no CONNACK will come (paho would not wait)
    return client, (codes[0] if codes else None)


def test_a_clock_moved_to_another_board_keeps_its_password_over_tls(open_parent):
    """The written hall over TLS with its own CA; --renumber 1=5 and a SIGHUP: the clock
    flashed as board 1 writes board 5, and board 1 no more."""
    need_broker()
    out = os.path.join(open_parent, "hall-setup")
    port = worker_port()
    accounts.write_setup(
        out, [1, 2], "127.0.0.1", port, "", "", "hall", "127.0.0.1", broker_port=free_port()
    )
    board1 = json.load(open(os.path.join(out, "hall-board-1.json")))
    broker, gate = _start(out)
    try:
        plain, code = _login(board1, "plain", secure=False)
        assert code is None or isinstance(code, OSError)  # no MQTT in clear on the hall's listener
        other_ca = dict(board1, ca=open(tls.make_ca(open_parent, "another hall")[0]).read())
        _, error = _login(other_ca, "forged-ca")  # a broker this hall's CA did not sign
        assert isinstance(error, ssl.SSLCertVerificationError)
        watch = json.load(open(os.path.join(out, "arbiter.json")))
        watch.update(port=port, ca=board1["ca"])
        watcher, code = _login(watch, "w")
        assert code is not None and not code.is_failure
        seen = []
        watcher.on_message = lambda c, u, m: seen.append((m.topic, m.payload))
        watcher.subscribe("hall/board/#")
        assert accounts.main(["--renumber", "1=5", "--out", out]) == 0
        broker.send_signal(signal.SIGHUP)
        clock, code = _login(board1, "clock-1")
        assert code is not None and not code.is_failure

        def comes(topic, payload, seconds):
            """Publish until the watcher sees it (the reload takes its time on a loaded
            machine), within ``seconds``."""
            deadline = time.monotonic() + seconds
            while (topic, payload) not in seen and time.monotonic() < deadline:
                clock.publish(topic, payload)
                for _ in range(10):
                    clock.loop(0.02)
                    watcher.loop(0.02)
            return (topic, payload) in seen

        assert comes("hall/board/5", b"new number", 30)  # the reload is in force
        clock.publish("hall/board/1", b"old number")
        assert comes("hall/board/5", b"after", 30)  # in order after the old number
        assert ("hall/board/1", b"old number") not in seen
        with pytest.raises(SystemExit):  # board 2's clock already writes 2
            accounts.main(["--renumber", "5=2", "--out", out])
    finally:
        gate.stop()
        broker.terminate()
        broker.wait(10)


def test_the_arbiters_key_is_printed_as_an_address_and_in_every_views_file(
    open_parent, capsys, monkeypatch
):
    need_broker()
    monkeypatch.setenv("HALL_WIFI_PASSWORD", "")
    out = os.path.join(open_parent, "keyed")
    assert accounts.main(["--boards", "1-2", "--broker", "10.0.0.1", "--out", out]) == 0
    printed = capsys.readouterr().out
    keys = {
        json.load(open(os.path.join(out, name)))["arbiter_key"]
        for name in ("view.json", "view-2.json", "view-3.json")
    }
    assert len(keys) == 1 and len(next(iter(keys))) >= 20
    assert "/#key=%s " % next(iter(keys)) in printed
    assert "nft -f hall-firewall.nft" in printed
    arbiter = json.load(open(os.path.join(out, "arbiter.json")))
    assert "arbiter_key" not in arbiter and arbiter["password"] not in printed
