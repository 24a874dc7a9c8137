"""The clock's link to the tournament hall: Wi-Fi, the MQTT broker, the arbiter's push.

Loaded only on a board with a network (``NETWORK`` in its definition) that
has a hall file (``firmware.hall_settings``). ``HallLink.poll`` runs from the
main loop between two passes of the app, never in an interrupt or on the
tick path, and every call in it is bounded in time: the socket's timeouts
bound a connect (``CONNECT_TIMEOUT_S``) and every read or write
(``IO_TIMEOUT_S``), each poll makes at most one connect or one publish, and
a link that is down is skipped, not retried, until its backoff has passed
(1 s, doubling to ``MAX_BACKOFF_MS``). Nothing here changes a time: a
settings push is taken only in the setup state (docs/hall.md).

The client is micropython-lib's ``umqtt.simple`` on a board; the simulator
supplies the same ``MQTTClient`` over the host's MQTT library (``sim/umqtt``).
"""

from micropython import const

import firmware
from firmware import hall_message, lifetime
from firmware.tickmath import ticks_add, ticks_diff

HEARTBEAT_MS = const(30_000)
FIRST_BACKOFF_MS = const(1_000)
MAX_BACKOFF_MS = const(16_000)
CONNECT_TIMEOUT_S = 1
IO_TIMEOUT_S = 0.25
KEEPALIVE_S = const(60)
ONLINE = b"online"
OFFLINE = b"offline"
_SIGNATURE = const(18)


