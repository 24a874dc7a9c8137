"""The hall host's firewall in front of the broker's port (nftables), per address.

Debian 12's Mosquitto 2.0.11 has no option that closes a socket which never sends
CONNECT within seconds (it waits 1.5 times its 60 s default keepalive) nor one that
slows repeated wrong passwords (``man mosquitto.conf``), and the one plugin the
package ships, ``mosquitto_dynamic_security.so``, manages accounts and does neither.
The hall's login gate (``hall.gate``), its one listener, does both; the kernel in
front of the gate adds, per address on the hall's network, on the hall's port only:

- at most ``PER_ADDRESS`` connections open at once (a clock holds one; the arbiter's
  computer its views and a push): one laptop's idle sockets take at most that many of
  the broker's places, not all of them;
- new connections at most ``NEW_PER_MINUTE`` a minute after a burst of ``BURST``: a
  wrong password costs a connection (the broker closes it after its refusal), so a
  guesser gets ``NEW_PER_MINUTE`` tries a minute. A clock's reconnections back off
  from 1 s doubling to 30 s and stay well inside it.

A connection over either is reset at once. ``hall.accounts`` writes the ruleset as
``hall-firewall.nft`` beside the broker's configuration; ``nft -f`` loads it (as root)
and ``nft delete table inet hall_broker`` removes it. IPv4 only: the broker listens on
an IPv4 address (``hall.accounts --listen``).
"""

PER_ADDRESS = 4
NEW_PER_MINUTE = 6
BURST = 12
TABLE = "hall_broker"

_RULESET = """# The hall broker's guard (hall/firewall.py): per address on the hall's network, at
# most %(per_address)d connections to port %(port)d at once, and new ones at most
# %(per_minute)d a minute after a burst of %(burst)d (a wrong password costs one).
# Load: nft -f hall-firewall.nft    Remove: nft delete table inet %(table)s
table inet %(table)s {
	set open_connections {
		type ipv4_addr
		size 65535
		flags dynamic
	}
	set new_connections {
		type ipv4_addr
		size 65535
		flags dynamic,timeout
		timeout 10m
	}
	chain input {
		type filter hook input priority filter; policy accept;
		%(open_rule)s
		%(new_rule)s
	}
}
"""


def ruleset(port, per_address=PER_ADDRESS, per_minute=NEW_PER_MINUTE, burst=BURST, table=TABLE):
    """The nftables ruleset that guards the broker's ``port`` (text for ``nft -f``)."""
    if not 0 < port < 65536:
        raise ValueError("port 1..65535, got %r" % (port,))
    values = {"port": port, "per_address": per_address, "per_minute": per_minute}
    values.update(burst=burst, table=table)
    new = "tcp dport %d ct state new add " % port
    values["open_rule"] = new + (
        "@open_connections { ip saddr ct count over %d } counter reject with tcp reset"
        % per_address
    )
    values["new_rule"] = new + (
        "@new_connections { ip saddr limit rate over %d/minute burst %d packets } "
        "counter reject with tcp reset" % (per_minute, burst)
    )
    return _RULESET % values
