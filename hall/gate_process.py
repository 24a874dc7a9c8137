"""The login gate (``hall.gate``) as a process beside the broker: one gate per hall.

``GateProcess`` runs ``python -m hall.gate`` for ``hall.broker`` (started after
Mosquitto, stopped before it) and waits until it listens; ``service_text`` is the
systemd unit ``hall.accounts`` writes for a hall's host, bound to the broker's unit
(started with it, stopped with it).
"""

import os
import select
import shlex
import subprocess
import sys
import time

from hall import gate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES_PER_LOGIN = 2  # the client's socket and the broker's
SPARE_FILES = 64


def command(listen, port, broker_port, certfile=None, keyfile=None, options=None, python=None):
    """The gate's command line; ``listen``: addresses, or listening sockets to hand it
    (``GateProcess`` passes them on); ``options``: more of its flags (``{"login-s": 2}``)."""
    line = [python or sys.executable, "-m", "hall.gate"]
    for listener in listen:
        if isinstance(listener, str):
            line += ["--listen", listener]
        else:
            line += ["--listen-fd", str(listener.fileno())]
    line += ["--port", str(port), "--broker-port", str(broker_port)]
    if certfile is not None:
        line += ["--certfile", certfile, "--keyfile", keyfile]
    for name, value in (options or {}).items():
        line += ["--" + name, str(value)]
    return line


def open_file_limit(connections):
    """The gate's open-file limit for the broker's ``connections`` and as many waiting."""
    return 2 * connections * FILES_PER_LOGIN + SPARE_FILES


class GateProcess:
    """A running gate; ``stop()`` ends it. RuntimeError with its own words if it cannot
    start (a port taken, a certificate missing)."""

    def __init__(self, arguments, log_path, timeout_s=10.0, sockets=()):
        """``sockets``: the listening sockets ``arguments`` names by number (``--listen-fd``)."""
        self.log_path = log_path
        self.log = open(log_path, "ab")
        self.process = subprocess.Popen(
            arguments,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=self.log,
            pass_fds=[sock.fileno() for sock in sockets],
        )
        deadline = time.monotonic() + timeout_s
        line = b""
        while not line.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.1)
            if ready:
                byte = self.process.stdout.read1(1)
                if not byte:
                    break
                line += byte
        if not line.decode("utf-8", "replace").startswith(gate.READY):
            self.stop()
            raise RuntimeError("the hall's gate did not start: %s" % self.log_text().strip())

    def log_text(self):
        with open(self.log_path, "rb") as handle:
            return handle.read().decode("utf-8", "replace")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.process.stdout.close()
        self.log.close()


SERVICE = """[Unit]
Description=The tournament hall's login gate (hall.gate, %(out)s)
# started with the broker (its unit wants this one), stopped and restarted with it
BindsTo=hall-broker.service
After=hall-broker.service
PartOf=hall-broker.service

[Service]
WorkingDirectory=%(root)s
ExecStart=%(command)s
# two files a login: the client's socket and the broker's (hall/gate_process.py)
LimitNOFILE=%(files)d
Restart=on-failure
RestartSec=2

[Install]
WantedBy=hall-broker.service
"""


def service_text(out, arguments, connections):
    """The gate's systemd unit for the hall written in ``out``."""
    return SERVICE % {
        "out": os.path.abspath(out),
        "root": ROOT,
        "command": shlex.join(arguments),  # systemd splits it as a shell would
        "files": open_file_limit(connections),
    }
