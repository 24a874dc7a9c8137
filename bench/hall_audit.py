"""The hall audit's figures (issue 45): what an arbiter's page shows, who can crowd it
out, two views side by side, idle sockets at the broker, and the boot's window.

    python -m bench.hall --audit [--write]

- **The page's order**, in headless chromium against the real view (``hall.view``):
  100 boards, each changing every 0.3-1.5 s for 30 s, the page on its stream and
  polling ``/boards.json`` every 250 ms beside it (its own ``poll()``: the race of its
  10 s poll, forty times as often). A probe in the page reads each card's move every
  20 ms. Figures: the longest time a card showed an older move than one published a
  second before (goal 0 s), and the times a card's move went back (goal 0).
- **The arbiter's share** (``hall.page_server``'s reserve), with the view's real
  limits: the arbiter's phone (its key shown once) asks ``/boards.json`` 13 times while
  8 addresses hold 32 trickling connections each, and opens a stream while 64
  addresses hold one each (goal: served every time). Loopback addresses only.
- **Two views** on their own accounts (``view``, ``view-2``) beside each other on
  Mosquitto for 15 s while a clock publishes twice a second: the views' losses of the
  broker (goal 0).
- **Sockets without a login** and **wrong passwords**, through the broker's login gate
  (bench/hall_gate.py: Debian 12's Mosquitto 2.0.11 has no option for either).
- **The host's firewall** (``hall.firewall``, in a network namespace of its own: root,
  ``unshare`` and nftables): the idle sockets one address holds at the broker, and the
  wrong passwords answered from one address before it waits.
- **The boot's window**: the lines the clock's code runs on a simulated Pico W with a
  hall file before Ctrl-C is shut (``sim.ctrl_c``), the shut's own included.
"""

import json
import random
import sys
import time

from bench import hall_gate
from hall import firewall, page_server, probe

BOARDS = 100
SECONDS = 30.0
PROBE = """(() => {
  window.seenMoves = [];
  const last = new Map();
  setInterval(() => {
    const at = performance.timeOrigin + performance.now();
    for (const note of document.querySelectorAll("main .board .note")) {
      const found = /move (\\d+)/.exec(note.textContent);
      if (!found) continue;
      const board = Number(note.parentNode.dataset.board), moves = Number(found[1]);
      if (last.get(board) === moves) continue;
      last.set(board, moves);
      window.seenMoves.push([at, board, moves]);
    }
  }, 20);
  setInterval(poll, %d);
  return true;
})()"""


def _message(board, moves):
    data = {"v": 2, "board": board, "seq": moves, "reason": "boot" if moves == 1 else "change"}
    data.update(state="running", left_ms=600_000, right_ms=600_000, to_move="left")
    data.update(white="left", moves=moves, left_stage="1", right_stage="1", flag_left=False)
    data.update(flag_right=False, first_flag="none", claim="none", result="none", push="none")
    data.update(push_id=None, quickplay="off", battery="ok")
    return json.dumps(data).encode()


def stale_and_back(published, seen, start_ms, end_ms, step_ms=20):
    """From ``published`` ([wall ms, board, moves]) and ``seen`` (the page's [wall ms,
    board, moves] at each change of a card): the longest ms a card showed an older move
    than one published a second before, and the times a card's move went back."""
    went_back = 0
    shown = {}
    for _at, board, moves in sorted(seen):
        if board in shown and moves < shown[board]:
            went_back += 1
        shown[board] = moves
    longest = 0
    for board in {board for _, board, _ in published}:
        sends = sorted((at, moves) for at, b, moves in published if b == board)
        views = sorted((at, moves) for at, b, moves in seen if b == board)
        sent = viewed = 0
        newest, showing, stale_since = 0, 0, None
        at = start_ms + 1000
        while at <= end_ms:
            while sent < len(sends) and sends[sent][0] <= at - 1000:
                newest = max(newest, sends[sent][1])
                sent += 1
            while viewed < len(views) and views[viewed][0] <= at:
                showing = views[viewed][1]
                viewed += 1
            if showing < newest:
                stale_since = at if stale_since is None else stale_since
                longest = max(longest, at - stale_since + step_ms)
            else:
                stale_since = None
            at += step_ms
    return longest, went_back


