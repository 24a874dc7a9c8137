"""The hall host's firewall (hall/firewall.py, nftables) in front of a real Mosquitto,
in a network namespace of its own (``unshare -n``): nothing of the machine's network or
firewall is touched. Idle sockets from one address at the limit and one past it; wrong
passwords from one address answered up to the burst, then reset; the clocks at other
addresses log in all the same."""

import json
import os
import shutil

import pytest

from bench import hall_firewall_probe
from hall import firewall
from tests.hall_helpers import need_broker

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def need_namespace():
    if shutil.which("nft") is None and not os.path.exists("/usr/sbin/nft"):
        pytest.skip("Debian's nftables is not installed: make hall-tools")
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("a network namespace of its own needs root and unshare")


def test_the_firewall_holds_one_address_to_its_share_and_slows_its_guesses():
    need_broker()
    need_namespace()
    done = hall_firewall_probe.run_in_namespace()
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    # at the limit the sockets are taken and held; one past it is reset at once
    assert found["idle_admitted"] == firewall.PER_ADDRESS == found["idle_held"]
    assert found["clock_beside_them"] == 0  # CONNACK 0: another address logs in
    # the burst of wrong passwords is answered (CONNACK 5), the next is reset
    assert found["guesses_answered"] == firewall.BURST == found["first_reset_at"]
    assert found["guesses_reset"] == 20 - firewall.BURST
    assert found["right_password_same_address"] is None  # that address waits
    assert found["right_password_other_address"] == 0


def test_the_ruleset_names_the_brokers_port_only():
    text = firewall.ruleset(8883)
    rules = [line.strip() for line in text.splitlines() if line.strip().startswith("tcp")]
    assert len(rules) == 2 and all(rule.startswith("tcp dport 8883 ") for rule in rules)
    with pytest.raises(ValueError):
        firewall.ruleset(0)
