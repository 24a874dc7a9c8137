"""A Mosquitto broker of the hall's own, on the loopback interface.

``Broker(boards)`` writes a temporary folder with a configuration, a password
file (``mosquitto_passwd``) and an ACL, then runs Debian's ``mosquitto``
on 127.0.0.1 at a free port; never the system's service. The accounts
(docs/hall.md):

- ``clock-N`` (one per board): may write ``PREFIX/board/N`` and its
  ``/status`` only, and read ``PREFIX/settings``;
- ``view``, ``view-2``, ``view-3`` (one per view): may read ``PREFIX/#`` and write nothing;
- ``arbiter``, ``arbiter-2`` (one per tool): may write ``PREFIX/settings`` and read
  everything;
- ``watch-1`` to ``watch-4`` (this broker only, never a hall's): read ``PREFIX/#``, so
  that tests can observe while the view and the arbiter hold their own sessions (one
  session per login: ``hall.broker_conf``).

Its configuration is a hall's (``hall.broker_conf``: the client id bound to the login,
``max_packet_size``, ``max_connections`` and the open-file limit), on a plain loopback
listener, or a TLS one with ``tls=True`` (the hall's own CA: ``hall.tls``). As in a
hall, a TLS broker is reached through the login gate (``hall.gate``: TLS, the login's
deadline, the wrong passwords' back-off) at ``port``, Mosquitto itself on a loopback
port of its own (``broker_port``); ``gate=True`` puts the gate in front of a plain one
too, ``gate=False`` leaves it out.

A forbidden publish is dropped by the broker without a word: tests check
what a subscriber receives.
"""

import os
import resource
import secrets
import shutil
import socket
import subprocess
import tempfile
import time

from hall import broker_conf

HOST = "127.0.0.1"
PREFIX = "hall"
MOSQUITTO_PACKAGES = "mosquitto mosquitto-clients"


def missing_tools():
    """The broker's programs that are not installed (Debian's mosquitto package)."""
    return [name for name in ("mosquitto", "mosquitto_passwd") if _which(name) is None]


def _which(name):
    return shutil.which(name) or (
        "/usr/sbin/" + name if os.path.exists("/usr/sbin/" + name) else None
    )


def free_port():
    """A TCP port on 127.0.0.1 nobody listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


WATCHERS = ("watch-1", "watch-2", "watch-3", "watch-4")


def clock_user(board):
    return "clock-%d" % board


def numbered(first, count):
    """``first``, then ``first-2`` ... ``first-count``: one account per view (the
    arbiter's computer, a wall PC, a backup laptop) or per arbiter's tool. One login
    holds one session (``hall.broker_conf``): two programs on one account would take
    the session from each other."""
    return [first] + ["%s-%d" % (first, n) for n in range(2, count + 1)]


VIEWS = numbered("view", 3)
ARBITERS = numbered("arbiter", 2)


def acl_text(boards, prefix=PREFIX, owners=None, views=VIEWS, arbiters=ARBITERS):
    """The broker's ACL for ``boards`` (board numbers); ``owners`` (account -> board)
    when a clock was moved to another board (``hall.accounts --renumber``), else each
    board's own ``clock-N``; ``views`` and ``arbiters``: their accounts."""
    if owners is None:
        owners = {clock_user(board): board for board in boards}
    lines = []
    for user in views:  # reads all; writes only its claim on its account (hall.view)
        lines += ["user %s" % user, "topic read %s/#" % prefix]
        lines += ["topic write %s/views/%s" % (prefix, user), ""]
    for user in arbiters:
        lines += [
            "user %s" % user,
            "topic readwrite %s/settings" % prefix,
            "topic read %s/#" % prefix,
            "",
        ]
    for user, board in owners.items():
        lines += [
            "user %s" % user,
            "topic write %s/board/%d" % (prefix, board),
            "topic write %s/board/%d/status" % (prefix, board),
            "topic read %s/settings" % prefix,
            "",
        ]
    return "\n".join(lines)


def _hand_to_broker_user(folder):
    """Started as root, mosquitto drops to its own user before it reads the password
    file and the ACL: give that user the folder (still closed to everybody else)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    try:
        import pwd

        account = pwd.getpwnam("mosquitto")
    except (ImportError, KeyError):
        return
    for path in [folder] + [os.path.join(folder, name) for name in os.listdir(folder)]:
        os.chown(path, account.pw_uid, account.pw_gid)


def _limit_open_files(count):
    """The broker's open-file limit (in the child, before it runs): ``count``, as a hall's
    systemd unit sets it with ``LimitNOFILE`` (never above the hard limit we have)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY:
        count = min(count, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, hard))


