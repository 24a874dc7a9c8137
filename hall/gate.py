"""The hall's login gate: the one listener on the hall's network, in front of Mosquitto.

    python -m hall.gate --listen 0.0.0.0 --port 8883 --broker-port 18883 \\
        --certfile broker.crt --keyfile broker.key [--user mosquitto]

Debian 12's Mosquitto 2.0.11 keeps a socket that never logs in for 1.5 times its
default keepalive (some 90 s) and answers wrong passwords as fast as they come; it has
no option for either, and the one plugin its package ships (dynamic security) does
neither (docs/hall.md). The gate does both, and only that:

- it accepts on the hall's address(es), speaks the hall's TLS with the broker's own
  certificate and key (a clock checks the hall's CA and name as before), and wants a
  whole MQTT CONNECT within ``LOGIN_S`` of the TCP accept, the handshake included;
  otherwise it closes the socket. One address has at most ``UNLOGGED_PER_ADDRESS``
  sockets that have not logged in yet: one more is closed at once;
- it hands the CONNECT to Mosquitto on loopback (``--broker-port``) and reads the
  CONNACK: a login refused for its user name or password counts against the source
  address, whose next logins then wait (``hall.gate_login.Ledger``); no other address
  waits for it;
- after the CONNACK it carries the bytes both ways as they come (``hall.gate_relay``:
  a read is written at once, TCP_NODELAY both sides) until either side closes.

A plain listener (no ``--certfile``) is refused anywhere but on loopback, as the
broker's is (``hall.broker_conf``). ``hall.gate_process`` runs it beside the broker.
"""

import argparse
import asyncio
import errno
import os
import socket
import ssl
import sys

from hall import broker_conf, gate_login, gate_relay

LOGIN_S = 8.0  # a Pico W's slowest TLS handshake (4.8 s, bench/hall_tls.py), then CONNECT
ANSWER_S = 10.0  # the broker's CONNACK, on loopback
UNLOGGED_PER_ADDRESS = 8  # sockets of one address before their login (a clock needs one)
CHUNK = 65536
BACKLOG = 512
READY = "hall.gate: listening"  # the first line on stdout once every address is bound
LOOPBACK = "127.0.0.1"  # where the broker listens


class GateError(Exception):
    """A gate that cannot start: the message says why and what to do."""


def _stderr_line(text):
    print("hall.gate: " + text, file=sys.stderr, flush=True)


def server_context(certfile, keyfile):
    """The hall's TLS as the broker's listener spoke it: TLS 1.2 at least, its certificate."""
    for kind, path in (("certificate", certfile), ("key", keyfile)):
        if not os.path.isfile(path):
            raise GateError(
                "the broker's %s %s is missing (hall.accounts writes broker.crt and "
                "broker.key into its folder)" % (kind, path)
            )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(certfile, keyfile)
    except (ssl.SSLError, OSError) as error:
        raise GateError("cannot use %s with %s: %s" % (certfile, keyfile, error)) from error
    return context


def bind(address, port):
    """A listening, non-blocking socket on ``address``:``port``; GateError if it cannot."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((address, port))
        listener.listen(BACKLOG)
    except OSError as error:
        listener.close()
        if error.errno == errno.EADDRINUSE:
            raise GateError(
                "cannot listen on %s:%d: the port is taken (another hall's gate, or a "
                "broker listening there: its listener belongs on loopback)" % (address, port)
            ) from error
        raise GateError("cannot listen on %s:%d: %s" % (address, port, error)) from error
    listener.setblocking(False)
    return listener


class Gate:
    """The gate's listeners and its logins; ``serve()`` runs it until cancelled."""

    def __init__(self, listeners, broker_port, context=None, login_s=LOGIN_S, ledger=None):
        """``listeners``: bound sockets (``bind``); ``context``: the server's TLS, or None
        (plain: loopback listeners only, else ValueError)."""
        if context is None:
            for listener in listeners:
                if not broker_conf.is_loopback(listener.getsockname()[0]):
                    raise ValueError(
                        "a plain gate on %s: MQTT in clear only on loopback; give it the "
                        "broker's certificate" % listener.getsockname()[0]
                    )
        self.listeners = listeners
        self.broker = (LOOPBACK, broker_port)
        self.context = context
        self.login_s = login_s
        self.ledger = ledger or gate_login.Ledger()
        self._tasks = set()
        self._unlogged = {}  # address -> its sockets not logged in yet

    async def serve(self):
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(self._accept(loop, listener) for listener in self.listeners))

    async def _accept(self, loop, listener):
        while True:
            try:
                sock, peer = await loop.sock_accept(listener)
            except OSError as error:  # out of files: the ones open close by their deadline
                _stderr_line("accept: %s" % error)
                await asyncio.sleep(0.1)
                continue
            if self._unlogged.get(peer[0], 0) >= UNLOGGED_PER_ADDRESS:
                sock.close()  # one address's idle sockets never fill the gate's files
                continue
            self._unlogged[peer[0]] = self._unlogged.get(peer[0], 0) + 1
            task = loop.create_task(self._guarded(loop, sock, peer[0], loop.time()))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _login(self, loop, sock, accepted):
        """The client's side (``gate_relay.FirstPacket``) and the level of its CONNECT,
        by ``accepted + login_s``; None if not."""
        tls = {} if self.context is None else {"ssl": self.context}
        if tls:
            tls["ssl_handshake_timeout"] = self.login_s
        client = None
        try:
            async with asyncio.timeout_at(accepted + self.login_s):
                _, client = await loop.connect_accepted_socket(
                    lambda: gate_relay.FirstPacket(gate_login.MAX_PACKET_BYTES), sock, **tls
                )
                packet, header = await client.first
            level = gate_login.connect_level(packet, header)
        except (TimeoutError, ValueError, OSError):
            if client is not None:
                client.transport.abort()
            sock.close()  # a no-op once a transport has it
            return None
        return client, packet, level

    async def _guarded(self, loop, sock, address, accepted):
        """One client's whole connection; whatever goes wrong ends it alone."""
        try:
            await self._serve(loop, sock, address, accepted)
        except Exception as error:  # noqa: BLE001 - one client's fault, the gate goes on
            _stderr_line("%s: connection ended: %r" % (address, error))
            sock.close()

    async def _serve(self, loop, sock, address, accepted):
        try:  # counted in _accept, from the accept on
            login = await self._login(loop, sock, accepted)
        finally:
            left = self._unlogged[address] - 1
            if left:
                self._unlogged[address] = left
            else:
                del self._unlogged[address]
        if login is None:
            return
        client, packet, level = login
        wait = self.ledger.begin(address, loop.time())
        if wait is None:  # it waits already, with a login under way
            client.transport.abort()
            return
        wrong, broker = None, None
        try:
            if wait > 0:
                await asyncio.sleep(wait)
            if not client.ended:  # the client did not leave while it waited
                broker, wrong = await self._forward(packet, level)
        finally:
            self.ledger.end(address, wrong, loop.time())
        if wrong:
            self._tell_refusal(address, loop.time())
        if broker is None:
            client.transport.abort()
            return
        await gate_relay.splice(client, broker)  # the CONNACK first: a refusal's too

    async def _forward(self, packet, level):
        """``(broker, wrong)``: the broker's side (its CONNACK first in its ``buffer``) and
        ``wrong`` as ``Ledger.end`` takes it; ``(None, None)`` if it did not answer."""
        broker = None
        try:
            async with asyncio.timeout(ANSWER_S):
                _, broker = await asyncio.get_running_loop().create_connection(
                    lambda: gate_relay.FirstPacket(CHUNK), *self.broker
                )
                broker.transport.write(packet)
                answer, header = await broker.first
            wrong = gate_login.wrong_login(answer, header, level)
        except (TimeoutError, ValueError, OSError) as error:
            _stderr_line("the broker on %s:%d did not answer a login: %r" % (*self.broker, error))
            if broker is not None:
                broker.transport.abort()
            return None, None
        broker.buffer[:0] = answer  # the client gets it first, as the broker sent it
        return broker, wrong

    def _tell_refusal(self, address, now):
        count = self.ledger.refusals(address, now)
        if count >= self.ledger.free:
            _stderr_line(
                "%s: %d wrong logins in a row; its next login waits %.1f s"
                % (address, count, self.ledger.wait_s(address, now))
            )


