"""The hall's figures: 200 clocks on one broker, lever edge to page update, CPU, bytes, heap.

    python -m bench.hall [--clocks 200] [--seconds 20] [--gate]   # --gate: through hall.gate
    python -m bench.hall --scale [--write]   # 1,000 and 2,000 clocks, 1 and 16 pages, 5 venues
    python -m bench.hall --tls [--write]     # the TLS handshake per hall board (bench/hall_tls.py)
    python -m bench.hall --guard [--write]   # takeovers, sizes, sessions (bench/hall_guard.py)
    python -m bench.hall --audit [--write]   # the page's order, the arbiter's share, two views,
                                             # idle sockets, the boot's window (bench/hall_audit.py)

The first, every part included, writes the ``hall`` key of bench/latest.json (``make
bench`` calls ``figures_and_rows``); ``--scale``, ``--tls``, ``--guard`` and ``--audit`` with
``--write`` replace only their own part of it, the rest of ``hall`` and the other keys
kept. A run with other clocks, venues or pages prints and writes nothing.

- One Mosquitto (``hall.broker``) with an account per clock, the view
  (``python -m hall.view``) in a process of its own, and a reader of the
  page's event stream (``/events``, what the page listens to).
- 200 clocks (``bench/hall_clocks.py``), each the firmware's timing engine and its own
  link over a TCP connection of its own, driven in processes of ``GROUP`` clocks.
- Latency: from the instant a move was due (the lever's edge) to the moment the
  page's event stream delivers that board's message with the new move, p50 and
  p99. CPU: the view's and the broker's process time over the run (/proc).
"""

import json
import os
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from bench import figure_rows, hall_clocks, hall_events, results  # noqa: E402
from bench.figure_rows import Figure  # noqa: E402
from firmware import hall_message  # noqa: E402


def _cpu_seconds(pid):
    """User + system CPU time of process ``pid`` so far (Linux /proc)."""
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _resident_kib(pid):
    """Resident memory of process ``pid`` in KiB (Linux /proc)."""
    with open("/proc/%d/status" % pid) as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None


def _brokers(clocks, venues, gate=False):
    """The brokers: one for all the clocks, or a central one and ``venues`` bridged to it.
    (the view's broker, every broker, the broker of each board). ``gate``: the one broker
    behind its login gate (``hall.gate``), as a hall's is (plain on loopback here: the
    clocks' TLS is bench/hall_tls.py's)."""
    from hall import bridge
    from hall.broker import Broker

    numbers = list(range(1, clocks + 1))
    if gate and venues:
        raise ValueError("the gate's run is of one broker, without venues")
    if not venues:
        broker = Broker(numbers, gate=gate)
        return broker, [broker], {number: broker for number in numbers}
    plan = {}
    for index in range(venues):
        plan["v%d" % (index + 1)] = numbers[
            index * clocks // venues : (index + 1) * clocks // venues
        ]
    central = Broker(
        [],
        accounts=[bridge.venue_user(name) for name in plan],
        acl=bridge.central_acl(plan, "hall"),
    )
    every, of_board = [central], {}
    try:
        for name, boards in plan.items():
            password = central.passwords[bridge.venue_user(name)]
            venue = Broker(
                boards, conf=bridge.venue_bridge(name, central.host, central.port, password, "hall")
            )
            every.append(venue)
            of_board.update((board, venue) for board in boards)
    except BaseException:
        for broker in every:
            broker.stop()
        raise
    return central, every, of_board


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return None
    index = min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))
    return ordered[index]


def _flood_payloads(board):
    """Every malformed kind a clock's account could send on its own topic (issue reproductions
    first), round and round: the view must refuse each and keep reading the others."""
    good = {"v": 2, "board": board, "seq": 5, "reason": "change", "state": "running"}
    good.update(left_ms=1000, right_ms=1000, to_move="left", white="left", moves=3)
    good.update(left_stage="1", right_stage="1", flag_left=False, flag_right=False)
    good.update(first_flag="none", claim="none", result="none", push="none", push_id=None)
    good.update(quickplay="off", battery="ok")

    def text(**changes):
        return json.dumps(dict(good, **changes), separators=(",", ":")).encode()

    return [
        b"[" * 2000,
        text(moves=15_000_000),
        text()[:-1] + b',"x":NaN}',
        b" " * 1_000_000 + text(),
        text(seq=1)[:-1] + b',"seq":2}',
        text(board=board + 1),
        b"\xff\xfe" * 100,
        text(claim="<script>"),
        b"{" * 1000,
        text(left_ms=10**12),
    ]


