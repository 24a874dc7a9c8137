"""A real hall's accounts and files: the broker's password file, ACL, CA and certificate,
a hall file per board, the view's and the arbiter's accounts.

    python -m hall.accounts --boards 1-100 --broker 192.168.1.10 --ssid Hall --out hall-setup

asks for the Wi-Fi's password (or reads it from ``HALL_WIFI_PASSWORD``) and
writes into ``--out`` (a new folder, readable by its owner alone):

- ``passwd`` (hashed with ``mosquitto_passwd``) and ``acl``: the accounts of
  docs/hall.md (``clock-N`` writes only its board, ``view`` reads, ``arbiter``
  alone writes the settings), each clock with a password of its own;
- ``ca.crt``/``ca.key`` (the hall's own certificate authority, ``hall.tls``) and
  ``broker.crt``/``broker.key`` (the broker's certificate for ``--broker``);
- ``mosquitto.conf`` (``hall.broker_conf``): a plain listener on 127.0.0.1 at
  ``--broker-port`` (18883), the client id bound to the login, the size and connection
  limits; ``hall-broker.service``, a systemd unit that runs it with its open-file
  limit; ``hall-gate.service``, the login gate (``hall.gate``) that the broker's unit
  starts and stops with it: the hall's one listener, TLS on ``--listen`` at ``--port``
  (8883), which closes sockets that do not log in within seconds and makes repeated
  wrong passwords wait (what Mosquitto 2.0.11 cannot do);
- ``hall-board-N.json`` for every board (with the CA), flashed with
  ``make hall-flash HALL_FILE=hall-setup/hall-board-N.json PORT=...``;
- ``view.json``, ``view-2.json``, ``view-3.json`` (``--views``) and
  ``arbiter.json``, ``arbiter-2.json`` (``--arbiters``) for ``python -m hall.view``
  and ``python -m hall.push`` (with the CA's file): one file per program, since one
  login holds one session and two programs on one would take it from each other;
- ``boards.json``: which account writes which board (``--renumber`` changes it).

With ``--venue NAME=BROKER:BOARDS`` (once per venue) and ``--central HOST``
instead of ``--boards`` and ``--broker``, it writes an event in several
venues: ``central/`` for the central broker (the view's and the arbiter's
accounts, an account per venue that may write only that venue's boards) and
a folder per venue whose ``mosquitto.conf`` bridges to the central broker
over TLS (``hall.bridge``).

A password is never printed, and no two clocks share one (``--one-password``
is refused: any clock's file could then log in as every board). A clock moved
to another board keeps its account and its password:

    python -m hall.accounts --renumber 7=12 --out hall-setup

rewrites the ACL so that the account of the clock flashed as board 7 writes
board 12 (and nothing else), and says how to make the broker read it again;
the clock is set to 12 in its setup menu (``bd``).
"""

import argparse
import getpass
import json
import os
import secrets
import subprocess
import sys

from firmware import hall_settings
from hall import bridge, firewall, gate_login
from hall import broker as broker_module
from hall import gate as gate_module


def board_numbers(text):
    """``1-100,120`` -> [1, ..., 100, 120]; ValueError for anything else."""
    numbers = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        low = int(first)
        high = int(last) if last else low
        if not 1 <= low <= high <= hall_settings.MAX_BOARD:
            raise ValueError("boards %r: 1..%d, low to high" % (part, hall_settings.MAX_BOARD))
        numbers.extend(range(low, high + 1))
    if len(set(numbers)) != len(numbers):
        raise ValueError("a board is named twice in %r" % text)
    return numbers


def broker_account():
    """Mosquitto's own user when we run as root (it drops to it before it reads the
    password file and the ACL), else None: the broker then runs as we do."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    try:
        import pwd

        return pwd.getpwnam("mosquitto")
    except (ImportError, KeyError):
        return None


def closed_folder(path, account):
    """The first folder above ``path`` that ``account`` cannot pass through, or None."""
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        info = os.stat(folder)
        if not (info.st_mode & 0o001 or info.st_uid == account.pw_uid):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


SERVICE = """[Unit]
Description=The tournament hall's broker (Mosquitto, %(out)s)
After=network-online.target
Wants=network-online.target
# the hall's listener is its login gate (hall-gate.service): started and stopped with it
Wants=hall-gate.service