def _raise_open_files():
    """Two files per login: the soft open-file limit up to the hard one (LimitNOFILE)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _drop_to(user):
    """Started as root: run on as ``user`` (its sockets and key are open already)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    import pwd

    try:
        account = pwd.getpwnam(user)
    except KeyError as error:
        raise GateError("no user %r to run as" % user) from error
    os.setgroups([])
    os.setgid(account.pw_gid)
    os.setuid(account.pw_uid)


def parser():
    p = argparse.ArgumentParser(prog="python -m hall.gate", description=__doc__.split("\n")[0])
    p.add_argument("--listen", action="append", default=[], help="an address (repeatable)")
    p.add_argument(
        "--listen-fd",
        type=int,
        action="append",
        default=[],
        help="a listening socket it was handed (hall.broker binds the port itself)",
    )
    p.add_argument("--port", type=int, required=True, help="the hall's MQTT port (8883)")
    p.add_argument("--broker-port", type=int, required=True, help="Mosquitto's, on 127.0.0.1")
    p.add_argument("--certfile", help="the broker's certificate (TLS); none: plain, loopback")
    p.add_argument("--keyfile", help="the broker's key")
    p.add_argument("--user", help="run as this user once started as root (mosquitto)")
    p.add_argument("--login-s", type=float, default=LOGIN_S, help="accept to whole CONNECT")
    p.add_argument("--free-refusals", type=int, default=gate_login.FREE_REFUSALS)
    p.add_argument("--first-wait-s", type=float, default=gate_login.FIRST_WAIT_S)
    p.add_argument("--max-wait-s", type=float, default=gate_login.MAX_WAIT_S)
    p.add_argument("--quiet-s", type=float, default=gate_login.QUIET_S)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    listeners = []
    try:
        if (args.certfile is None) != (args.keyfile is None):
            raise GateError("--certfile and --keyfile go together")
        context = None if args.certfile is None else server_context(args.certfile, args.keyfile)
        ledger = gate_login.Ledger(
            args.free_refusals, args.first_wait_s, args.max_wait_s, args.quiet_s
        )
        if args.login_s <= 0:
            raise GateError("--login-s must be above 0")
        if not args.listen and not args.listen_fd:
            raise GateError("--listen ADDRESS (the hall's) or --listen-fd N")
        for address in args.listen:
            listeners.append(bind(address, args.port))
        for number in args.listen_fd:
            listener = socket.socket(fileno=number)
            listener.setblocking(False)
            listeners.append(listener)
        gate = Gate(listeners, args.broker_port, context, args.login_s, ledger)
        _raise_open_files()
        if args.user:
            _drop_to(args.user)
    except (GateError, ValueError) as error:
        for listener in listeners:
            listener.close()
        _stderr_line(str(error))
        return 2
    print(
        "%s on %s (port %d), the broker on %s:%d"
        % (
            READY,
            ", ".join("%s:%d" % listener.getsockname()[:2] for listener in listeners),
            args.port,
            LOOPBACK,
            args.broker_port,
        ),
        flush=True,
    )
    try:
        asyncio.run(gate.serve())
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
