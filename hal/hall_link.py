"""The clock's link to the tournament hall: Wi-Fi, the MQTT broker, the arbiter's push.

Loaded only on a board with a network (``NETWORK`` in its definition) that
has a hall file (``firmware.hall_settings``). ``HallLink.poll`` runs from the
main loop between two passes of the app, never in an interrupt or on the
tick path, and nothing in it waits: the connection is ``hal.mqtt``'s client
over a non-blocking socket (``hal.net_stream``), each poll does one bounded
piece of its work (starts a connect, or moves the bytes that are there: at
most ``hal.mqtt.READ_CHUNK`` read and ``hal.mqtt.WRITE_CHUNK`` written, as
many as the socket has or takes), and a link that is down is skipped until its backoff has
passed (1 s, doubling to ``MAX_BACKOFF_MS``). The broker's name is looked up
once, outside a game (a numeric address needs no lookup). A new board number
(``renumber``) is a request that the next poll carries out. A message goes
when the clock's or the claims' change counter moved (the journal's test of a
change), when a push was taken, and every ``HEARTBEAT_MS``. Nothing here
changes a time: a settings push is taken only in the setup state, and one
that comes while a clock runs is not even read then (reading allocates):
the broker's retained copy is asked for again once the clock stands
(docs/hall.md).

With the hall's CA in the hall file the connection is TLS (``hal.tls_stream``): its
handshake takes the processor for a while, so a TLS connection is started only
while no clock runs, and one still in its handshake when a clock starts is dropped;
a link lost in play comes back when the clock stands.
"""

from micropython import const

from firmware import engine, hall_message
from firmware.tickmath import ticks_add, ticks_diff
from hal import mqtt

HEARTBEAT_MS = const(30_000)
FIRST_BACKOFF_MS = const(1_000)
MAX_BACKOFF_MS = const(16_000)
KEEPALIVE_S = const(60)
ONLINE = b"online"
OFFLINE = b"offline"


