"""Nothing a clock's account sends can blind the view: each of issue's reproductions, the
bounded reading of a message (firmware.hall_decode, hall.boards) and the strict HTTP side."""

import functools
import json
import socket
import time
import tracemalloc

import pytest

from firmware import flat_json, hall_decode, hall_message
from hall.boards import BURST, Board
from hall.pgn import ClockHistory
from hall.view import HallView
from tests.mpy import hall_messages


@functools.lru_cache(maxsize=1)
def probe_line():
    return hall_messages.lines()[0]  # board 12, seq 7, running


def good(**changes):
    data = json.loads(probe_line())
    data.update(changes)
    return json.dumps(data, separators=(",", ":"))


def refused(payload):
    with pytest.raises(ValueError):
        hall_decode.decode(payload)


# --- the message itself ---------------------------------------------------------


def test_nested_brackets_are_refused_not_a_recursion_error():
    refused(b"[" * 2000)  # the 2 KB of brackets
    refused(b"[" * 1000 + b"]" * 24)  # within the size: still no nesting read
    refused(b'{"v":' + b"[" * 1000)
    refused(good(seq={"a": 1}))


def test_numbers_beyond_what_a_clock_holds_are_refused():
    # moves: four digits on the clock; times: at most 99:59:59.999 shown
    refused(good(moves=15_000_000))
    refused(good(moves=10_000))
    refused(good(left_ms=360_000_000))
    refused(good(seq=2**31))
    refused(good(left_stage="10"))
    refused(good(right_stage="byo1000"))
    refused(good(left_ms=-1))
    refused('{"v":1,"board":12,"seq":1e3}')
    assert hall_decode.decode(good(moves=9999, left_ms=359_999_999))["moves"] == 9999


def test_nan_infinity_and_floats_are_refused_anywhere():
    text = good()
    refused(text[:-1] + ',"x":NaN}')
    refused(text[:-1] + ',"x":Infinity}')
    refused(text[:-1] + ',"x":1.5}')
    refused(text.replace('"seq":7', '"seq":7.0'))


def test_a_key_twice_is_refused_and_unknown_keys_are_dropped():
    text = good()
    refused(text[:-1] + ',"seq":8}')
    kept = hall_decode.decode(text[:-1] + ',"extra":"x"}')
    assert "extra" not in kept and kept["seq"] == 7


def test_text_fields_come_from_their_fixed_sets():
    for changes in (
        {"claim": "open-up"},
        {"claim": "<script>"},
        {"result": "1-0 by magic"},
        {"left_stage": "byo01"},
        {"push_id": "x" * 65},
    ):
        refused(good(**changes))
    assert hall_decode.decode(good(claim="postponed-right"))["claim"] == "postponed-right"
    assert hall_decode.decode(good(left_stage="can15"))["left_stage"] == "can15"


def test_a_message_over_one_kib_is_refused_before_it_is_read(monkeypatch):
    def never(text):
        raise AssertionError("read a message over the limit")

    big = b" " * 1_000_000 + good().encode()  # the 1 MB message
    long_id = good(push_id="x" * 2000)
    monkeypatch.setattr(hall_decode, "read_object", never)
    refused(big)
    refused(long_id)


# --- one board's reading --------------------------------------------------------


def test_seq_never_goes_back_within_a_connection():
    board = Board(12)
    assert board.take_message(good(seq=7).encode(), 0)
    assert not board.take_message(good(seq=7).encode(), 100)  # the same, retained: no change
    assert board.refused == 0
    assert not board.take_message(good(seq=5, moves=2).encode(), 200)
    assert board.refused == 1 and board.message["seq"] == 7
    assert board.take_message(good(seq=1, reason="boot", moves=0).encode(), 300)  # rebooted
    assert board.take_message(good(seq=2, moves=1).encode(), 400)


def test_a_board_sending_too_fast_is_limited_and_counted():
    board = Board(12)
    taken = sum(board.take_message(good(seq=n).encode(), 1000) for n in range(1, 201))
    assert taken == BURST
    assert board.refused == 200 - BURST
    assert board.take_message(good(seq=500).encode(), 2000)  # a second later: allowed again


def test_pgn_history_is_bounded_by_the_move_counter():
    history = ClockHistory()
    board = Board(12)
    assert not board.take_message(good(moves=15_000_000, seq=8).encode(), 0)
    assert board.history.times == [] and board.refused == 1
    history.follow(json.loads(good(moves=9999)))
    assert len(history.times) <= 2 * 9999


def test_both_flags_read_flags_and_go_in_the_strip():
    board = Board(12)
    board.take_message(good(flag_left=True, flag_right=True, first_flag="left").encode(), 0)
    assert board.state(0) == "flags"
    assert "flag" in board.needs(0)


