"""The hall message on both lanes, the hall file, and the [%clk] export (no network)."""

import glob
import json
import os
import subprocess

import pytest

from firmware import files, hall_decode, hall_message, hall_push, hall_settings
from hal.storage import Files, Storage
from hall.pgn import ClockHistory, clk_text, ply_of
from sim import vclock
from sim.runner import Game
from sim.script import parse
from tests.mpy import hall_messages
from tests.scripting import ROOT


def test_message_values_follow_the_game():
    lines = hall_messages.lines()
    first = json.loads(lines[0])
    # 5 min sudden death. The left lever at 1 s starts the right clock (White);
    # the right lever at 4 s: White used 3 s, 300 - 3 = 297 s left. At 5.5 s Black
    # (left) has used 1.5 s: 298.5 s.
    assert first["left_ms"] == 298_500 and first["right_ms"] == 297_000
    assert first["to_move"] == "left" and first["white"] == "right"
    assert first["moves"] == 1 and first["state"] == "running" and first["seq"] == 7
    # Paused at 5.5 s: the same times half a second later, and the refused push.
    second = json.loads(lines[1])
    assert second["state"] == "paused" and second["left_ms"] == 298_500
    assert second["push"] == "refused" and second["push_id"] == "r3"
    # Still paused at 36 s: a heartbeat tells the same times.
    third = json.loads(lines[2])
    assert third["reason"] == "heartbeat" and third["left_ms"] == 298_500
    assert third["board"] == 9999