def _flood(broker, board, count):
    """Publish ``count`` malformed messages on ``board``'s topic with its account, at full
    speed; returns the seconds it took."""
    import paho.mqtt.client as paho

    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="flood-%d" % board)
    client.username_pw_set("clock-%d" % board, broker.passwords["clock-%d" % board])
    client.connect(broker.host, broker.port, 30)
    client.loop_start()
    payloads = _flood_payloads(board)
    started = time.monotonic()
    try:
        for index in range(count):
            payload = payloads[index % len(payloads)]
            if len(payload) > 100_000 and index % 100:
                payload = payloads[0]  # a 1 MB message one time in a hundred
            client.publish("hall/board/%d" % board, payload).wait_for_publish(10)
    finally:
        client.loop_stop()
        client.disconnect()
    return time.monotonic() - started


def hall_figures(
    clocks=200,
    seconds=20.0,
    seed=2026,
    venues=0,
    flood=0,
    pages=1,
    group=hall_clocks.GROUP,
    gate=False,
):
    """Run the hall with ``clocks`` clocks for ``seconds``; the figures as a dict, the
    latency over every one of ``pages`` open event streams (pages). With
    ``venues``, the clocks are split over that many brokers bridged to a central one,
    which the view reads (``hall.bridge``). The clocks are driven by
    processes of ``group`` (CLOCK_MONOTONIC is the same instant in all of them). With
    ``gate``, every clock and the view reach the broker through its login gate."""
    numbers = list(range(1, clocks + 1))
    broker, brokers, of_board = _brokers(clocks, venues, gate)
    gates = [b.gate_process.process.pid for b in brokers if b.gate_process is not None]
    view = None
    try:
        account = os.path.join(broker.folder, "view.json")
        with open(account, "w") as handle:
            json.dump({"user": "view", "password": broker.passwords["view"]}, handle)
        view = subprocess.Popen(
            [sys.executable, "-m", "hall.view", "--broker-port", str(broker.port)]
            + ["--account", account],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        address = view.stdout.readline().strip()
        page_port = int(address.rstrip("/").rsplit(":", 1)[1])
        time.sleep(0.5 if not venues else 2.0)  # the view subscribes, the bridges connect
        reader = hall_events.EventReader(page_port, pages)
        reader.start()
        halls = [of_board[number].hall_file(number) for number in numbers[1 if flood else 0 :]]
        view_kib_before = _resident_kib(view.pid)
        flooder = None
        if flood:  # board 1's account floods the view while the other boards play
            flooder = threading.Thread(
                target=lambda: flood_s.append(_flood(of_board[1], 1, flood)), daemon=True
            )
            flood_s = []
        started = time.monotonic()
        begin = started + 2.0 + clocks / 200  # every clock connects before the play begins
        baseline = threading.Timer(
            max(0.0, begin - time.monotonic()),
            lambda: cpu.extend(
                [
                    _cpu_seconds(view.pid),
                    sum(_cpu_seconds(b.process.pid) for b in brokers),
                    sum(map(_cpu_seconds, gates)),
                ]
            ),
        )
        cpu = []
        baseline.start()
        if flooder is not None:
            threading.Timer(max(0.0, begin - time.monotonic()), flooder.start).start()
        edges, published, failures, sizes, connect_s, lags, sent = hall_clocks.drive_in_processes(
            halls, seconds, seed, begin, group
        )
        baseline.join()
        view_cpu, broker_cpu, gate_cpu = cpu
        wall = time.monotonic() - begin
        view_cpu = _cpu_seconds(view.pid) - view_cpu
        broker_cpu = sum(_cpu_seconds(b.process.pid) for b in brokers) - broker_cpu
        if flooder is not None:
            time.sleep(0.5)
            flooder.join(120)
        view_kib = _resident_kib(view.pid)
        broker_kib = sum(_resident_kib(b.process.pid) for b in brokers)
        time.sleep(1.0)  # the last messages reach the page
        reader.close()
        # The hall's own: from the clock's publish instant (its message written whole, in
        # the pass that pressed the lever) to the page. The harness's lag before that
        # pass (a driving process's turn, its wait for a core) is the drivers' lag below.
        latencies = [
            (arrived[key] - written) * 1000
            for arrived in reader.arrived
            for key, written in sent.items()
            if key in arrived
        ]
        from_due = [
            (arrived[key] - edge) * 1000
            for arrived in reader.arrived
            for key, edge in edges.items()
            if key in arrived
        ]
        topic = len(hall_message.board_topic("hall", 100))
        payload = sum(sizes) / len(sizes) if sizes else 0
        return {
            "clocks": clocks,
            "venues": venues,
            "pages": pages,
            "driving_processes": -(-len(halls) // group),
            "view_resident_kib": view_kib,
            "brokers_resident_kib": broker_kib,
            "seconds": round(wall, 1),
            "connect_all_s": round(connect_s, 2),
            "messages_per_s": round(published / wall, 1),
            "moves_timed": len(edges),
            "moves_seen_on_page": len(latencies) // pages,
            "latency_ms_p50": round(percentile(latencies, 0.5), 1) if latencies else None,
            "latency_ms_p99": round(percentile(latencies, 0.99), 1) if latencies else None,
            "latency_ms_max": round(max(latencies), 1) if latencies else None,
            # from the instant the harness meant the lever to go: the drivers' lag included
            "due_to_page_ms_p99": round(percentile(from_due, 0.99), 1) if from_due else None,
            "driver_lag_ms_max": round(max(lags), 1) if lags else None,
            # The drivers' share of it: from the instant a move was due to the pass of
            # its clock that queued the message (a driving process's turn over its
            # clocks, its wait for a core). The rest is the link's writing (at most
            # hal.mqtt.WRITE_CHUNK bytes a pass), the network's, the brokers' and the view's.
            "driver_lag_ms_p50": round(percentile(lags, 0.5), 1) if lags else None,
            "driver_lag_ms_p99": round(percentile(lags, 0.99), 1) if lags else None,
            "view_cpu_percent": round(100 * view_cpu / wall, 1),
            "broker_cpu_percent": round(100 * broker_cpu / wall, 1),
            "through_the_gate": bool(gates),
            "gate_cpu_percent": round(100 * (sum(map(_cpu_seconds, gates)) - gate_cpu) / wall, 1)
            if gates
            else None,
            "bytes_per_message_payload": round(payload),
            # MQTT PUBLISH, QoS 0: fixed header (2-3 bytes), topic length (2), topic, payload.
            "bytes_per_message_mqtt": round(payload + 2 + 2 + topic + (1 if payload > 125 else 0)),
            "link_failures": failures,
            "view_resident_kib_before": view_kib_before,
            "flood_messages": flood,
            "flood_seconds": round(flood_s[0], 1) if flood and flood_s else None,
            "view_still_running": view.poll() is None,
        }
    finally:
        if view is not None:
            view.terminate()
            view.wait(10)
        for each in brokers:
            each.stop()


def declared():
    """The 200 clocks' figures (bench/figure_rows.py)."""
    return (
        Figure("clocks", "hall.clocks", "", "report"),
        Figure("messages per second", "hall.messages_per_s", "", "report"),
        Figure("lever edge to the page's update, p50", "hall.latency_ms_p50", "ms", "report"),
        Figure("lever edge to the page's update, p99", "hall.latency_ms_p99", "ms", "≤ 500 ms"),
        Figure("CPU of the view", "hall.view_cpu_percent", "% of a core", "report"),
        Figure("CPU of the broker", "hall.broker_cpu_percent", "% of a core", "report"),
        Figure("bytes per message, payload", "hall.bytes_per_message_payload", "B", "report"),
        Figure("bytes per message, MQTT packet", "hall.bytes_per_message_mqtt", "B", "report"),
    )


def figures_and_rows(clocks=200, seconds=20.0):
    from bench import hall_audit, hall_guard, hall_link, hall_scale, hall_tls

    figures = hall_figures(clocks, seconds)
    figures.update(hall_link.link_figures())
    figures["guard"] = hall_guard.guard_figures()
    figures["audit"] = hall_audit.audit_figures()
    rows = figure_rows.table_rows(declared(), "hall", figures) + hall_link.rows(figures)
    rows += hall_guard.rows(figures["guard"])
    rows += hall_audit.rows(figures["audit"])
    figures.update(hall_scale.runs_at_scale())
    rows += hall_scale.run_rows(figures)
    figures["tls"] = hall_tls.tls_figures()
    rows += hall_tls.rows(figures["tls"])
    figures["scale"] = hall_scale.scale_figures(repeat=3)
    rows += hall_scale.scale_rows(figures["scale"])
    return figures, rows


def _part(name, args):
    """One part of the hall's figures alone (``--scale``, ``--tls``, ``--guard``) and its rows."""
    if name == "scale":
        from bench import hall_scale

        group = args.group if args.group != hall_clocks.GROUP else hall_scale.SCALE_GROUP
        seconds = args.seconds if args.seconds != 20.0 else hall_scale.RUN_SECONDS
        figures = hall_scale.scale_figures(seconds, group=group, repeat=args.repeat)
        return figures, hall_scale.scale_rows(figures)
    if name == "audit":
        from bench import hall_audit

        figures = hall_audit.audit_figures()
        return figures, hall_audit.rows(figures)
    if name == "tls":
        from bench import hall_tls

        figures = hall_tls.tls_figures()
        return figures, hall_tls.rows(figures)
    from bench import hall_guard

    figures = hall_guard.guard_figures()
    return figures, hall_guard.rows(figures)


def _print_rows(rows):
    from bench import goals

    goals.print_table(rows)


def _store(name, figures):
    """Put ``figures`` under ``name`` in the ``hall`` key of bench/latest.json, the rest of
    ``hall`` and the other keys kept."""
    kept = {}
    if os.path.exists(results.LATEST):
        with open(results.LATEST) as handle:
            kept = json.load(handle).get("hall", {})
    kept[name] = figures
    results.update("hall", kept)
    print("written to bench/latest.json (%s, in hall)" % name)


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench.hall")
    parser.add_argument("--clocks", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--flood", type=int, default=0, help="board 1's account sends this many malformed messages"
    )
    parser.add_argument(
        "--venues",
        type=int,
        default=0,
        help="split the clocks over this many brokers bridged to a central one; print only",
    )
    parser.add_argument("--pages", type=int, default=1, help="open event streams (pages)")
    parser.add_argument(
        "--gate",
        action="store_true",
        help="every clock and the view through the broker's login gate (hall.gate); print only",
    )
    parser.add_argument(
        "--group",
        type=int,
        default=hall_clocks.GROUP,
        help="clocks per driving process (default %(default)s)",
    )
    parser.add_argument(
        "--scale",
        action="store_true",
        help="only the scale runs: 1,000 and 2,000 clocks, 1 and 16 pages, 5 venues bridged",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="with --scale: runs of each cell (the median p99)"
    )
    parser.add_argument(
        "--tls",
        action="store_true",
        help="only the TLS handshake's figures per hall board (bench/hall_tls.py)",
    )
    parser.add_argument(
        "--write",
        action="store_true",
        help="with --scale, --tls or --guard: store them in the hall key of bench/latest.json",
    )
    parser.add_argument(
        "--guard",
        action="store_true",
        help="only the guard's figures (bench/hall_guard.py)",
    )
    parser.add_argument(
        "--audit",
        action="store_true",
        help="only the audit's figures: the page's order, the arbiter's share, two views, "
        "idle sockets, the boot's window (bench/hall_audit.py)",
    )
    args = parser.parse_args(argv)
    for name in ("scale", "tls", "guard", "audit"):
        if getattr(args, name):
            figures, rows = _part(name, args)
            _print_rows(rows)
            if args.write:
                _store(name, figures)
            return 0
    if (
        args.clocks != 200
        or args.venues
        or args.flood
        or args.pages != 1
        or args.group != hall_clocks.GROUP
        or args.gate
    ):
        # a large open, several venues or pages: figures printed, bench/latest.json left alone
        figures = hall_figures(
            args.clocks,
            args.seconds,
            venues=args.venues,
            flood=args.flood,
            pages=args.pages,
            group=args.group,
            gate=args.gate,
        )
        print(json.dumps(figures, indent=1))
        return 0
    figures, rows = figures_and_rows(args.clocks, args.seconds)
    _print_rows(rows)
    results.update("hall", figures)
    print("written to bench/latest.json (hall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
