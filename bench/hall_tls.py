"""The clock's TLS handshake on the hall boards: its longest main-loop step and its heap.

    python -m bench.hall --tls [--write]

- **Steps, measured**: the firmware's TLS stream (``hal.tls_stream.TlsStream``, as the
  link opens it with the hall file's CA) joins a real Mosquitto listening with TLS and
  the hall's own CA (``hall.broker``, ``hall.tls``), limited to TLS 1.2 as the boards'
  mbedTLS is (``MBEDTLS_SSL_PROTO_TLS1_2`` only in MicroPython's
  extmod/mbedtls/mbedtls_config_common.h). Each ``ready()`` that moves the handshake
  on is one main-loop step (``hal.mqtt`` polls it once a pass); the handshake
  messages each step reads and writes are noted (CPython's ``SSLContext._msg_callback``).
  On loopback the broker's whole flight is there when the step runs, the worst case
  for a board: every public-key operation of the handshake falls into that one step.
- **Steps on the chip model, estimated**: each step is priced with the board's chip
  figures (``boards/chips/<chip>.py``: ``TLS_ECDSA_VERIFY_US``, ``TLS_SCALAR_MULT_US``,
  ``TLS_FLIGHT_US``, estimates with their sources there): the broker's certificate
  read (one ECDSA verification, by the hall's CA), its ServerKeyExchange read (one
  ECDSA verification), the ClientKeyExchange written (two scalar multiplications:
  the ephemeral key pair and the shared secret), and a flight's parsing, hashing and
  record cipher for every step that reads or writes a handshake message.
- **Heap, measured inside MicroPython**: the boot with a hall file that carries the
  hall's CA against one without it (``bench.hall_heap``, ``.mpy``): what TLS adds
  before any connection (the CA's text, ``hal.tls_stream``).
- **Heap in the handshake, measured inside MicroPython with ``ssl``**
  (``bench.hall_tls_heap``): the firmware's TLS stream in MicroPython's unix port,
  whose mbedTLS has MicroPython's configuration, against the same broker; mbedTLS's
  memory at the handshake's peak and what the connection then holds, and what
  MicroPython's own heap holds for it. The record buffers of that configuration
  (``MBEDTLS_SSL_IN_CONTENT_LEN`` 16,384 and ``MBEDTLS_SSL_OUT_CONTENT_LEN`` 4,096,
  each with a 13-byte header and 336 bytes of IV, MAC and CBC padding room,
  mbedTLS's ssl_misc.h) are the part of it worked out. On the Pico W it comes from
  MicroPython's heap (``TLS_ON_GC_HEAP``), the input buffer as one block; on the
  ESP32 from ESP-IDF's, whose mbedTLS has ESP-IDF's configuration.
"""

import os
import ssl
import subprocess
import tempfile
import time

from bench import figure_rows
from bench.figure_rows import Figure

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BOARDS = ("pico_w", "esp32")
RECORD_OVERHEAD = 13 + 16 + 64 + 256  # header, IV, MAC (SHA-512 enabled), CBC padding
IN_BUFFER = 16_384 + RECORD_OVERHEAD
OUT_BUFFER = 4_096 + RECORD_OVERHEAD
CERTIFICATE, SERVER_KEY_EXCHANGE, CLIENT_KEY_EXCHANGE = 11, 12, 16


def handshake_steps(timeout_s=10.0):
    """Each step of the firmware's TLS stream against a TLS Mosquitto: a list of
    ``{"read": [message types], "written": [message types], "bytes_read": n}``,
    the protocol version and the cipher suite."""
    from hal import net_stream
    from hal.tls_stream import TlsStream
    from hall.broker import Broker

    broker = Broker([1], tls=True)
    try:
        hall = broker.hall_file(1)
        stream = TlsStream(
            net_stream.resolve(hall["broker"], hall["port"]), hall["ca"], hall["broker"]
        )
        stream.context.maximum_version = ssl.TLSVersion.TLSv1_2  # the boards' mbedTLS
        noted = []

        def note(_conn, direction, _version, content_type, message_type, data):
            if int(content_type) == 22:  # a handshake message
                noted.append((direction, int(message_type), len(data)))

        stream.context._msg_callback = note
        steps = []
        step = stream._step

        def counted_step():
            before = len(noted)
            step()
            these = noted[before:]
            steps.append(
                {
                    "read": [kind for way, kind, _ in these if way == "read"],
                    "written": [kind for way, kind, _ in these if way == "write"],
                    "bytes_read": sum(size for way, _, size in these if way == "read"),
                }
            )

        stream._step = counted_step
        started = time.monotonic()
        while not stream.secured and time.monotonic() - started < timeout_s:
            stream.ready()
            time.sleep(0.002)
        if not stream.secured:
            raise RuntimeError("the TLS handshake with the hall's broker did not finish")
        version, cipher = stream.sock.version(), stream.sock.cipher()[0]
        stream.close()
        return steps, version, cipher
    finally:
        broker.stop()


