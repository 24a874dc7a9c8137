"""The hall's firewall (hall/firewall.py) against a real Mosquitto, run in a network
namespace of its own (``unshare -n``: its own loopback and its own nftables ruleset,
nothing of the machine's touched): prints what each limit let through as JSON.

    unshare -n .venv/bin/python -m bench.hall_firewall_probe
"""

import json
import os
import socket
import subprocess
import sys
import time

from hall import firewall
from hall.broker import Broker
from hall.probe import connect_packet, read_connack

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_in_namespace(timeout_s=120):
    """This probe run in a network namespace of its own (needs root, unshare and nft):
    the finished process, its JSON on its last line."""
    return subprocess.run(
        ["unshare", "-n", sys.executable, "-m", "bench.hall_firewall_probe"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )


def connect(broker, source):
    """A TCP connection from ``source`` (a loopback address), or None if reset."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(3)
    try:
        sock.connect((broker.host, broker.port))
    except OSError:
        sock.close()
        return None
    return sock


def login(broker, source, user, password):
    """The CONNACK's code for ``user``'s login from ``source``; None if the connection
    was refused before a word."""
    sock = connect(broker, source)
    if sock is None:
        return None
    try:
        sock.sendall(connect_packet(user.encode(), user.encode(), password.encode()))
        answer = read_connack(sock)
        return answer[3] if len(answer) == 4 else None
    except OSError:
        return None
    finally:
        sock.close()


def main():
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    with Broker([1, 2]) as broker:
        rules = firewall.ruleset(broker.port)
        subprocess.run(["nft", "-f", "-"], input=rules.encode(), check=True)
        found = {}
        # Idle sockets from one address: at the limit, and one past it.
        idle = [connect(broker, "127.0.0.5") for _ in range(firewall.PER_ADDRESS + 1)]
        found["idle_admitted"] = sum(sock is not None for sock in idle)
        time.sleep(0.3)
        found["idle_held"] = 0
        for sock in idle:
            if sock is None:
                continue
            sock.settimeout(0.05)
            try:
                found["idle_held"] += sock.recv(1) != b""
            except TimeoutError:
                found["idle_held"] += 1
            except OSError:
                pass
        # Another address, a clock, logs in all the same.
        found["clock_beside_them"] = login(
            broker, "127.0.0.6", "clock-1", broker.passwords["clock-1"]
        )
        for sock in idle:
            if sock is not None:
                sock.close()
        # Wrong passwords from one address: answered (code 5) up to the burst, then reset.
        codes = [login(broker, "127.0.0.7", "clock-2", "guess-%d" % n) for n in range(20)]
        found["guesses_answered"] = sum(code == 5 for code in codes)
        found["guesses_reset"] = sum(code is None for code in codes)
        found["first_reset_at"] = codes.index(None) if None in codes else None
        # The right password from that address waits too; from another it goes in.
        found["right_password_same_address"] = login(
            broker, "127.0.0.7", "clock-2", broker.passwords["clock-2"]
        )
        found["right_password_other_address"] = login(
            broker, "127.0.0.8", "clock-2", broker.passwords["clock-2"]
        )
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
