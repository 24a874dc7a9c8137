"""A real hall's accounts and files: the broker's password file and ACL, a hall file per
board, the view's and the arbiter's accounts.

    python -m hall.accounts --boards 1-100 --broker 192.168.1.10 --ssid Hall --out hall-setup

asks for the Wi-Fi's password (or reads it from ``HALL_WIFI_PASSWORD``) and
writes into ``--out`` (a new folder, readable by its owner alone):

- ``passwd`` (hashed with ``mosquitto_passwd``) and ``acl``: the accounts of
  docs/hall.md (``clock-N`` writes only board N, ``view`` reads, ``arbiter``
  alone writes the settings);
- ``mosquitto.conf``: a listener on ``--listen`` (the hall's own network) with
  those two files;
- ``hall-board-N.json`` for every board, flashed with
  ``make hall-flash HALL_FILE=hall-setup/hall-board-N.json PORT=...``;
- ``view.json`` and ``arbiter.json`` for ``python -m hall.view`` and
  ``python -m hall.push``.

With ``--venue NAME=BROKER:BOARDS`` (once per venue) and ``--central HOST``
instead of ``--boards`` and ``--broker``, it writes an event in several
venues: ``central/`` for the central broker (the view's and the arbiter's
accounts, an account per venue that may write only that venue's boards) and
a folder per venue whose ``mosquitto.conf`` bridges to the central broker
(``hall.bridge``).

A password is never printed. ``--one-password`` gives every clock the same
password, so that a clock renumbered in the setup menu still logs in (as
``clock-N`` of its new number); without it each clock has its own.
"""

import argparse
import getpass
import json
import os
import secrets
import subprocess
import sys

from firmware import hall_settings
from hall import bridge
from hall import broker as broker_module


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


def write_setup(
    out,
    boards,
    broker,
    port,
    ssid,
    wifi_password,
    prefix,
    listen,
    one_password,
    extra_users=(),
    extra_acl="",
    extra_conf="",
    view_boards=None,
):
    """Write one broker's folder; its accounts' passwords. ``extra_*``: the bridge's
    accounts, ACL lines and configuration (``hall.bridge``); ``view_boards``: the boards
    the view shows (default ``boards``)."""
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
    passwords = {"view": secrets.token_urlsafe(12), "arbiter": secrets.token_urlsafe(12)}
    shared = secrets.token_urlsafe(12)
    for board in boards:
        passwords[broker_module.clock_user(board)] = (
            shared if one_password else (secrets.token_urlsafe(12))
        )
    for user in extra_users:
        passwords[user] = secrets.token_urlsafe(12)

    def private(name, text):
        path = os.path.join(out, name)
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
            handle.write(text)
        return path

    lines = "".join("%s:%s\n" % pair for pair in passwords.items())
    passwd = private("passwd", lines)
    subprocess.run(["mosquitto_passwd", "-U", passwd], check=True, capture_output=True, timeout=600)
    private("acl", broker_module.acl_text(boards, prefix) + "\n" + extra_acl)
    private(
        "mosquitto.conf",
        "listener %d %s\nallow_anonymous false\npassword_file %s\nacl_file %s\n"
        % (port, listen, os.path.abspath(passwd), os.path.abspath(os.path.join(out, "acl")))
        + extra_conf,
    )
    for board in boards:
        user = broker_module.clock_user(board)
        data = {
            "ssid": ssid,
            "wifi_password": wifi_password,
            "broker": broker,
            "port": port,
            "user": "" if one_password else user,
            "password": passwords[user],
            "board": board,
            "prefix": prefix,
            "version": 1,
        }
        hall_settings.Hall(data)  # what a clock will check
        private("hall-board-%d.json" % board, json.dumps(data))
    for user in ("view", "arbiter"):
        data = {"broker": broker, "port": port, "user": user, "prefix": prefix}
        data["password"] = passwords[user]
        if user == "view":
            shown = boards if view_boards is None else view_boards
            data["boards"] = ",".join(str(board) for board in shown)
        private("%s.json" % user, json.dumps(data))
    if account is not None:
        # The broker's three files become Mosquitto's (still closed to everybody else);
        # the folder opens for passing through only: its other files stay root's, 0600.
        for name in ("passwd", "acl", "mosquitto.conf"):
            os.chown(os.path.join(out, name), account.pw_uid, account.pw_gid)
        os.chmod(out, 0o711)
    return passwords


def venue(text):
    """``north=192.168.1.10:1-200`` -> ("north", "192.168.1.10", [1, ..., 200])."""
    name, _, rest = text.partition("=")
    host, _, boards = rest.rpartition(":")
    if not host:
        raise ValueError("--venue %r: NAME=BROKER:BOARDS, such as north=192.168.1.10:1-200" % text)
    return bridge.check_venue_name(name), host, board_numbers(boards)


def write_event(out, venues, central, port, ssid, wifi_password, prefix, listen, one_password):
    """An event in several venues: ``out/central`` (the central broker, the view's and
    the arbiter's accounts) and ``out/NAME`` per venue, its broker bridged to the
    central one (``hall.bridge``)."""
    every = [board for _, _, boards in venues for board in boards]
    if len(set(every)) != len(every):
        raise ValueError("a board belongs to two venues")
    if len({name for name, _, _ in venues}) != len(venues):
        raise ValueError("a venue is named twice")
    os.makedirs(out, mode=0o700)
    if broker_account() is not None:
        os.chmod(out, 0o711)  # Mosquitto's own user passes through to its files
    plan = {name: boards for name, _, boards in venues}
    shared = (port, ssid, wifi_password, prefix, listen, one_password)
    passwords = write_setup(
        os.path.join(out, "central"),
        [],
        central,
        *shared,
        extra_users=[bridge.venue_user(name) for name in plan],
        extra_acl=bridge.central_acl(plan, prefix),
        view_boards=sorted(every),
    )
    for name, host, boards in venues:
        link = bridge.venue_bridge(name, central, port, passwords[bridge.venue_user(name)], prefix)
        write_setup(os.path.join(out, name), boards, host, *shared, extra_conf=link)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m hall.accounts", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--boards", help="board numbers: 1-100 or 1-60,101-140")
    parser.add_argument("--broker", help="the broker's address in the hall")
    parser.add_argument("--port", type=int, default=1883)
    parser.add_argument("--ssid", default="", help="the hall's Wi-Fi (empty: none to join)")
    parser.add_argument("--prefix", default="hall")
    parser.add_argument("--listen", default="0.0.0.0", help="the broker's listening address")
    parser.add_argument("--one-password", action="store_true")
    parser.add_argument("--out", required=True, help="a new folder for the files")
    parser.add_argument(
        "--venue",
        action="append",
        default=[],
        help="NAME=BROKER:BOARDS, once per venue (with --central instead of --boards/--broker)",
    )
    parser.add_argument("--central", help="the central broker's address, for --venue")
    args = parser.parse_args(argv)
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
    common = (args.port, args.ssid, wifi_password, args.prefix, args.listen, args.one_password)
    try:
        if args.venue:
            write_event(args.out, venues, args.central, *common)
        else:
            write_setup(args.out, boards, args.broker, *common)
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
            "wrote %s: passwd, acl, mosquitto.conf, %d hall files, view.json, arbiter.json"
            % (args.out, len(boards))
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