def step_us(step, chip, pick):
    """What ``step`` costs on ``chip`` at level ``pick`` (0 typical, 1 at most), in µs."""
    cost = 0
    if CERTIFICATE in step["read"]:
        cost += chip.TLS_ECDSA_VERIFY_US[pick]  # the broker's certificate, by the hall's CA
    if SERVER_KEY_EXCHANGE in step["read"]:
        cost += chip.TLS_ECDSA_VERIFY_US[pick]  # the broker's signature of its key share
    if CLIENT_KEY_EXCHANGE in step["written"]:
        cost += 2 * chip.TLS_SCALAR_MULT_US[pick]  # the key pair, the shared secret
    if step["read"] or step["written"]:
        cost += chip.TLS_FLIGHT_US[pick]
    return cost + chip.SOCKET_POLL_US[pick] + chip.SOCKET_RECV_US[pick]


def describe(step):
    """A step as the figures keep it: the TLS handshake message types it read and wrote
    (RFC 5246: 1 ClientHello, 2 ServerHello, 4 NewSessionTicket, 11 Certificate,
    12 ServerKeyExchange, 14 ServerHelloDone, 16 ClientKeyExchange, 20 Finished)."""
    return "read %s, wrote %s (%d B in)" % (
        " ".join(map(str, step["read"])) or "-",
        " ".join(map(str, step["written"])) or "-",
        step["bytes_read"],
    )


