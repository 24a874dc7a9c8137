"""An event in several venues: each venue's Mosquitto bridged to a central one.

Each venue has its own broker, its clocks' accounts and ACL as in one hall
(``hall.broker.acl_text``). Mosquitto's own bridge, configured on the venue's
side (``venue_bridge``), connects to the central broker with the venue's
account ``venue-NAME`` and carries the venue's boards out (``PREFIX/board/#``)
and the arbiter's settings in (``PREFIX/settings``). On the central side the
venue's account may write only its own boards' topics and read the settings
(``central_acl``): a venue's clocks can never publish another venue's boards,
whatever their broker forwards. The view and the arbiter use the central
broker, one view over all venues. Between venues the bridge speaks TLS and checks the
central broker's certificate against the event's CA (``hall.accounts``).
"""

VENUE_PREFIX = "venue-"


def venue_user(name):
    return VENUE_PREFIX + name


def check_venue_name(name):
    if (
        not name
        or len(name) > 32
        or not all(c.isascii() and (c.isalnum() or c in "-_") for c in name)
    ):
        raise ValueError("venue name %r: 1-32 letters, digits, - or _" % name)
    return name


def venue_bridge(name, central_host, central_port, password, prefix, cafile=None):
    """The lines a venue's ``mosquitto.conf`` gets to bridge to the central broker; with
    ``cafile`` (the event's CA) over TLS, the central broker's certificate checked."""
    lines = (
        "connection %s\n"
        "address %s:%d\n"
        "remote_clientid %s\n"
        "remote_username %s\n"
        "remote_password %s\n"
        "cleansession true\n"
        "restart_timeout 1 30\n"
        "topic %s/board/# out 0\n"
        "topic %s/settings in 0\n"
        % (
            venue_user(name),
            central_host,
            central_port,
            venue_user(name),
            venue_user(name),
            password,
            prefix,
            prefix,
        )
    )
    if cafile is not None:
        lines += "bridge_cafile %s\nbridge_insecure false\nbridge_tls_version tlsv1.2\n" % cafile
    return lines


def central_acl(venues, prefix):
    """ACL lines of the central broker for ``venues`` (name -> board numbers)."""
    lines = []
    for name, boards in venues.items():
        lines.append("user %s" % venue_user(name))
        for board in boards:
            lines.append("topic write %s/board/%d" % (prefix, board))
            lines.append("topic write %s/board/%d/status" % (prefix, board))
        lines += ["topic read %s/settings" % prefix, ""]
    return "\n".join(lines)