def test_message_is_the_same_bytes_inside_micropython():
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    done = subprocess.run(
        ["node", runner, "tests.mpy.hall_messages"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == hall_messages.lines()


def reference(app, now, board, seq, reason, push="none", push_id=None):
    """The message as docs/hall.md gives it: compact JSON, its keys in this order,
    each value read from the clock's own accessors."""
    clock = app.clock
    claims = app.claims
    side = hall_message.SIDES
    fields = (
        ("v", 2),
        ("board", board),
        ("seq", seq),
        ("reason", reason),
        ("state", hall_message.state_name(app)),
        ("left_ms", clock.shown_ms(0, now)),
        ("right_ms", clock.shown_ms(1, now)),
        ("to_move", side[clock.mover]),
        ("white", side[clock.white]),
        ("moves", clock.moves()),
        ("left_stage", clock.stage(0, now)),
        ("right_stage", clock.stage(1, now)),
        ("flag_left", clock.sides[0].flagged),
        ("flag_right", clock.sides[1].flagged),
        ("first_flag", side[clock.first_flag]),
        ("claim", claims.field()),
        ("result", claims.result),
        ("push", push),
        ("push_id", push_id),
        ("quickplay", claims.quickplay),
        ("battery", hall_message.battery_name(app.hardware.battery)),
    )
    return json.dumps(dict(fields), separators=(",", ":")).encode()


SCRIPTS = sorted(
    glob.glob(os.path.join(ROOT, "tests", "scenarios", "arbiter", "*.clock"))
    + glob.glob(os.path.join(ROOT, "tests", "scenarios", "timing", "*.clock"))
)


def test_message_written_in_its_buffer_is_the_json_of_the_clocks_values():
    """Every instant of the arbiter's and the timing's scenarios (claims open,
    postponed and recorded, byo-yomi and Canadian periods, flags, stages) and
    push ids with quotes and backslashes: the same bytes as the reference,
    written again and again into one buffer."""
    message = hall_message.Message()
    pushes = (("none", None), ("applied", 'r"3\\x'), ("refused", "round-3"), ("invalid", None))
    checked = 0
    seen = set()
    for path in SCRIPTS:
        with open(path, "rb") as handle:
            script = parse(handle.read())
        game = Game(script)
        try:
            for number, time_ms, action, arguments in script.statements:
                game.run_to(time_ms)
                app = game.board.app
                if app is not None:
                    now = vclock.ticks_ms()
                    push, push_id = pushes[number % len(pushes)]
                    count = message.write(app, now, 12, number, "change", push, push_id)
                    wanted = reference(app, now, 12, number, "change", push, push_id)
                    assert bytes(message.buffer[:count]) == wanted, path
                    checked += 1
                    seen.add(wanted)
                if action not in ("expect", "show"):
                    try:
                        game.act(action, arguments)
                    except Exception:
                        break
        finally:
            game.close()
    assert checked > 1000
    seen = b" ".join(seen)
    for value in (b'stage":"byo', b'stage":"can', b'stage":"2"', b'"claim":"postponed-', b"true"):
        assert value in seen  # the scripts reach each kind of value


def test_the_longest_message_fits_its_buffer():
    game = Game(parse("control 60j999x3\n"))
    try:
        game.run_to(1000)
        app = game.board.app
        id_text = '"' * hall_message.MAX_PUSH_ID  # each character escaped: the longest
        longest = reference(
            app, 0, hall_message.MAX_BOARD, 2**31 - 1, "heartbeat", "invalid", id_text
        )
        longest = longest.replace(b'"claim":"none"', b'"claim":"postponed-right"')
        longest = longest.replace(b'"quickplay":"off"', b'"quickplay":"g4-increment"')
        for key in (b"left_ms", b"right_ms", b"moves"):
            at = longest.index(b'"%s":' % key) + len(key) + 3
            end = longest.index(b",", at)
            longest = longest[:at] + b"-1234567890" + longest[end:]
        for key in (b"left_stage", b"right_stage"):
            at = longest.index(b'"%s":"' % key) + len(key) + 4
            end = longest.index(b'"', at)
            longest = longest[:at] + b"byo-1234567890" + longest[end:]
        assert len(longest) <= hall_message.MESSAGE_BYTES
        count = hall_message.Message().write(
            app, 0, 9999, 2**31 - 1, "heartbeat", "invalid", id_text
        )
        assert count <= len(longest)
    finally:
        game.close()


def test_a_push_id_longer_than_the_view_reads_is_invalid():
    game = Game(parse("control 300\n"))
    try:
        app = game.board.app
        payload = json.dumps({"id": "r" * (hall_message.MAX_PUSH_ID + 1), "control": "300"})
        assert hall_push.take(app, payload.encode(), "none", None) == ("invalid", None)
        payload = json.dumps({"id": "r" * hall_message.MAX_PUSH_ID, "control": "300"})
        assert hall_push.take(app, payload.encode(), "none", None)[0] == "applied"
    finally:
        game.close()


def message(**changes):
    data = json.loads(hall_messages.lines()[0])
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    "changes",
    [
        {"v": 3},
        {"board": 0},
        {"board": 10_000},
        {"board": "12"},
        {"seq": -1},
        {"left_ms": 1.5},
        {"flag_left": 0},
        {"state": "flying"},
        {"to_move": "up"},
        {"reason": "whim"},
        {"push": "maybe"},
        {"push_id": 3},
        {"moves": True},
    ],
)
def test_decode_refuses_what_is_not_a_message(changes):
    with pytest.raises(ValueError):
        hall_decode.decode(message(**changes))


def test_decode_refuses_non_objects_and_broken_json():
    for payload in (b"[1]", b"{", b"\xff\xfe", b""):
        with pytest.raises(ValueError):
            hall_decode.decode(payload)


def test_topics():
    assert hall_message.board_topic("hall", 12) == "hall/board/12"
    assert hall_message.settings_topic("open-2026") == "open-2026/settings"


# --- the hall file ------------------------------------------------------------


def good_hall(**changes):
    data = {
        "ssid": "Hall",
        "wifi_password": "wifi-secret-1",
        "broker": "192.168.1.10",
        "port": 1883,
        "user": "clock-12",
        "password": "mqtt-secret-2",
        "board": 12,
        "prefix": "hall",
        "ca": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
        "version": 1,
    }
    data.update(changes)
    return data


def storage_with(tmp_path, content):
    storage = Storage(str(tmp_path), Files())
    if content is not None:
        path = tmp_path / files.HALL
        path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    return storage


def test_hall_file_read_and_described_without_passwords(tmp_path):
    hall, code = hall_settings.load(storage_with(tmp_path, good_hall()))
    assert code is None and hall.board == 12 and hall.port == 1883
    text = hall.describe()
    assert "12" in text and "192.168.1.10" in text
    assert "secret" not in text


def test_missing_hall_file_is_no_hall_and_no_error(tmp_path):
    assert hall_settings.load(storage_with(tmp_path, None)) == (None, None)


@pytest.mark.parametrize(
    "content, code",
    [
        (b"", "Err4"),
        (b'{"broker": "1.2.3.4", "us', "Err4"),
        (b"\x00\xff\x13", "Err4"),
        (b"null", "Err4"),  # valid JSON, no document: never taken for a missing file
        (b" null\n", "Err4"),
        (good_hall(board=0), "Err4"),
        (good_hall(board=True), "Err4"),
        (good_hall(port=70000), "Err4"),
        (good_hall(user=5), "Err4"),
        (good_hall(broker=""), "Err4"),
        (good_hall(password=5), "Err4"),
        (good_hall(prefix="hall/#"), "Err4"),
        ({"ssid": "x"}, "Err4"),
        (good_hall(version=2), "vEr4"),
        # no CA: plain MQTT, the passwords in clear, only to a broker on loopback
        (good_hall(ca=""), "Err4"),
        (good_hall(ca="", broker="localhost"), "Err4"),  # a name: anyone may answer it
        (good_hall(ca="", broker="127.0.0.256"), "Err4"),
        (good_hall(ca="", broker="127.0.0"), "Err4"),
        (good_hall(ca="", broker="128.0.0.1"), "Err4"),
    ],
)
def test_unusable_hall_file_is_set_aside_with_its_code(tmp_path, content, code):
    storage = storage_with(tmp_path, content)
    assert hall_settings.load(storage) == (None, code)
    assert (tmp_path / "hall.json.bad").exists() and not (tmp_path / "hall.json").exists()


@pytest.mark.parametrize("broker", ["127.0.0.1", "127.255.255.255", "::1"])
def test_plain_mqtt_goes_to_a_broker_on_loopback(tmp_path, broker):
    hall, code = hall_settings.load(storage_with(tmp_path, good_hall(ca="", broker=broker)))
    assert code is None and hall.broker == broker and "plain" in hall.describe()


def test_no_user_means_the_boards_own_account(tmp_path):
    storage = storage_with(tmp_path, good_hall(user=""))
    assert hall_settings.load(storage)[0].user == "clock-12"
    assert hall_settings.save_board(storage, 40).user == "clock-40"
    assert json.loads((tmp_path / "hall.json").read_text())["user"] == ""


def test_board_number_saved_keeps_the_rest(tmp_path):
    storage = storage_with(tmp_path, good_hall())
    hall_settings.save_board(storage, 31)
    hall, code = hall_settings.load(storage)
    assert code is None and hall.board == 31 and hall.password == "mqtt-secret-2"
    with pytest.raises(ValueError):
        hall_settings.save_board(storage, 10_000)


# --- the [%clk] export ------------------------------------------------------------


def test_clk_text_rounds_up_like_the_display():
    assert clk_text(0) == "0:00:00"
    assert clk_text(1) == "0:00:01"
    assert clk_text(59_001) == "0:01:00"
    assert clk_text(5_400_000) == "1:30:00"
    assert clk_text(3_599_999) == "1:00:00"


def state(moves, to_move, white="right", left_ms=0, right_ms=0, state="running"):
    return {
        "moves": moves,
        "to_move": to_move,
        "white": white,
        "left_ms": left_ms,
        "right_ms": right_ms,
        "state": state,
    }


def test_ply_counts_from_whites_moves_and_the_side_to_move():
    assert ply_of(state(0, "none", white="none", state="setup")) == 0
    assert ply_of(state(0, "right")) == 0  # White (right) to make move 1
    assert ply_of(state(1, "left")) == 1  # White moved, Black to move
    assert ply_of(state(1, "right")) == 2


def test_history_records_the_mover_after_each_ply_and_restarts_with_a_new_game():
    history = ClockHistory()
    history.follow(state(0, "right", left_ms=300_000, right_ms=300_000))
    history.follow(state(1, "left", left_ms=300_000, right_ms=298_400))  # White: 4:58.4
    history.follow(state(1, "left", left_ms=299_000, right_ms=298_400))  # a heartbeat
    history.follow(state(1, "right", left_ms=295_100, right_ms=298_400))  # Black: 4:55.1
    history.follow(state(3, "left", left_ms=250_000, right_ms=200_000))  # plies 3, 4 missed
    assert history.pgn_comments() == (
        "1. {[%clk 0:04:59]} 1... {[%clk 0:04:56]} 2. 2... 3. {[%clk 0:03:20]}"
    )
    history.follow(state(0, "none", white="none", state="setup"))
    assert history.pgn_comments() == ""
