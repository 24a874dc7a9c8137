"""The TLS handshake's memory measured inside MicroPython with ``ssl``, against a real broker.

    python -m bench.hall_tls_heap        # make micropython-unix first

The tests' WebAssembly MicroPython has neither sockets nor ``ssl``; MicroPython's
unix port has both, on mbedTLS built with MicroPython's configuration
(extmod/mbedtls). ``bench/tls_mpy_probe.py`` runs the firmware's TLS stream
(``hal.tls_stream``, its MicroPython branch, the CA as the hall file holds it) in
that port against Mosquitto listening with TLS and the hall's own CA
(``hall.broker``), once with the broker's own name and once with another. mbedTLS
allocates from C's heap in the unix port, so the process runs with
``bench/malloc_count.c`` preloaded, which counts C's heap; at the probe's marks
the driver reads it: what the handshake took at its peak above what the process
held before the stream was made, and what the connection still holds once it is
secured. MicroPython's own heap (the stream's objects, the CA's DER) is the
probe's ``gc.mem_alloc()``.

On the Pico W mbedTLS allocates the same from MicroPython's heap
(``m_tracked_calloc``, which adds a small header to each block); the sizes here
are a 64-bit build's (pointers of 8 bytes, where the RP2040's are 4), so the
contexts are a little larger than on the board and the record buffers the same.
"""

import json
import os
import shutil
import signal
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON_UNIX = os.path.join(ROOT, "build", "mpy-unix", "bin", "micropython")
COUNTER_SOURCE = os.path.join(ROOT, "bench", "malloc_count.c")
COUNTER = os.path.join(ROOT, "build", "malloc_count.so")
PROBE = os.path.join(ROOT, "bench", "tls_mpy_probe.py")
OTHER_NAME = "hall.example"  # a name the broker's certificate does not give


def micropython_unix():
    """The unix port's command (``make micropython-unix``), or None."""
    return MICROPYTHON_UNIX if os.access(MICROPYTHON_UNIX, os.X_OK) else None


def build_counter():
    """``build/malloc_count.so`` from its source with the C compiler, or None without one."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    if not os.path.exists(COUNTER) or os.path.getmtime(COUNTER) < os.path.getmtime(COUNTER_SOURCE):
        os.makedirs(os.path.dirname(COUNTER), exist_ok=True)
        subprocess.run(
            [compiler, "-O2", "-shared", "-fPIC", "-o", COUNTER, COUNTER_SOURCE, "-ldl"],
            check=True,
        )
    return COUNTER


def run_probe(broker, server_name, counter=None, timeout_s=60):
    """The probe against ``broker`` expecting ``server_name``: its report, with the C
    heap's ``malloc_held_bytes`` and ``malloc_peak_bytes`` at each mark if ``counter``
    is preloaded (``{"start": {...}, "done": {...}}`` under ``malloc``)."""
    command = [micropython_unix(), PROBE, ROOT, broker.host, str(broker.port)]
    command += [broker.ca, server_name]
    env = dict(os.environ)
    if counter is not None:
        env["LD_PRELOAD"] = counter
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    marks = []
    report = None
    try:
        for line in process.stdout:
            line = line.strip()
            if line.startswith("mark ") and counter is not None:
                marks.append(line[5:])
                if line == "mark start":
                    os.kill(process.pid, signal.SIGUSR1)  # the peak from here
                os.kill(process.pid, signal.SIGUSR2)
            elif line.startswith("{"):
                report = json.loads(line)
        errors = process.stderr.read()
        process.wait(timeout_s)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    if report is None:
        raise RuntimeError("the probe ended without its report: %s" % errors.strip()[-400:])
    if counter is not None:
        readings = [line.split() for line in errors.splitlines() if line.startswith("malloc ")]
        report["malloc"] = {
            mark: {"held": int(words[2]), "peak": int(words[4])}
            for mark, words in zip(marks, readings, strict=True)
        }
    return report


def version():
    done = subprocess.run(
        [micropython_unix(), "-c", "import sys, ssl; print(sys.version, ssl.MBEDTLS_VERSION)"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def measure():
    """The figures, or None without the unix port or a C compiler."""
    from hall.broker import Broker

    counter = build_counter()
    if micropython_unix() is None or counter is None:
        return None
    broker = Broker([1], tls=True)
    try:
        own = run_probe(broker, broker.host, counter)
        other = run_probe(broker, OTHER_NAME)
    finally:
        broker.stop()
    start, done = own["malloc"]["start"], own["malloc"]["done"]
    return {
        "micropython": version(),
        "command": "python -m bench.hall_tls_heap",
        "outcome": own["outcome"],
        "steps": own["steps"],
        "other_name_outcome": other["outcome"],
        "mbedtls_handshake_peak_bytes": done["peak"] - start["held"],
        "mbedtls_connection_bytes": done["held"] - start["held"],
        "micropython_heap_connection_bytes": own["gc_heap_held_bytes"],
    }


def main():
    figures = measure()
    if figures is None:
        print("no unix MicroPython (make micropython-unix) or no C compiler", file=sys.stderr)
        return 2
    print(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