class Broker:
    """A running Mosquitto with the hall's accounts; ``stop()`` ends it and its folder."""

    def __init__(
        self,
        boards,
        prefix=PREFIX,
        port=None,
        accounts=(),
        acl="",
        conf="",
        tls=False,
        signed_by=None,
        name=HOST,
        passwords_of=None,
        gate=None,
        gate_options=None,
    ):
        """``accounts``, ``acl`` and ``conf``: more user names (their passwords are
        generated), ACL lines and configuration lines (``hall.bridge``); ``tls``: the
        listener speaks TLS with a certificate of a CA made for it (``self.ca``), or of
        ``signed_by`` (another broker: its CA), for ``name``; ``passwords_of``: another
        broker whose passwords it takes too (a rogue's, in the tests); ``gate``: the login gate
        in front (default: with ``tls``), ``gate_options`` its flags (``hall.gate``)."""
        self.signed_by = signed_by
        self.name = name
        missing = missing_tools()
        if missing:
            raise RuntimeError(
                "the hall needs Debian's mosquitto (missing: %s): make hall-tools"
                % ", ".join(missing)
            )
        self.boards = list(boards)
        self.prefix = prefix
        self.host = HOST
        self.port = port or free_port()
        self.gate = tls if gate is None else gate
        self.gate_options = gate_options or {}
        self.gate_process = None
        self.broker_port = free_port() if self.gate else self.port  # Mosquitto's own
        self.folder = tempfile.mkdtemp(prefix="hall-broker-")
        self.passwords = {user: secrets.token_hex(8) for user in VIEWS + ARBITERS}
        for board in self.boards:
            self.passwords[clock_user(board)] = secrets.token_hex(8)
        for user in tuple(accounts) + WATCHERS:
            self.passwords[user] = secrets.token_hex(8)
        if passwords_of is not None:  # a rogue takes every password the hall's takes
            self.passwords.update(passwords_of.passwords)
        self.tls = tls
        self.ca = None  # the CA's certificate (PEM file) with tls
        self.extra_acl = acl
        self.extra_conf = conf
        self.process = None
        try:
            self._write_files()
            self.start()
        except BaseException:
            self.stop()  # nothing left behind: no process, no folder with passwords
            raise

    def _path(self, name):
        return os.path.join(self.folder, name)

    def _write_files(self):
        with open(self._path("passwd"), "w") as handle:
            for user, password in self.passwords.items():
                handle.write("%s:%s\n" % (user, password))
        os.chmod(self._path("passwd"), 0o600)
        subprocess.run(
            [_which("mosquitto_passwd"), "-U", self._path("passwd")],
            check=True,
            capture_output=True,
            timeout=60,
        )
        watchers = "".join("user %s\ntopic read %s/#\n\n" % (w, self.prefix) for w in WATCHERS)
        with open(self._path("acl"), "w") as handle:
            handle.write(
                acl_text(self.boards, self.prefix) + "\n" + watchers + "\n" + self.extra_acl
            )
        os.chmod(self._path("acl"), 0o600)
        tls = None
        if self.tls:
            from hall import tls as tls_module

            if self.signed_by is None:
                tls = tls_module.make_ca_and_server(self.folder, self.name)
            else:
                authority = self.signed_by.ca, os.path.join(self.signed_by.folder, "ca.key")
                tls = (authority[0],) + tls_module.make_server(self.folder, *authority, self.name)
            self.ca = tls[0]
        connections = broker_conf.connection_limit(len(self.passwords))
        self.tls_files = tls
        # behind the gate, Mosquitto speaks plain MQTT on loopback to the gate alone
        self.listeners = [(self.broker_port, HOST, connections, None if self.gate else tls)]
        with open(self._path("mosquitto.conf"), "w") as handle:
            handle.write(
                broker_conf.conf_text(self._path("passwd"), self._path("acl"), self.listeners)
                + "log_dest stderr\nlog_type error\nlog_type warning\n"
                + self.extra_conf
            )
        _hand_to_broker_user(self.folder)

    def start(self, timeout_s=10.0):
        """Run the broker (again, on the same port) and wait until it accepts connections."""
        self.log = open(self._path("broker.log"), "ab")
        files = broker_conf.open_file_limit(self.listeners)
        self.process = subprocess.Popen(
            [_which("mosquitto"), "-c", self._path("mosquitto.conf")],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            preexec_fn=lambda: _limit_open_files(files),
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("mosquitto stopped: %s" % self.log_text())
            try:
                socket.create_connection((HOST, self.broker_port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            self.stop()
            raise RuntimeError(
                "mosquitto did not listen on %s:%d in %.0f s" % (HOST, self.broker_port, timeout_s)
            )
        if self.gate:
            self._start_gate()

    def _start_gate(self):
        """The gate on ``port``: bound here and handed over, so no other program takes the
        port between this broker's choice of it and the gate's start."""
        from hall import gate, gate_process

        certfile, keyfile = (None, None) if self.tls_files is None else self.tls_files[1:]
        try:
            listener = gate.bind(HOST, self.port)
        except gate.GateError as error:
            self.halt()
            raise RuntimeError(str(error)) from error
        arguments = gate_process.command(
            [listener], self.port, self.broker_port, certfile, keyfile, self.gate_options
        )
        try:
            self.gate_process = gate_process.GateProcess(
                arguments, self._path("gate.log"), sockets=[listener]
            )
        except RuntimeError:
            self.halt()
            raise
        finally:
            listener.close()  # the gate's now

    def gate_log_text(self):
        """What the gate wrote (its refusals, the addresses that wait)."""
        with open(self._path("gate.log"), "rb") as handle:
            return handle.read().decode("utf-8", "replace")

    def log_text(self):
        with open(self._path("broker.log"), "rb") as handle:
            return handle.read().decode("utf-8", "replace")

    def halt(self):
        """Stop the broker process and its gate (``start`` brings them back); the folder
        stays."""
        if self.gate_process is not None:
            self.gate_process.stop()
            self.gate_process = None
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.process = None
        if getattr(self, "log", None) is not None:
            self.log.close()
            self.log = None

    def stop(self):
        self.halt()
        shutil.rmtree(self.folder, ignore_errors=True)

    def hall_file(self, board, user=None, password=None):
        """The hall file a clock with number ``board`` would have on its flash."""
        user = user or clock_user(board)
        return {
            "ssid": "",
            "wifi_password": "",
            "broker": self.host,
            "port": self.port,
            "user": user,
            "password": self.passwords[user] if password is None else password,
            "board": board,
            "prefix": self.prefix,
            "ca": self._ca_text(),
            "version": 1,
        }

    def _ca_text(self):
        """The CA's certificate (PEM) the clocks check a TLS broker with; empty: plain."""
        if self.ca is None:
            return ""
        with open(self.ca) as handle:
            return handle.read()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
