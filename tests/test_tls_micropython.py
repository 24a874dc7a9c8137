"""The firmware's TLS stream in a real MicroPython with ``ssl``: its MicroPython branch
(hal/tls_stream.py) in MicroPython's unix port, on mbedTLS built with MicroPython's
configuration, against a real Mosquitto with TLS and the hall's own CA
(bench/tls_mpy_probe.py does what the link does; bench/hall_tls_heap.py measures
the handshake's memory there)."""

import os
import subprocess

import pytest

from bench import hall_tls_heap
from hall import tls
from tests.hall_helpers import running_broker

pytestmark = pytest.mark.xdist_group("hall-tls-micropython")


@pytest.fixture(scope="module")
def broker():
    if hall_tls_heap.micropython_unix() is None:
        pytest.skip("MicroPython's unix port is not installed: make micropython-unix")
    with running_broker([1], tls=True) as running:
        yield running


def test_the_stream_secures_the_link_with_the_hall_files_pem_ca(broker):
    # the hall file's CA as it is (PEM text): the stream hands mbedTLS its DER
    report = hall_tls_heap.run_probe(broker, broker.host)
    assert report["outcome"] == "secured"
    assert report["steps"] >= 2  # the TCP connect, then the handshake inside the write


def test_a_broker_certificate_for_another_name_is_a_broken_connection(broker):
    # mbedTLS raises ValueError for a certificate it refuses: the stream makes it the
    # OSError the MQTT client and the link take as a broken connection
    report = hall_tls_heap.run_probe(broker, hall_tls_heap.OTHER_NAME)
    assert report["outcome"].startswith("refused (OSError")


def test_a_broker_another_ca_signed_is_refused(broker, tmp_path):
    other_ca, _ = tls.make_ca(str(tmp_path), "another hall")

    class Other:
        host, port, ca = broker.host, broker.port, other_ca

    report = hall_tls_heap.run_probe(Other, broker.host)
    assert report["outcome"].startswith("refused (OSError")


def test_this_mbedtls_reads_no_pem_and_the_der_of_the_same_ca():
    """Why the stream converts: MicroPython's mbedTLS is built without PEM parsing."""
    if hall_tls_heap.micropython_unix() is None:
        pytest.skip("MicroPython's unix port is not installed: make micropython-unix")
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        ca, _ = tls.make_ca(folder)
        script = (
            "import ssl, sys\n"
            "sys.path.insert(0, %r)\n"
            "from hal.tls_stream import ca_der\n"
            "pem = open(%r).read()\n"
            "for label, data in (('pem', pem), ('der', ca_der(pem)[0])):\n"
            "    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)\n"
            "    try:\n"
            "        context.load_verify_locations(cadata=data)\n"
            "        print(label, 'read')\n"
            "    except ValueError as error:\n"
            "        print(label, 'refused', error)\n" % (hall_tls_heap.ROOT, ca)
        )
        done = subprocess.run(
            [hall_tls_heap.micropython_unix(), "-c", script],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=os.path.dirname(ca),
        )
    assert done.stdout.splitlines() == ["pem refused invalid cert", "der read"], done.stderr