def page_order_figures(boards=BOARDS, seconds=SECONDS, poll_ms=250, seed=45):
    from hall import screenshot
    from hall.devtools import Browser
    from hall.view import HallView

    view = HallView("127.0.0.1", 9, "view", "x", boards=range(1, boards + 1), log=lambda x: None)
    url = view.serve()
    chooser = random.Random(seed)
    published = []
    try:
        with (
            Browser(screenshot.chromium()) as browser,
            browser.page(url, screenshot.WINDOW) as page,
        ):
            page.wait_for("streaming", 30)
            page.evaluate(PROBE % poll_ms)
            moves = dict.fromkeys(range(1, boards + 1), 0)
            due = {board: time.monotonic() + chooser.uniform(0, 1.5) for board in moves}
            start_ms = time.time() * 1000
            ends = time.monotonic() + seconds
            while time.monotonic() < ends:
                now = time.monotonic()
                for board, at in due.items():
                    if at <= now:
                        moves[board] += 1
                        view._take("hall/board/%d" % board, _message(board, moves[board]))
                        published.append([time.time() * 1000, board, moves[board]])
                        due[board] = now + chooser.uniform(0.3, 1.5)
                time.sleep(0.005)
            end_ms = time.time() * 1000
            time.sleep(1.5)
            seen = page.evaluate("window.seenMoves")
            refused = page.evaluate("wentBack")
    finally:
        view.close()
    longest, went_back = stale_and_back(published, seen, start_ms, end_ms)
    return {
        "boards": boards,
        "seconds": seconds,
        "changes_published": len(published),
        "poll_ms": poll_ms,
        "longest_older_than_published_1_s_before_s": round(longest / 1000, 2),
        "times_a_shown_state_went_back": went_back,
        "older_states_the_page_dropped": refused,
    }


def arbiter_share_figures(key="bench-arbiter-key", phone="127.0.0.200"):
    from hall.view import HallView

    view = HallView("127.0.0.1", 9, "view", "x", boards=[1], log=lambda line: None)
    view.serve(arbiter_key=key)
    address = view.server.server_address
    held, streams = [], []
    try:
        held.append(probe.http_get(address, phone, "/boards.json", key)[0])  # the page opened once
        for n in range(1, 9):
            for _ in range(page_server.CLIENT_CONNECTIONS):
                sock = probe.http_connect(address, "127.0.0.%d" % n)
                sock.sendall(b"GET /boards.json HT")  # and never more
                held.append(sock)
        time.sleep(0.3)
        answered = 0
        for _ in range(13):
            sock, code = probe.http_get(address, phone, "/boards.json", key)
            answered += code == 200
            sock.close()
        for sock in held:
            sock.close()
        time.sleep(0.3)
        for n in range(1, 65):
            streams.append(probe.http_get(address, "127.0.1.%d" % n, "/events")[0])
        sock, code = probe.http_get(address, phone, "/events", key)
        streams.append(sock)
        stream_ok = code == 200
        sock, code = probe.http_get(address, phone, "/boards.json", key)
        sock.close()
        return {
            "boards_json_under_8_x_32_trickling": "%d of 13" % answered,
            "stream_and_boards_json_under_64_addresses_streams": stream_ok and code == 200,
        }
    finally:
        for sock in held + streams:
            sock.close()
        view.close()