class HallLink:
    """One board's connection to the hall's broker."""

    def __init__(self, hall, client_class, wlan):
        self.hall = hall
        self.client_class = client_class
        self.wlan = wlan
        self.client = None
        self.topic = hall_message.board_topic(hall.prefix, hall.board)
        self.status_topic = self.topic + "/status"
        self.settings_topic = hall_message.settings_topic(hall.prefix)
        self.seq = 0
        self.reason = "boot"  # the first message after boot, then "reconnect"
        self.retry_at = 0
        self.retry_pending = False  # True while waiting out a backoff
        self.backoff_ms = FIRST_BACKOFF_MS
        self.beat_at = 0
        self.sent = [None] * _SIGNATURE  # what the last message said
        self.seen = [None] * _SIGNATURE
        self.push = "none"  # what became of the arbiter's last push
        self.push_id = None
        self.incoming = None  # a settings push received in check_msg, taken by poll
        self.published = 0
        self.failures = 0
        self.app = None

    # --- the main loop's call ---------------------------------------------

    def poll(self, app, now):
        """One bounded piece of network work at tick ``now``; True if a message went."""
        if not self.wlan.isconnected():
            self._drop()
            return False
        if self.client is None:
            if self.retry_pending and ticks_diff(now, self.retry_at) < 0:
                return False  # down: skipped until the backoff has passed
            return self._connect(app, now)
        try:
            self.client.check_msg()
            if self.incoming is not None:
                payload = self.incoming
                self.incoming = None
                from firmware import hall_push  # loaded for a push, let go after it

                self.push, self.push_id = hall_push.take(app, payload, self.push, self.push_id)
                lifetime.let_go(firmware, "hall_push")
                lifetime.let_go(firmware, "settings_file")
                lifetime.let_go(firmware, "strict_json")
            if self._changed(app):
                return self._publish(app, now, "change")
            if ticks_diff(now, self.beat_at) >= 0:
                return self._publish(app, now, "heartbeat")
        except Exception:  # a broken socket, a timeout, a refused write: down, back off
            self._fail(now)
        return False

    # --- connection --------------------------------------------------------

    def _connect(self, app, now):
        hall = self.hall
        client = None
        try:
            client = self.client_class(
                "clock-%d" % hall.board,
                hall.broker,
                port=hall.port,
                user=hall.user,
                password=hall.password,
                keepalive=KEEPALIVE_S,
            )
            client.set_callback(self._message)
            client.set_last_will(self.status_topic, OFFLINE, retain=True)
            client.connect(timeout=CONNECT_TIMEOUT_S)
            client.sock.settimeout(IO_TIMEOUT_S)
            self.client = client
            client.publish(self.status_topic, ONLINE, retain=True)
            client.subscribe(self.settings_topic)
            self.backoff_ms = FIRST_BACKOFF_MS
            self.retry_pending = False
            self._changed(app)
            return self._publish(app, now, self.reason)
        except Exception:
            if client is not None and self.client is None:
                _close(client)  # refused or timed out: its socket goes too
            self._fail(now)
            return False

    def _fail(self, now):
        self.failures += 1
        self._drop()
        self.retry_pending = True
        self.retry_at = ticks_add(now, self.backoff_ms)
        self.backoff_ms = min(self.backoff_ms * 2, MAX_BACKOFF_MS)

    def _drop(self):
        client = self.client
        self.client = None
        if client is not None:
            self.reason = "reconnect"
            _close(client)

    def renumber(self, board, user):
        """The board's new number (the setup menu): the next connection uses it."""
        hall = self.hall
        hall.board = board
        hall.user = user
        self.topic = hall_message.board_topic(hall.prefix, board)
        self.status_topic = self.topic + "/status"
        self.close()  # the old number's status goes offline
        self.retry_pending = False
        self.reason = "boot"

    def close(self):
        """Leave the broker cleanly (the status stays as the will would set it)."""
        client = self.client
        if client is None:
            return
        try:
            client.publish(self.status_topic, OFFLINE, retain=True)
            client.disconnect()
        except Exception:
            pass
        self.client = None

    # --- messages ------------------------------------------------------------

    def _publish(self, app, now, reason):
        self.client.sock.settimeout(IO_TIMEOUT_S)  # check_msg may have left it blocking
        self.seq += 1
        payload = hall_message.encode(
            app, now, self.hall.board, self.seq, reason, self.push, self.push_id
        )
        self.client.publish(self.topic, payload, retain=True)
        self.published += 1
        sent = self.sent
        seen = self.seen
        index = 0
        while index < _SIGNATURE:
            sent[index] = seen[index]
            index += 1
        self.beat_at = ticks_add(now, HEARTBEAT_MS)
        return True

    def _changed(self, app):
        """Note what a message tells in ``seen``; True if it differs from the last one sent."""
        clock = app.clock
        claims = app.claims
        left, right = clock.sides
        seen = self.seen
        seen[0] = clock.state
        seen[1] = clock.mover
        seen[2] = clock.white
        seen[3] = left.remaining_ms
        seen[4] = right.remaining_ms
        seen[5] = left.moves
        seen[6] = right.moves
        seen[7] = left.flagged
        seen[8] = right.flagged
        seen[9] = claims.state
        seen[10] = claims.claimant
        seen[11] = claims.result
        seen[12] = left.period
        seen[13] = right.period
        seen[14] = left.byo_left
        seen[15] = right.byo_left
        seen[16] = clock
        seen[17] = self.push
        sent = self.sent
        index = 0
        while index < _SIGNATURE:
            if seen[index] is not sent[index] and seen[index] != sent[index]:
                return True
            index += 1
        return False

    def _message(self, topic, payload):
        """umqtt's callback (inside ``check_msg``): keep a settings push for ``poll``."""
        if topic == self.settings_topic.encode() or topic == self.settings_topic:
            self.incoming = payload


def attach(app, storage):
    """The board's link if a usable hall file is on the flash, else None; a file it
    cannot use shows its code at boot (``Err4``) and the clock stays offline."""
    from firmware import hall_settings

    hall, code = hall_settings.load(storage)
    # Boot alone reads the hall file (the menu loads it again).
    lifetime.let_go(firmware, "hall_settings")
    if code is not None:
        app.notice(code)
    if hall is None:
        return None
    battery = app.hardware.battery
    if hasattr(battery, "low_mv"):  # the radio draws too: the mark comes earlier
        battery.low_mv = getattr(app.hardware.board, "BATTERY_LOW_HALL_MV", battery.low_mv)
    import network
    from umqtt.simple import MQTTClient

    wlan = network.WLAN(network.STA_IF)
    wlan.active(True)
    if hall.ssid and not wlan.isconnected():
        wlan.connect(hall.ssid, hall.wifi_password)  # returns at once; poll waits for it
    return HallLink(hall, MQTTClient, wlan)


def _close(client):
    try:
        client.sock.close()
    except Exception:
        pass  # no socket yet, or already closed