def boot_heap(ca_path):
    """Heap after boot on each board with a plain hall file and with one carrying the
    hall's CA (``bench.hall_heap``, .mpy, inside MicroPython)."""
    import json

    subprocess.run(["make", "-s", "mpy"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    heap = {}
    for name in BOARDS:
        each = {}
        for kind, extra in (("plain", []), ("tls", [ca_path])):
            done = subprocess.run(
                ["node", runner, "--compiled", "bench.hall_heap", name, "hall"] + extra,
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            assert figures["tls"] == (kind == "tls"), figures
            each[kind] = figures["heap_after_boot_bytes"]
        heap[name] = each
    return heap


def _frozen_hall_boot(name):
    """The board's heap after boot from its frozen image with a hall file, as
    ``bench.heap`` measured it (bench/latest.json), or None."""
    import json

    from bench import results

    try:
        with open(results.LATEST) as handle:
            paths = json.load(handle)["heap"]["paths"]
        return paths["%s frozen hall" % name]["boot_heap_bytes"]
    except (OSError, KeyError, ValueError):
        return None


def tls_figures(handshakes=5):
    """The figures; the handshake is made ``handshakes`` times: on a busy host a step can
    take in a flight that came while it ran (the broker answers within the call), which a
    board's step of the same content could too. The longest step is the longest of all;
    ``steps`` are those of the handshake with the most steps (the host never paused)."""
    import boards
    from bench import hall_tls_heap
    from hall import tls
    from sim.latency import chip_of

    measured = hall_tls_heap.measure()  # None without make micropython-unix
    made = [handshake_steps() for _ in range(handshakes)]
    steps, version, cipher = max(made, key=lambda each: len(each[0]))
    every_step = [step for each in made for step in each[0]]
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    with tempfile.TemporaryDirectory(dir=os.path.join(ROOT, "build")) as folder:
        ca_path, _key = tls.make_ca(folder)
        heap = boot_heap(os.path.relpath(ca_path, ROOT))
    figures = {
        "protocol": version,
        "cipher": cipher,
        "steps": [describe(step) for step in steps],
        "handshakes": handshakes,
        "steps_per_handshake": [len(each[0]) for each in made],
        "record_buffers_bytes": IN_BUFFER + OUT_BUFFER,
        "input_buffer_bytes": IN_BUFFER,
        "mbedtls": measured,
        "boards": {},
    }
    for name in BOARDS:
        chip = chip_of(boards.load(name))
        costs = [[step_us(step, chip, pick) for step in every_step] for pick in (0, 1)]
        longest = max(range(len(every_step)), key=lambda index: costs[0][index])
        board = {
            "longest_step": describe(every_step[longest]),
            "longest_step_us_typical": costs[0][longest],
            "longest_step_us_max": costs[1][longest],
            "handshake_cpu_us_typical": sum(step_us(step, chip, 0) for step in steps),
            "longest_step_measured": False,  # the step's contents are; its time is estimated
            "heap_after_boot_plain_hall_bytes": heap[name]["plain"],
            "heap_after_boot_tls_hall_bytes": heap[name]["tls"],
            "tls_adds_at_boot_bytes": heap[name]["tls"] - heap[name]["plain"],
            "mbedtls_on_micropython_heap": chip.TLS_ON_GC_HEAP,
            "chip_heap_bytes": chip.HEAP_BYTES,
        }
        frozen = _frozen_hall_boot(name)
        if frozen is not None:
            board["frozen_hall_boot_bytes"] = frozen  # bench.heap, the unix port
        if chip.TLS_ON_GC_HEAP and measured is not None:
            # What MicroPython's heap holds at the handshake's peak: the boot with the
            # CA (.mpy, and from the frozen image: its boot plus what the CA adds), the
            # stream's objects and mbedTLS's memory, each measured.
            handshake = (
                measured["micropython_heap_connection_bytes"]
                + measured["mbedtls_handshake_peak_bytes"]
            )
            board["micropython_heap_in_handshake_bytes"] = heap[name]["tls"] + handshake
            if frozen is not None:
                board["frozen_heap_in_handshake_bytes"] = (
                    frozen + board["tls_adds_at_boot_bytes"] + handshake
                )
        figures["boards"][name] = board
    return figures


def declared():
    """The handshake's figures per hall board and mbedTLS's, measured (bench/figure_rows.py)."""
    figures = []
    for board in BOARDS:
        path = "hall.tls.boards.%s." % board
        figures += [
            Figure(
                "TLS handshake, `%s`: longest main-loop step, chip model (estimate), typical"
                % board,
                path + "longest_step_us_typical",
                "µs",
                "only while the clock stands",
            ),
            Figure(
                "TLS handshake, `%s`: longest main-loop step, chip model (estimate), at most"
                % board,
                path + "longest_step_us_max",
                "µs",
                "only while the clock stands",
            ),
            Figure(
                "TLS handshake, `%s`: heap after boot with a TLS hall file (`.mpy`)" % board,
                path + "heap_after_boot_tls_hall_bytes",
                "B",
                "report",
            ),
            Figure(
                "TLS handshake, `%s`: what the CA adds at boot" % board,
                path + "tls_adds_at_boot_bytes",
                "B",
                "report",
            ),
        ]
    figures += [
        Figure(
            "TLS handshake, `pico_w`: MicroPython's heap at its peak, frozen image",
            "hall.tls.boards.pico_w.frozen_heap_in_handshake_bytes",
            "B",
            "≤ the chip's heap",
        ),
        Figure(
            "TLS handshake: mbedTLS's memory at its peak, measured in MicroPython's unix port "
            "(`python -m bench.hall_tls_heap`)",
            "hall.tls.mbedtls.mbedtls_handshake_peak_bytes",
            "B",
            "report",
        ),
        Figure(
            "TLS handshake: mbedTLS's memory the secured connection holds",
            "hall.tls.mbedtls.mbedtls_connection_bytes",
            "B",
            "report",
        ),
        Figure(
            "TLS handshake: MicroPython's heap the connection holds (the stream, the CA's DER)",
            "hall.tls.mbedtls.micropython_heap_connection_bytes",
            "B",
            "report",
        ),
    ]
    figures += [
        Figure("TLS handshake: protocol", "hall.tls.protocol", "", "report", False),
        Figure("TLS handshake: cipher", "hall.tls.cipher", "", "report", False),
        Figure("TLS handshake: messages per step", "hall.tls.steps", "", "report", False),
        Figure(
            "TLS handshake: the MicroPython that measured mbedTLS",
            "hall.tls.mbedtls.micropython",
            "",
            "report",
            False,
        ),
    ]
    for board in BOARDS:
        figures.append(
            Figure(
                "TLS handshake, `%s`: heap after boot with a plain hall file (`.mpy`)" % board,
                "hall.tls.boards.%s.heap_after_boot_plain_hall_bytes" % board,
                "B",
                "report",
                False,
            )
        )
    figures.append(
        Figure(
            "TLS handshake, `pico_w`: the chip's heap",
            "hall.tls.boards.pico_w.chip_heap_bytes",
            "B",
            "report",
            False,
        )
    )
    return tuple(figures)


def rows(figures):
    """The hall table's rows of the handshake (``figures``: ``tls_figures``)."""
    return figure_rows.table_rows(declared(), None, {"hall": {"tls": figures}})
