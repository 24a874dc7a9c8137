"""The hall's own certificate authority: its CA, the broker's certificate, the clients' check.

``make_ca`` makes a CA for one hall (an ECDSA P-256 key: the smallest certificates and the
cheapest handshake a clock's mbedTLS verifies); ``make_server`` signs the broker's
certificate for its address (IP or name, in subjectAltName); ``client_context`` is what
the view, the arbiter's push and the tests verify the broker with: this CA alone, the
name checked. The clocks carry the same CA in their hall file (``ca``, PEM).

Validity runs from 2000-01-01 to 2049-12-31: a clock has no real-time clock (an ESP32
starts at 2000-01-01, a Pico W at 2021-01-01), so a certificate dated from today would
be "not yet valid" on it. The trust is in the CA's key, made for this hall and never
leaving the folder ``hall.accounts`` writes; a new hall file set replaces it.
"""

import datetime
import ipaddress
import os
import socket
import ssl

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

NOT_BEFORE = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
NOT_AFTER = datetime.datetime(2049, 12, 31, 23, 59, 59, tzinfo=datetime.UTC)


def _write_private(path, data):
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as handle:
        handle.write(data)


def _key_pem(key):
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _name(text):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


def _subject_alt_name(address):
    try:
        return x509.IPAddress(ipaddress.ip_address(address))
    except ValueError:
        return x509.DNSName(address)


def make_ca(folder, name="hall CA"):
    """``folder/ca.crt`` and ``folder/ca.key`` (0600); their paths."""
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = (
        x509.CertificateBuilder()
        .subject_name(_name(name))
        .issuer_name(_name(name))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOT_BEFORE)
        .not_valid_after(NOT_AFTER)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False),
            critical=True,
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = os.path.join(folder, "ca.crt"), os.path.join(folder, "ca.key")
    _write_private(key_path, _key_pem(key))
    _write_private(cert_path, certificate.public_bytes(serialization.Encoding.PEM))
    os.chmod(cert_path, 0o644)  # public: every client gets it
    return cert_path, key_path


def make_server(folder, ca_cert, ca_key, address):
    """The broker's ``folder/broker.crt`` and ``folder/broker.key`` (0600) for ``address``."""
    with open(ca_cert, "rb") as handle:
        authority = x509.load_pem_x509_certificate(handle.read())
    with open(ca_key, "rb") as handle:
        authority_key = serialization.load_pem_private_key(handle.read(), None)
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = (
        x509.CertificateBuilder()
        .subject_name(_name(address))
        .issuer_name(authority.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOT_BEFORE)
        .not_valid_after(NOT_AFTER)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.SubjectAlternativeName([_subject_alt_name(address)]), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(authority_key, hashes.SHA256())
    )
    cert_path = os.path.join(folder, "broker.crt")
    key_path = os.path.join(folder, "broker.key")
    _write_private(key_path, _key_pem(key))
    _write_private(cert_path, certificate.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


def make_ca_and_server(folder, address):
    """A CA and the broker's certificate in ``folder``: ``(cafile, certfile, keyfile)``."""
    ca_cert, ca_key = make_ca(folder)
    cert, key = make_server(folder, ca_cert, ca_key, address)
    return ca_cert, cert, key


def client_context(cafile=None, cadata=None):
    """An ``ssl.SSLContext`` that trusts the hall's CA alone and checks the broker's name."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_verify_locations(cafile=cafile, cadata=cadata)
    return context


def on_loopback(host):
    """Whether every address ``host`` names is this machine's loopback (a name is looked
    up here, where the hosts file answers ``localhost``)."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(found) and all(ipaddress.ip_address(entry[4][0]).is_loopback for entry in found)


def check_plain(host, ca):
    """ValueError if a connection to ``host`` without the hall's CA (``ca`` empty) would
    leave this machine: the account's password would cross the hall's network in clear."""
    if not ca and not on_loopback(host):
        raise ValueError(
            "no ca for the broker at %s: plain MQTT goes to a broker on this machine "
            "(127.0.0.1) only; a hall's account file (hall.accounts) carries the hall's CA" % host
        )