def two_views_figures(seconds=15.0):
    from hall.broker import Broker
    from hall.view import HallView

    with Broker([1]) as broker:
        logs = ([], [])
        views = [
            HallView(broker.host, broker.port, user, broker.passwords[user], log=log.append)
            for user, log in zip(("view", "view-2"), logs, strict=True)
        ]
        import paho.mqtt.client as paho

        clock = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="clock-1")
        clock.username_pw_set("clock-1", broker.passwords["clock-1"])
        clock.connect(broker.host, broker.port)
        clock.loop_start()
        try:
            for view in views:
                view.connected.wait(10)
            ends = time.monotonic() + seconds
            moves = 0
            while time.monotonic() < ends:
                moves += 1
                clock.publish("hall/board/1", _message(1, moves), retain=True)
                time.sleep(0.5)
            time.sleep(1.0)
            losses = sum(
                1 for log in logs for line in log if "lost" in line or "another program" in line
            )
            shown = [view.snapshot()[0]["message"]["moves"] for view in views]
        finally:
            clock.loop_stop()
            clock.disconnect()
            for view in views:
                view.close()
    return {
        "seconds": seconds,
        "view_losses": losses,
        "both_show_the_last_move": shown == [moves] * 2,
    }


def firewall_figures():
    """The host's guard (hall/firewall.py) in front of Mosquitto, in a network namespace
    of its own (bench/hall_firewall_probe.py); None without root, unshare or nft."""
    import os
    import shutil

    if os.geteuid() != 0 or shutil.which("unshare") is None or not os.path.exists("/usr/sbin/nft"):
        return None
    from bench import hall_firewall_probe

    done = hall_firewall_probe.run_in_namespace()
    if done.returncode != 0:
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def boot_window_figures():
    import json as json_module
    import os
    import shutil

    from hall.clock import install_network
    from sim import ctrl_c
    from sim.world import SimBoard, fresh_flash

    install_network()
    flash = fresh_flash("300", "300")
    with open(os.path.join(flash, "hall.json"), "w") as handle:
        handle.write(json_module.dumps({"broker": "127.0.0.1", "port": 1, "board": 3}))
    serial = ctrl_c.Serial()
    sys.modules.pop("hal.boot", None)  # power-on: boot's module read again
    with serial.installed():
        board = SimBoard(flash, bounce_ms=3, board_name="pico_w")
        with serial.tracing():
            board.boot()
        if board.app.hall is not None:
            board.app.hall.close()
        shutil.rmtree(flash, ignore_errors=True)
    return {"lines_before_ctrl_c_is_shut": serial.shut_at, "lines_of_the_boot": serial.instants}


def audit_figures():
    return {
        "page_order": page_order_figures(),
        "arbiter_share": arbiter_share_figures(),
        "two_views": two_views_figures(),
        "gate": hall_gate.gate_figures(),
        "firewall": firewall_figures(),
        "boot_window": boot_window_figures(),
    }


def rows(figures):
    order, share = figures["page_order"], figures["arbiter_share"]
    views = figures["two_views"]
    window = figures["boot_window"]
    table = [
        (
            "hall page: longest a card showed a move older than one published 1 s before, s",
            order["longest_older_than_published_1_s_before_s"],
            "0 s",
        ),
        ("hall page: times a card's move went back", order["times_a_shown_state_went_back"], "0"),
        (
            "hall view: the arbiter's /boards.json under 8 x 32 trickling connections",
            share["boards_json_under_8_x_32_trickling"],
            "all",
        ),
        (
            "hall view: the arbiter's stream under 64 addresses' streams",
            share["stream_and_boards_json_under_64_addresses_streams"],
            "yes",
        ),
        ("hall: view losses with two views, 15 s", views["view_losses"], "0"),
    ]
    table += hall_gate.rows(figures["gate"])
    guard = figures.get("firewall")
    if guard is not None:
        table += [
            (
                "hall host's firewall: idle sockets one address holds at the broker",
                guard["idle_held"],
                "<= %d" % firewall.PER_ADDRESS,
            ),
            (
                "hall host's firewall: wrong passwords answered before the address waits",
                guard["guesses_answered"],
                "<= %d" % firewall.BURST,
            ),
        ]
    return table + [
        (
            "hall clock: lines of the boot before Ctrl-C is shut",
            window["lines_before_ctrl_c_is_shut"],
            "report",
        ),
    ]