def test_time_trouble_only_where_appendix_g_applies():
    board = Board(12)
    # version 2: the clock says its quickplay setting; left to move with 1:59
    message = good(v=2, battery="ok", quickplay="g5", left_ms=119_000, to_move="left")
    board.take_message(message.encode(), 0)
    assert "time trouble" in board.needs(0)
    board = Board(12)
    board.take_message(good(v=2, battery="low", quickplay="off", left_ms=119_000).encode(), 0)
    assert board.needs(0) == ["battery"]


# --- the view as a whole, without a broker --------------------------------------


@pytest.fixture
def view():
    lines = []
    hall = HallView("127.0.0.1", 9, "view", "x", boards=[1, 12], log=lines.append)
    hall.lines = lines
    url = hall.serve()
    hall.url = url
    yield hall
    hall.close()


def http(view, raw):
    host, port = view.server.server_address
    with socket.create_connection((host, port), timeout=5) as connection:
        connection.sendall(raw)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                return data
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        for line in head.split(b"\r\n") if not raw.startswith(b"HEAD") else ():
            if line.lower().startswith(b"content-length:"):
                while len(body) < int(line.split(b":")[1]):
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    body += chunk
        return head + b"\r\n\r\n" + body


def status(reply):
    return int(reply.split(b" ", 2)[1]) if reply else None


def test_the_view_survives_every_kind_of_garbage_and_counts_it(view):
    topic = "hall/board/12"
    for payload in (
        b"[" * 2000,
        good(moves=15_000_000).encode(),
        good()[:-1].encode() + b',"x":NaN}',
        b"x" * 1_000_000,
        b"\xff\xfe",
    ):
        view._take(topic, payload)
    view._take(topic, good().encode())
    view._take("hall/board/12/status", b"maybe")
    boards = {entry["board"]: entry for entry in view.snapshot()}
    assert boards[12]["refused"] == 6 and boards[12]["message"]["seq"] == 7
    assert "garbage" in boards[12]["needs"]
    assert boards[1]["state"] == "no clock yet"
    body = http(view, b"GET /boards.json HTTP/1.1\r\nHost: x\r\n\r\n")
    json.loads(body.split(b"\r\n\r\n", 1)[1] or b"{}", parse_constant=pytest.fail)


def test_a_unicode_digit_in_pgn_gets_404(view):
    assert status(http(view, b"GET /pgn/\xb2 HTTP/1.1\r\nHost: x\r\n\r\n")) == 404
    assert status(http(view, b"GET /pgn/012 HTTP/1.1\r\nHost: x\r\n\r\n")) == 404
    assert status(http(view, b"GET /pgn/1 HTTP/1.1\r\nHost: x\r\n\r\n")) == 200