[Service]
ExecStart=%(mosquitto)s -c %(conf)s
ExecReload=/bin/kill -HUP $MAINPID
# max_connections of its listeners and the broker's own files (hall.broker_conf)
LimitNOFILE=%(files)d
Restart=on-failure
RestartSec=2

[Install]
WantedBy=multi-user.target
"""
TLS_PORT = 8883
BROKER_PORT = 18883  # Mosquitto's own listener, on loopback behind the gate
PLAN = "boards.json"  # account -> board, for --renumber


def _private(out, name, text):
    path = os.path.join(out, name)
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
        handle.write(text)
    return path


def write_setup(
    out,
    boards,
    broker,
    port,
    ssid,
    wifi_password,
    prefix,
    listen,
    extra_users=(),
    extra_acl="",
    extra_conf="",
    view_boards=None,
    ca=None,
    views=3,
    arbiters=2,
    broker_port=BROKER_PORT,
):
    """Write one broker's folder; its accounts' passwords. ``extra_*``: the bridge's
    accounts, ACL lines and configuration (``hall.bridge``); ``view_boards``: the boards
    the view shows (default ``boards``); ``ca``: the CA's (certificate, key) files (an
    event's, shared by its brokers), else one is made in ``out``; ``views`` and
    ``arbiters``: how many view accounts and arbiter's tool accounts (one per program:
    one login holds one session); ``broker_port``: Mosquitto's, on loopback behind the
    login gate, which listens on ``listen`` at ``port``."""
    from hall import broker_conf, gate_process, tls

    if broker_port == port:
        raise ValueError("--broker-port %d is the gate's --port: give it another" % port)
    hall_settings.check_prefix(prefix)
    account = broker_account()
    if account is not None:
        closed = closed_folder(out, account)
        if closed is not None:
            raise ValueError(
                "mosquitto runs as its own user and cannot pass through %s (mode %o): "
                "give --out a folder it can reach, such as /srv/hall-setup"
                % (closed, os.stat(closed).st_mode & 0o777)
            )
    os.makedirs(out, mode=0o700)
    view_users = broker_module.numbered("view", views)
    arbiter_users = broker_module.numbered("arbiter", arbiters)
    passwords = {user: secrets.token_urlsafe(12) for user in view_users + arbiter_users}
    for board in boards:
        passwords[broker_module.clock_user(board)] = secrets.token_urlsafe(12)
    for user in extra_users:
        passwords[user] = secrets.token_urlsafe(12)
    lines = "".join("%s:%s\n" % pair for pair in passwords.items())
    passwd = _private(out, "passwd", lines)
    subprocess.run(["mosquitto_passwd", "-U", passwd], check=True, capture_output=True, timeout=600)
    owners = {broker_module.clock_user(board): board for board in boards}
    plan = {"prefix": prefix, "owners": owners, "extra_acl": extra_acl}
    plan.update(views=view_users, arbiters=arbiter_users)
    _private(out, PLAN, json.dumps(plan))
    acl_lines = broker_module.acl_text(boards, prefix, owners, view_users, arbiter_users)
    acl = _private(out, "acl", acl_lines + "\n" + extra_acl)
    if ca is None:
        ca = tls.make_ca(out)
    certfile, keyfile = tls.make_server(out, ca[0], ca[1], broker)
    connections = broker_conf.connection_limit(len(passwords))
    # TLS ends at the gate; Mosquitto speaks plain MQTT on loopback, to the gate alone
    listeners = [(broker_port, broker_module.HOST, connections, None)]
    conf = _private(
        out,
        "mosquitto.conf",
        broker_conf.conf_text(os.path.abspath(passwd), os.path.abspath(acl), listeners)
        + extra_conf,
    )
    _private(
        out,
        "hall-broker.service",
        SERVICE
        % {
            "out": os.path.abspath(out),
            "mosquitto": broker_module._which("mosquitto") or "/usr/sbin/mosquitto",
            "conf": os.path.abspath(conf),
            "files": broker_conf.open_file_limit(listeners),
        },
    )
    gate = gate_process.command(
        [listen],
        port,
        broker_port,
        os.path.abspath(certfile),
        os.path.abspath(keyfile),
        None if account is None else {"user": account.pw_name},
    )
    _private(out, "hall-gate.service", gate_process.service_text(out, gate, connections))
    # what the broker cannot do itself, per address, at the host (hall.firewall)
    _private(out, "hall-firewall.nft", firewall.ruleset(port))
    with open(ca[0]) as handle:
        ca_text = handle.read()
    for board in boards:
        user = broker_module.clock_user(board)
        data = {
            "ssid": ssid,
            "wifi_password": wifi_password,
            "broker": broker,
            "port": port,
            "user": user,
            "password": passwords[user],
            "board": board,
            "prefix": prefix,
            "ca": ca_text,
            "version": 1,
        }
        hall_settings.Hall(data)  # what a clock will check
        _private(out, "hall-board-%d.json" % board, json.dumps(data))
    arbiter_key = secrets.token_urlsafe(16)  # the arbiter's devices' share of each view
    _private(out, "arbiter-key.txt", arbiter_key + "\n")
    for user in view_users + arbiter_users:
        data = {"broker": broker, "port": port, "user": user, "prefix": prefix}
        if user in view_users:
            data["arbiter_key"] = arbiter_key
        data["password"] = passwords[user]
        data["ca"] = os.path.abspath(ca[0])
        if user in view_users:
            shown = boards if view_boards is None else view_boards
            data["boards"] = ",".join(str(board) for board in shown)
        _private(out, "%s.json" % user, json.dumps(data))
    if account is not None:
        # The broker's files become Mosquitto's (still closed to everybody else); the
        # folder opens for passing through only: its other files stay root's, 0600.
        for name in ("passwd", "acl", "mosquitto.conf", "broker.crt", "broker.key"):
            os.chown(os.path.join(out, name), account.pw_uid, account.pw_gid)
        os.chmod(out, 0o711)
    return passwords


def renumber(out, moves):
    """Move clocks to other boards: ``moves`` (old board -> new board, as flashed) gives
    the account of the clock flashed as ``old`` the board ``new``, its password kept.
    Rewrites ``acl`` and ``boards.json``; ValueError for a board no account has or one
    that two accounts would write."""
    with open(os.path.join(out, PLAN)) as handle:
        plan = json.load(handle)
    owners = plan["owners"]
    for old, new in moves.items():
        hall_settings.check_board(new)
        user = broker_module.clock_user(old)
        if user not in owners:
            raise ValueError("no clock was flashed as board %d in %s" % (old, out))
        owners[user] = new
    written = list(owners.values())
    if len(set(written)) != len(written):
        raise ValueError("two clocks would write the same board: %s" % sorted(moves.items()))
    acl_path = os.path.join(out, "acl")
    views = plan.get("views", ["view"])  # a hall written before there were several
    arbiters = plan.get("arbiters", ["arbiter"])
    text = broker_module.acl_text([], plan["prefix"], owners, views, arbiters)
    text += "\n" + plan["extra_acl"]
    for path, content in ((acl_path, text), (os.path.join(out, PLAN), json.dumps(plan))):
        info = os.stat(path)
        temporary = path + ".new"
        with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(content)
        if hasattr(os, "chown"):
            os.chown(temporary, info.st_uid, info.st_gid)
        os.replace(temporary, path)
    return owners


def moves_argument(text):
    """``7=12,12=7`` -> {7: 12, 12: 7}."""
    moves = {}
    for part in text.split(","):
        old, sep, new = part.partition("=")
        if not sep or not old.isdigit() or not new.isdigit():
            raise ValueError("--renumber %r: OLD=NEW[,OLD=NEW], such as 7=12" % part)
        moves[int(old)] = int(new)
    return moves


def venue(text):
    """``north=192.168.1.10:1-200`` -> ("north", "192.168.1.10", [1, ..., 200])."""
    name, _, rest = text.partition("=")
    host, _, boards = rest.rpartition(":")
    if not host:
        raise ValueError("--venue %r: NAME=BROKER:BOARDS, such as north=192.168.1.10:1-200" % text)
    return bridge.check_venue_name(name), host, board_numbers(boards)


MAX_PROGRAMS = 16  # view or arbiter accounts of one kind


def program_files(views, arbiters):
    """The account files of the views and the arbiter's tools, as written."""
    users = broker_module.numbered("view", views) + broker_module.numbered("arbiter", arbiters)
    return [user + ".json" for user in users]


