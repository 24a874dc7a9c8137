"""Run inside MicroPython's unix port by ``bench.hall_tls_heap`` (and its test): the
firmware's TLS stream (``hal.tls_stream``, its MicroPython branch) joins a broker.

    micropython bench/tls_mpy_probe.py ROOT HOST PORT CA_FILE SERVER_NAME

As the hall link does: the CA file's PEM text as the hall file holds it, the stream
asked ``ready()`` and given a packet to write at each step until the write goes
(the handshake runs inside it) or the stream is broken. Prints ``mark start`` before
the stream is made and ``mark done`` once the handshake is over, each followed by
0.3 s of nothing (the driver reads the process's C heap there: mbedTLS allocates
from it in this port), then one JSON line: how it ended, the steps, and what
MicroPython's own heap holds for the connection.
"""

import gc
import json
import sys
import time

ROOT, HOST, PORT, CA_FILE, SERVER_NAME = sys.argv[1:6]
sys.path.insert(0, ROOT)

from hal.mqtt import BROKEN  # noqa: E402
from hal.net_stream import resolve  # noqa: E402
from hal.tls_stream import TlsStream  # noqa: E402

MARK_PAUSE_MS = 300
STEP_MS = 2
GIVE_UP_MS = 30_000  # a bound on a hang; a handshake on loopback takes milliseconds


def main():
    with open(CA_FILE) as handle:
        ca = handle.read()
    address = resolve(HOST, int(PORT))
    packet = bytearray(b"\xc0\x00")  # a PINGREQ: whatever goes after the handshake
    gc.collect()
    before = gc.mem_alloc()
    print("mark start")
    time.sleep_ms(MARK_PAUSE_MS)
    stream = TlsStream(address, ca, SERVER_NAME)
    steps = 0
    outcome = "no end"
    began = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), began) < GIVE_UP_MS:
        steps += 1
        try:
            if stream.ready() & BROKEN:
                outcome = "broken"
                break
            if stream.write(packet, 0, len(packet)):
                outcome = "secured"
                break
        except OSError as error:
            outcome = "refused (OSError %s)" % (error.args[0] if error.args else "")
            break
        time.sleep_ms(STEP_MS)
    gc.collect()
    held = gc.mem_alloc() - before
    print("mark done")
    time.sleep_ms(MARK_PAUSE_MS)
    stream.close()
    report = {"outcome": outcome, "steps": steps, "gc_heap_held_bytes": held}
    print(json.dumps(report))


main()