class HallLink:
    """One board's connection to the hall's broker.

    ``resolve(host, port)`` gives an address and ``open_stream(address)`` a
    stream for ``hal.mqtt`` (``hal.net_stream``'s unless a test passes its own)."""

    def __init__(self, hall, wlan, resolve, open_stream):
        self.hall = hall
        self.wlan = wlan
        self.resolve = resolve
        self.open_stream = open_stream
        self.address = None  # the broker's address, once looked up
        self.tls = bool(getattr(hall, "ca", ""))  # the handshake: only while the clock stands
        self.client = mqtt.Client(b"", None, None, KEEPALIVE_S)
        self.message = hall_message.Message()  # written again for each message
        self._name(hall.board, hall.user)  # the number and account it joins under
        self.settings_topic = hall_message.settings_topic(hall.prefix).encode()
        self.seq = 0
        self.reason = "boot"  # the first message after boot, then "reconnect"
        self.retry_at = 0
        self.retry_pending = False  # True while waiting out a backoff
        self.backoff_ms = FIRST_BACKOFF_MS
        self.beat_at = 0
        self.sent_changes = -1  # the clock's and claims' change counts the last message told
        self.announce = False  # a message is owed (a new connection, a push taken)
        self.push = "none"  # what became of the arbiter's last push
        self.push_id = None
        self.push_again = False  # a push came while a clock ran: asked for again when it stands
        self.renumbering = None  # (board, user) asked for, carried out by the next poll
        self.published = 0
        self.failures = 0

    def _name(self, board, user):
        hall = self.hall
        self.board = board
        self.user = user
        password = hall.password
        self.client.identify(
            ("clock-%d" % board).encode(),
            None if user is None else user.encode(),
            None if password is None else password.encode(),
        )
        self.topic = hall_message.board_topic(hall.prefix, board).encode()
        self.status_topic = self.topic + b"/status"

    # --- the main loop's call ---------------------------------------------

    def poll(self, app, now):
        """One bounded piece of network work at tick ``now``; True if a message was queued."""
        if self.renumbering is not None:
            board, user = self.renumbering
            self.renumbering = None
            self.close()  # the old number's status goes offline (as far as the socket takes it)
            self._name(board, user)
            self.retry_pending = False
            self.reason = "boot"
            return False
        client = self.client
        if not self.wlan.isconnected():
            self._drop()
            return False
        if client.state == mqtt.DOWN:
            if self.retry_pending and ticks_diff(now, self.retry_at) < 0:
                return False  # down: skipped until the backoff has passed
            return self._connect(app, now)
        if self.tls and client.state != mqtt.UP and app.clock.state == engine.RUNNING:
            client.drop("handshake in play")  # back when the clock stands
            self.reason = "reconnect"
            return False
        try:
            return self._turn(app, now)
        except Exception:  # whatever came over the network: the link goes down, not the clock
            self._fail(now)
            return False

    def _turn(self, app, now):
        client = self.client
        event = client.poll(now)
        if event == mqtt.LOST:
            self._fail(now)
            return False
        if event == mqtt.CONNECTED:
            if not client.subscribe(self.settings_topic, now):  # first: its SUBACK is awaited
                raise OSError(105)  # ENOBUFS: the queue cannot take it
            client.publish(self.status_topic, ONLINE)
            self.retry_pending = False
            self.announce = True
        elif event == mqtt.SUBSCRIBED:
            self.backoff_ms = FIRST_BACKOFF_MS  # a broker that answers: the next failure waits 1 s
        elif event == mqtt.MESSAGE:
            if client.topic_is(self.settings_topic):
                if app.clock.state == engine.RUNNING:
                    self.push_again = True  # reading it allocates: not while a clock runs
                else:
                    self._take(app, client.payload())
        if not client.up():
            return False
        clock = app.clock
        if self.push_again and clock.state != engine.RUNNING:
            # The broker keeps the push (retained) and sends it again to a new SUBSCRIBE.
            if client.subscribe(self.settings_topic, now):
                self.push_again = False
        changes = clock.changes + app.claims.changes
        if self.announce:
            reason = self.reason
        elif changes != self.sent_changes:
            reason = "change"
        elif ticks_diff(now, self.beat_at) >= 0:
            reason = "heartbeat"
        else:
            return False
        return self._publish(app, now, reason, changes)

    def _take(self, app, payload):
        from firmware import hall_push  # loaded with the first push

        self.push, self.push_id = hall_push.take(app, payload, self.push, self.push_id)
        self.announce = True

    # --- connection --------------------------------------------------------

    def _connect(self, app, now):
        hall = self.hall
        if self.tls and app.clock.state == engine.RUNNING:
            return False  # no handshake while a clock runs
        if self.address is None:
            state = app.clock.state
            if state == engine.RUNNING or state == engine.PAUSED:
                return False  # the lookup may wait: never during a game
            try:
                self.address = self.resolve(hall.broker, hall.port)
            except Exception:  # no such name, no network stack: down, back off
                self._fail(now)
                return False
        try:
            self.client.open(self.open_stream(self.address), now, self.status_topic, OFFLINE)
        except Exception:  # refused at once, or a CONNECT longer than the queue
            self.client.drop("refused")
            self._fail(now)
            return False
        return False

    def _fail(self, now):
        self.failures += 1
        self._drop()
        self.reason = "reconnect"
        self.retry_pending = True
        self.retry_at = ticks_add(now, self.backoff_ms)
        self.backoff_ms = min(self.backoff_ms * 2, MAX_BACKOFF_MS)

    def _drop(self):
        if self.client.state != mqtt.DOWN:
            self.reason = "reconnect"
            self.client.drop("wifi")

    def deadline(self):
        """The tick of the link's next timed work, or None: the end of a backoff while
        it is down, the heartbeat while it is up. The client's own timers (a ping after
        ``hal.mqtt.PING_MS`` of silence, an answer or a stalled queue given
        ``ANSWER_MS`` or ``STALL_MS``) are seconds long and served at the main loop's
        wakes, at least one a second (``firmware.deadlines.REST_MAX_MS``)."""
        state = self.client.state
        if state == mqtt.DOWN:
            return self.retry_at if self.retry_pending else None
        if state == mqtt.UP:
            return self.beat_at
        return None

    def writing(self):
        """True while a message is part written and the socket took bytes at the last
        poll: the main loop polls again at once rather than a tick later, so a message
        longer than ``hal.mqtt.WRITE_CHUNK`` goes out in consecutive passes, each as
        bounded as any other."""
        return self.client.writing()

    def renumber(self, board, user):
        """The board's new number (the setup menu): the next poll leaves the broker
        under the old one and the next connection uses the new one."""
        self.renumbering = (board, user)

    def close(self):
        """Leave the broker cleanly: ``offline`` on the status and a DISCONNECT, as far
        as the socket takes them at once (else the broker's will says the same)."""
        client = self.client
        if client.up():
            client.publish(self.status_topic, OFFLINE)
        client.disconnect()

    # --- messages ------------------------------------------------------------

    def _publish(self, app, now, reason, changes):
        message = self.message
        count = message.write(app, now, self.board, self.seq + 1, reason, self.push, self.push_id)
        if not self.client.publish(self.topic, message.buffer, True, count):
            return False  # the queue is full: the same message is tried at the next poll
        self.seq += 1
        self.published += 1
        self.sent_changes = changes
        self.announce = False
        self.reason = "change"
        self.beat_at = ticks_add(now, HEARTBEAT_MS)
        return True


def attach(app, storage):
    """The board's link if a usable hall file is on the flash, else None; a file it
    cannot use shows its code at boot (``Err4``) and the clock stays offline."""
    from firmware import hall_settings

    hall, code = hall_settings.load(storage)
    if code is not None:
        app.notice(code)
    if hall is None:
        return None
    battery = app.hardware.battery
    if hasattr(battery, "use_radio"):  # the radio draws too: the mark comes earlier
        battery.use_radio()
    import network

    from hal import net_stream

    wlan = network.WLAN(network.STA_IF)
    wlan.active(True)
    if hall.ssid and not wlan.isconnected():
        wlan.connect(hall.ssid, hall.wifi_password)  # returns at once; poll waits for it
    if not hall.ca:
        return HallLink(hall, wlan, net_stream.resolve, net_stream.SocketStream)
    from hal.tls_stream import TlsStream

    def open_tls(address):
        return TlsStream(address, hall.ca, hall.broker)

    return HallLink(hall, wlan, net_stream.resolve, open_tls)