def write_event(
    out,
    venues,
    central,
    port,
    ssid,
    wifi_password,
    prefix,
    listen,
    views=3,
    arbiters=2,
    broker_port=BROKER_PORT,
):
    """An event in several venues: ``out/central`` (the central broker, the view's and
    the arbiter's accounts) and ``out/NAME`` per venue, its broker bridged to the
    central one over TLS (``hall.bridge``); one CA for all (``out/ca.crt``)."""
    from hall import tls

    every = [board for _, _, boards in venues for board in boards]
    if len(set(every)) != len(every):
        raise ValueError("a board belongs to two venues")
    if len({name for name, _, _ in venues}) != len(venues):
        raise ValueError("a venue is named twice")
    os.makedirs(out, mode=0o700)
    if broker_account() is not None:
        os.chmod(out, 0o711)  # Mosquitto's own user passes through to its files
    ca = tls.make_ca(out)
    plan = {name: boards for name, _, boards in venues}
    shared = (port, ssid, wifi_password, prefix, listen)
    passwords = write_setup(
        os.path.join(out, "central"),
        [],
        central,
        *shared,
        extra_users=[bridge.venue_user(name) for name in plan],
        extra_acl=bridge.central_acl(plan, prefix),
        view_boards=sorted(every),
        ca=ca,
        views=views,
        arbiters=arbiters,
        broker_port=broker_port,
    )
    for name, host, boards in venues:
        link = bridge.venue_bridge(
            name, central, port, passwords[bridge.venue_user(name)], prefix, os.path.abspath(ca[0])
        )
        write_setup(
            os.path.join(out, name),
            boards,
            host,
            *shared,
            extra_conf=link,
            ca=ca,
            broker_port=broker_port,
        )


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m hall.accounts", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--boards", help="board numbers: 1-100 or 1-60,101-140")
    parser.add_argument("--broker", help="the broker's address in the hall")
    parser.add_argument("--port", type=int, default=TLS_PORT, help="the broker's TLS port")
    parser.add_argument("--ssid", default="", help="the hall's Wi-Fi (empty: none to join)")
    parser.add_argument("--prefix", default="hall")
    parser.add_argument(
        "--listen", default="0.0.0.0", help="the hall's listening address (the login gate's)"
    )
    parser.add_argument(
        "--broker-port",
        type=int,
        default=BROKER_PORT,
        help="Mosquitto's own port, on 127.0.0.1 behind the gate (default %(default)s)",
    )
    parser.add_argument("--one-password", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", required=True, help="a new folder for the files")
    parser.add_argument("--renumber", help="OLD=NEW[,...]: clocks moved in --out's hall")
    parser.add_argument(
        "--venue",
        action="append",
        default=[],
        help="NAME=BROKER:BOARDS, once per venue (with --central instead of --boards/--broker)",
    )
    parser.add_argument("--central", help="the central broker's address, for --venue")
    parser.add_argument(
        "--views",
        type=int,
        default=3,
        help="view accounts, one per computer running hall.view (default 3)",
    )
    parser.add_argument(
        "--arbiters",
        type=int,
        default=2,
        help="arbiter accounts, one per computer pushing settings (default 2)",
    )
    args = parser.parse_args(argv)
    if args.one_password:
        parser.error(
            "--one-password is refused: with one password any clock's file logs in as every "
            "board. Each clock has its own; a clock moved to another board keeps it "
            "(--renumber OLD=NEW --out SETUP)"
        )
    if args.renumber:
        return _renumber_main(parser, args)
    try:
        if args.venue:
            if not args.central or args.boards or args.broker:
                raise ValueError("--venue goes with --central, without --boards and --broker")
            venues = [venue(text) for text in args.venue]
        else:
            if not args.boards or not args.broker:
                raise ValueError("--boards and --broker are needed (or --venue and --central)")
            boards = board_numbers(args.boards)
    except ValueError as error:
        parser.error(str(error))
    if os.path.exists(args.out):
        parser.error("--out %s exists already; give a new folder" % args.out)
    if not os.path.isdir(os.path.dirname(os.path.abspath(args.out))):
        parser.error("--out %s: its parent folder does not exist" % args.out)
    wifi_password = os.environ.get("HALL_WIFI_PASSWORD")
    if wifi_password is None:
        wifi_password = (
            getpass.getpass("the Wi-Fi's password (empty for none): ") if args.ssid else ""
        )
    if not (1 <= args.views <= MAX_PROGRAMS and 1 <= args.arbiters <= MAX_PROGRAMS):
        parser.error("--views and --arbiters: 1 to %d each" % MAX_PROGRAMS)
    common = (args.port, args.ssid, wifi_password, args.prefix, args.listen)
    programs = {"views": args.views, "arbiters": args.arbiters, "broker_port": args.broker_port}
    try:
        if args.venue:
            write_event(args.out, venues, args.central, *common, **programs)
        else:
            write_setup(args.out, boards, args.broker, *common, **programs)
    except ValueError as error:
        parser.error(str(error))
    except (OSError, subprocess.SubprocessError) as error:
        raise SystemExit("hall.accounts: could not write %s: %s" % (args.out, error))
    if args.venue:
        print(
            "wrote %s: central/ and %s, each with passwd, acl, mosquitto.conf"
            % (args.out, ", ".join(name + "/" for name, _, _ in venues))
        )
    else:
        print(
            "wrote %s: passwd, acl, the CA and the broker's certificate, mosquitto.conf, "
            "hall-broker.service, hall-gate.service, hall-firewall.nft, %d hall files, %s"
            % (args.out, len(boards), ", ".join(program_files(args.views, args.arbiters)))
        )
    if not args.venue:
        with open(os.path.join(args.out, "arbiter-key.txt")) as handle:
            key = handle.read().strip()
        print(
            "the arbiter's phones, once each (the page keeps the key): "
            "http://VIEW-ADDRESS:PORT/#key=%s (hall.view prints it with its address)" % key
        )
    print(
        "on the broker's host, as root: cp hall-broker.service hall-gate.service "
        "/etc/systemd/system/ && systemctl enable --now hall-broker (its login gate, "
        "hall.gate, listens on %s:%d: a socket without a login is closed after %d s, and "
        "an address's repeated wrong passwords wait up to %d s)"
        % (args.listen, args.port, gate_module.LOGIN_S, gate_login.MAX_WAIT_S)
    )
    print(
        "on the broker's host, as root: nft -f hall-firewall.nft (per address, %d "
        "connections at once and %d new ones a minute: idle sockets and password guesses)"
        % (firewall.PER_ADDRESS, firewall.NEW_PER_MINUTE)
    )
    print(
        "one account file per program: each view (the arbiter's computer, a wall PC, a "
        "backup laptop) and each computer that pushes settings uses a file of its own; "
        "two programs on one file take the session from each other"
    )
    return 0


def _renumber_main(parser, args):
    try:
        owners = renumber(args.out, moves_argument(args.renumber))
    except (OSError, ValueError, KeyError) as error:
        parser.error("--renumber: %s" % error)
    moved = ", ".join(
        "%s writes board %d" % (user, board)
        for user, board in owners.items()
        if broker_module.clock_user(board) != user
    )
    print(
        "rewrote %s/acl (%s); the broker reads it again on SIGHUP: "
        "systemctl reload hall-broker (or kill -HUP its process)" % (args.out, moved or "no move")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
