"""The hall file: which Wi-Fi, which broker, which account and which board number.

``hall.json`` on the flash (written by ``make hall-flash``, see
docs/hall.md). A missing file means no hall: the clock works offline, as it
always did. A file the clock cannot use leaves it offline too, is set aside
as ``hall.json.bad`` and shows ``Err4`` (``vEr4`` for a newer format) at
boot, like the other files (``firmware.boot.documents``). The passwords are kept
only to join: ``describe`` and every error leave them out, so they never
reach the display or the event log.
"""

from micropython import const

from firmware import files

NUMBER = const(4)  # the display code's number: Err4, vEr4
DEFAULT_PREFIX = "hall"
DEFAULT_PORT = const(1883)
MAX_BOARD = const(9999)
_TEXTS = ("ssid", "wifi_password", "broker", "user", "password", "ca")
MAX_CA = const(4096)  # the hall's CA certificate (PEM): an ECDSA P-256 one is about 600


def _text(data, name, empty_ok):
    value = data.get(name, "")
    if not isinstance(value, str):
        raise ValueError("%s must be text" % name)  # never the value: it may be a secret
    if not value and not empty_ok:
        raise ValueError("%s is missing" % name)
    return value


def check_prefix(prefix):
    """Raise ValueError unless ``prefix`` is a plain topic level (no wildcard, no slash)."""
    if not isinstance(prefix, str) or not prefix:
        raise ValueError("prefix must be non-empty text")
    for char in prefix:
        if char in "+#/" or ord(char) < 33 or ord(char) > 126:
            raise ValueError("prefix %r: letters, digits and punctuation other than + # /" % prefix)


def on_loopback(host):
    """Whether ``host`` is a loopback address written out (``127.x.y.z`` or ``::1``): the
    only broker plain MQTT may go to. A name is not: a name is looked up on the hall's
    network, where anyone may answer."""
    if host == "::1":
        return True
    parts = host.split(".")
    if len(parts) != 4 or parts[0] != "127":
        return False
    for part in parts:
        if not part or len(part) > 3 or any(c not in "0123456789" for c in part):
            return False
        if int(part) > 255:
            return False
    return True


def check_board(number):
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= MAX_BOARD:
        raise ValueError("board must be a whole number 1..%d, got %r" % (MAX_BOARD, number))


class Hall:
    """The hall's settings, checked whole."""

    def __init__(self, data):
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        if "broker" not in data:
            raise ValueError("no broker: not a hall file")
        self.ssid = _text(data, "ssid", True)  # empty: the board is on a network already
        self.wifi_password = _text(data, "wifi_password", True)
        self.broker = _text(data, "broker", False)
        self.password = _text(data, "password", True)
        port = data.get("port", DEFAULT_PORT)
        if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
            raise ValueError("port must be 1..65535, got %r" % (port,))
        self.port = port
        board = data.get("board")
        check_board(board)
        self.board = board
        # No user: the board's own account, clock-N, follows the number (docs/hall.md).
        self.user = _text(data, "user", True)
        self.numbered_user = not self.user
        if not self.user:
            self.user = "clock-%d" % board
        prefix = data.get("prefix", DEFAULT_PREFIX)
        check_prefix(prefix)
        self.prefix = prefix
        # The hall's CA (PEM): the link speaks TLS and checks the broker's certificate
        # with it; empty: plain MQTT, for a broker on loopback only (the simulator's).
        self.ca = _text(data, "ca", True)
        if len(self.ca) > MAX_CA or (self.ca and "-----BEGIN CERTIFICATE-----" not in self.ca):
            raise ValueError("ca must be a PEM certificate of at most %d characters" % MAX_CA)
        if not self.ca and not on_loopback(self.broker):
            # the passwords would cross the hall's Wi-Fi in clear
            raise ValueError("no ca: plain MQTT only to a broker on 127.0.0.1")

    def to_dict(self):
        data = {"broker": self.broker, "port": self.port, "board": self.board}
        data["prefix"] = self.prefix
        for name in _TEXTS:
            data[name] = getattr(self, name)
        if self.numbered_user:
            data["user"] = ""
        return data

    def describe(self):
        """What may be shown or logged: everything but the two passwords."""
        return "board %d, broker %s:%d (%s) as %s, network %r" % (
            self.board,
            self.broker,
            self.port,
            "TLS" if self.ca else "plain",
            self.user,
            self.ssid,
        )


def load(storage):
    """``(hall, code)``: the Hall or None, and the boot code (``Err4``...) or None."""
    from firmware.boot import documents

    found = []

    def take(data):
        found.append(Hall(data))

    problem = documents.load(storage, files.HALL, take)
    if problem is not None:
        return None, documents.code(problem.kind, NUMBER)
    return (found[0] if found else None), None


def save_board(storage, number):
    """Write a new board number into the hall file (the setup menu); the rest is kept."""
    check_board(number)
    data = storage.read_json(files.HALL)
    hall = Hall(data)
    hall.board = number
    if hall.numbered_user:
        hall.user = "clock-%d" % number
    storage.write_json(files.HALL, hall.to_dict())
    return hall