def test_the_http_side_answers_as_documented(view, capfd):
    for method in (b"HEAD", b"OPTIONS", b"POST", b"DELETE", b"TRACE", b"BREW"):
        head = b" /boards.json HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
        reply = http(view, method + head)
        assert status(reply) == 405, method
        assert b"Allow: GET" in reply
    assert status(http(view, b"GET /boards.json?x=1 HTTP/1.1\r\nHost: x\r\n\r\n")) == 404
    assert status(http(view, b"GET /" + b"a" * 2000 + b" HTTP/1.1\r\n\r\n")) == 414
    big = b"".join(b"X-%d: %s\r\n" % (n, b"y" * 200) for n in range(60))
    assert status(http(view, b"GET / HTTP/1.1\r\n" + big + b"\r\n")) == 431
    assert status(http(view, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")) == 200
    junks = (b"\x16\x03\x01\x02\x00\x01\r\n\r\n", b"GET\r\n\r\n", b"GET /pgn/\xb2 HTTP/1.0\r\n\r\n")
    for junk in junks:
        http(view, junk)
    time.sleep(0.2)
    assert not any("Traceback" in line for line in view.lines)
    assert "Traceback" not in capfd.readouterr().err


def test_a_flood_of_big_messages_leaves_the_views_memory_flat(view):
    http_events = socket.create_connection(view.server.server_address, timeout=5)
    http_events.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")  # a page that never reads
    time.sleep(0.2)
    text = good()
    padded = [b" " * 1000 + text.replace('"seq":7', '"seq":%d' % n).encode() for n in range(2000)]
    huge = b"x" * 100_000
    tracemalloc.start()
    try:
        for _ in range(3):
            view._take("hall/board/12", huge)
        before = tracemalloc.get_traced_memory()[0]
        for n in range(2000):
            view._take("hall/board/12", padded[n])
            view._take("hall/board/12", huge)
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
        http_events.close()
    assert after - before < 200_000


def test_no_broker_is_said_in_one_line_and_retried(view):
    deadline = time.monotonic() + 5
    while not view.lines and time.monotonic() < deadline:
        time.sleep(0.05)
    assert view.lines and view.lines[0].startswith("no broker at 127.0.0.1:9")
    state = json.loads(http(view, b"GET /boards.json HTTP/1.1\r\n\r\n").split(b"\r\n\r\n")[1])
    assert state["hall"]["broker"] is False and state["hall"]["lost_at_ms"] > 0
    assert view.thread.is_alive()


# --- one reading of the bytes (firmware.flat_json) -----------------------------

_EDGES = (0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF)


def _cpython_utf8(data):
    try:
        data.decode("utf-8")  # CPython's decoder is strict RFC 3629: no surrogates
    except UnicodeDecodeError:
        return False
    return True


def _project_utf8(data):
    try:
        flat_json.check_utf8(data)
    except ValueError:
        return False
    return True


def test_utf8_is_checked_as_rfc_3629_says_at_every_boundary():
    # every lead byte, with following bytes at each edge of the ranges RFC 3629 allows
    for lead in range(256):
        cases = [bytes((lead,))] + [bytes((lead, b)) for b in range(256)]
        cases += [bytes((lead, b, c)) for b in _EDGES for c in _EDGES]
        cases += [
            bytes((lead, b, c, d)) for b in _EDGES for c in (0x80, 0xBF, 0xC0) for d in _EDGES
        ]
        for data in cases:
            assert _project_utf8(data) == _cpython_utf8(data), data
    assert _project_utf8(b"\xf4\x8f\xbf\xbf") and not _project_utf8(b"\xf4\x90\x80\x80")
    assert _project_utf8(b"\xed\x9f\xbf") and not _project_utf8(b"\xed\xa0\x80")


def test_a_texts_escapes_are_jsons_and_read_as_json_reads_them():
    pieces = ('\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0000", "\\u00E9")
    pieces += ("\\ud83d\\ude00", "\\uDBFF\\uDFFF", "\\uffff", "é", "\U0001f600", "\x7f")
    for piece in pieces:
        text = '{"k":"a%sb"}' % piece
        assert flat_json.read_object(text.encode()) == json.loads(text), piece
    for piece in (
        "\\x41",
        "\\'",
        "\\a",
        "\\U00e9",
        "\\u00e",
        "\\ud83d",
        "\\ude00",
        "\\ud83d\\u0041",
    ):
        with pytest.raises(ValueError):
            flat_json.read_object(('{"k":"a%s"}' % piece).encode())
    assert flat_json.code_points("a\U0001f600\xe9") == 3


def test_the_size_is_counted_in_bytes_at_the_limit_and_one_past():
    text = good()
    padding = hall_decode.MAX_BYTES - len(text.encode())
    assert hall_decode.decode(text + " " * padding)["seq"] == 7
    refused(text + " " * (padding + 1))
    assert hall_decode.decode((text + " " * padding).encode())["seq"] == 7
    refused((text + " " * (padding + 1)).encode())
    # a text of fewer characters than the limit but more bytes, in a key the view
    # drops: refused alike, as the bytes count
    extra = ',"k":"%s"}' % ("\U0001f600" * ((padding - 7) // 4 + 1))
    assert len(text[:-1] + extra) <= hall_decode.MAX_BYTES
    assert len((text[:-1] + extra).encode()) > hall_decode.MAX_BYTES
    refused(text[:-1] + extra)
    extra = ',"k":"%s"}' % ("\U0001f600" * ((padding - 7) // 4))
    assert hall_decode.decode(text[:-1] + extra)["seq"] == 7


def test_a_push_id_is_64_code_points_at_most_however_written():
    raw = "\U0001f600" * hall_message.MAX_PUSH_ID
    for push_id in ("x" * 64, raw):
        payload = good(push_id=push_id).replace("\\ud83d\\ude00", "\U0001f600")
        assert hall_decode.decode(payload.encode())["push_id"] == push_id
    refused(good(push_id="x" * 65))
    refused(good(push_id=raw + "x").replace("\\ud83d\\ude00", "\U0001f600"))


def test_a_refusal_never_quotes_what_the_clock_sent():
    for payload in (
        good()[:-1] + ',"<b>secret</b>":1,"<b>secret</b>":2}',
        good(seq="<b>secret</b>"),
        good().replace('"seq":7', '"seq":7<b>secret</b>'),
        good(push_id="<b>secret</b>" * 10),
        good().replace('"claim":"none"', '"claim":"<b>secret</b>\\x41"'),
        good(v="<b>secret</b>"),
    ):
        with pytest.raises(ValueError) as error:
            hall_decode.decode(payload)
        assert "secret" not in str(error.value), str(error.value)
