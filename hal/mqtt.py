"""The clock's MQTT 3.1.1 client: the subset the hall uses, and no call that waits.

CONNECT (with a will) and CONNACK, PUBLISH at QoS 0 (retained), SUBSCRIBE and
SUBACK, PINGREQ and PINGRESP, DISCONNECT. It talks to a *stream* (``hal.net_stream``
on a board and in the simulator, a scripted one in the tests) that answers at
once: ``ready()`` (readiness at zero timeout: ``READABLE``, ``WRITABLE``,
``BROKEN``), ``readinto(buffer, count)`` (the bytes there are, 0 if none yet),
``write(buffer, start, count)`` (what the socket took, 0 if nothing) and
``close()``; a reset raises ``OSError``.

``poll(now)`` does one bounded piece of work: writes at most ``WRITE_CHUNK``
bytes of the outgoing queue (as many as the stream takes), reads at most
``READ_CHUNK`` bytes and feeds them to an
incremental parser that keeps whatever part of a packet has come and never
waits for the rest, and watches the answers it waits for (CONNACK, SUBACK,
PINGRESP: ``ANSWER_MS``), the outgoing queue (``STALL_MS`` without progress)
and the silence of the broker (a ping after ``PING_MS``). Everything it keeps
is allocated here once: the incoming packet's buffer, the outgoing queue.
A packet longer than the buffer is read past and dropped; bytes that are no
MQTT packet end the connection.
"""

from micropython import const

from firmware.tickmath import ticks_diff

READABLE = const(1)
WRITABLE = const(2)
BROKEN = const(4)

# What ``poll`` reports.
IDLE = const(0)  # nothing new
CONNECTED = const(1)  # the broker accepted the connection
MESSAGE = const(2)  # a PUBLISH arrived: ``topic_is`` and ``payload``
LOST = const(3)  # the connection is gone (``reason`` says why); the stream is closed
SUBSCRIBED = const(4)  # the SUBACK came

# The client's states.
DOWN = const(0)
OPENING = const(1)  # the TCP connect is under way
WAITING = const(2)  # CONNECT sent, no CONNACK yet
UP = const(3)

READ_CHUNK = const(48)  # the most bytes one poll reads
WRITE_CHUNK = const(96)  # the most bytes one poll writes
ANSWER_MS = const(5_000)  # a CONNACK, SUBACK or PINGRESP not in by then: the link is lost
STALL_MS = const(5_000)  # an outgoing queue the socket takes nothing of for this long: lost
PING_MS = const(20_000)  # silence from the broker this long: a PINGREQ
# The write calls the broker has not yet confirmed (by answering a request sent
# after them) are bounded: a network stack keeps each call's bytes queued until
# the far end acknowledges them, and on the Pico W a full queue makes even a
# non-blocking write wait (MicroPython's modlwip retries for up to 10 s; lwIP's
# queue holds 32 buffers there, a write of at most WRITE_CHUNK bytes adds one).
# PROBE_CALLS unconfirmed calls send a PINGREQ whose PINGRESP confirms them;
# at UNCONFIRMED_CALLS the client writes nothing more until an answer comes
# (and a link that never answers is lost after ANSWER_MS).
PROBE_CALLS = const(8)
UNCONFIRMED_CALLS = const(20)
_POSITION_MASK = const(0xFFFFFF)  # stream positions count modulo 2**24

_CONNACK = const(0x20)
_PUBLISH = const(0x30)
_SUBACK = const(0x90)
_PINGRESP = const(0xD0)

# The reader's phases.
_HEAD = const(0)
_LENGTH = const(1)
_BODY = const(2)


class Client:
    """One connection to a broker at a time; ``inbox``/``outbox`` are its fixed buffers."""

    def __init__(self, client_id, user, password, keepalive_s, inbox=1024, outbox=1024):
        self.client_id = client_id
        self.user = user
        self.password = password
        self.keepalive_s = keepalive_s
        self.inbox = bytearray(inbox)
        self.outbox = bytearray(outbox)
        self.chunk = bytearray(READ_CHUNK)
        self.chunk_at = 0  # chunk[chunk_at:chunk_count] is read but not parsed yet
        self.chunk_count = 0
        self.stream = None
        self.state = DOWN
        self.reason = None  # why the last connection ended (a short word)
        self.out_start = 0  # the queue: outbox[out_start:out_end] is still to go
        self.out_end = 0
        self.out_moved_at = 0  # the last tick the stream took bytes (or the queue was empty)
        self.wrote = False  # the last poll's write moved bytes
        self.heard_at = 0  # the last tick a byte came
        self.awaited = 0  # the packet type an answer is expected with (0: none)
        self.asked_at = 0
        self.phase = _HEAD
        self.head = 0
        self.length = 0
        self.shift = 0
        self.got = 0
        self.oversized = 0  # packets read past: longer than the inbox
        self.topic_start = 0  # the last PUBLISH: inbox[topic_start:topic_end] its topic
        self.topic_end = 0
        self.payload_start = 0  # and inbox[payload_start:payload_end] its payload
        self.payload_end = 0
        self.refused = 0  # the CONNACK's return code when it was not 0
        self.written = 0  # bytes written on this connection (modulo 2**24)
        self.awaited_end = 0  # the position just after the request whose answer is awaited
        self.call_ends = [0] * UNCONFIRMED_CALLS  # where each unconfirmed write call ended
        self.call_first = 0
        self.calls = 0  # write calls the broker has not confirmed

    # --- the connection -------------------------------------------------------

    def identify(self, client_id, user, password):
        """The client id and account the next CONNECT gives (bytes; user None: none)."""
        self.client_id = client_id
        self.user = user
        self.password = password

    def open(self, stream, now, will_topic, will_message):
        """Start a connection over ``stream`` (connecting, non-blocking): CONNECT is
        queued and goes once the stream is writable."""
        self.stream = stream
        self.state = OPENING
        self.reason = None
        self.out_start = self.out_end = 0
        self.phase = _HEAD
        self.chunk_at = self.chunk_count = 0
        self.written = self.calls = self.call_first = 0
        self.wrote = False
        self.heard_at = now
        self.out_moved_at = now
        user = self.user
        password = self.password
        flags = 0x02 | 0x04 | 0x20  # clean session, a will, retained
        length = 10 + 2 + len(self.client_id) + 2 + len(will_topic) + 2 + len(will_message)
        if user:
            flags |= 0x80
            length += 2 + len(user)
            if password:
                flags |= 0x40
                length += 2 + len(password)
        self._head(0x10, length)
        self._text(b"MQTT")
        self._byte(4)  # protocol level: 3.1.1
        self._byte(flags)
        self._byte(self.keepalive_s >> 8)
        self._byte(self.keepalive_s & 0xFF)
        self._text(self.client_id)
        self._text(will_topic)
        self._text(will_message)
        if user:
            self._text(user)
            if password:
                self._text(password)
        self._await(_CONNACK, now)

    def up(self):
        return self.state == UP

    def writing(self):
        """True while bytes are queued and the last poll's write moved some: a poll
        right away goes on writing (the main loop gives it the next pass instead of
        sleeping to its next wake). A stream that took nothing: False, so a full
        network stack is not asked again before the next wake."""
        return self.wrote and self.out_end != self.out_start

    def room(self):
        """Bytes free in the outgoing queue."""
        return len(self.outbox) - self.out_end + self.out_start

    def publish(self, topic, payload, retain=True, count=-1):
        """Queue a QoS 0 PUBLISH of ``payload`` (its first ``count`` bytes: copied, so
        a buffer can be written again); False (nothing queued) if the queue has no room."""
        if count < 0:
            count = len(payload)
        length = 2 + len(topic) + count
        if self.state != UP or self.room() < length + 5:
            return False
        self._head(0x31 if retain else 0x30, length)
        self._text(topic)
        self._bytes(payload, count)
        return True

    def subscribe(self, topic, now):
        """Queue a SUBSCRIBE (QoS 0, packet id 1); the SUBACK is awaited. False (nothing
        queued) if the queue has no room."""
        length = 2 + 2 + len(topic) + 1
        if self.room() < length + 5:
            return False
        self._head(0x82, length)
        self._byte(0)
        self._byte(1)
        self._text(topic)
        self._byte(0)
        self._await(_SUBACK, now)
        return True

    def disconnect(self):
        """Queue a DISCONNECT and write what the stream takes now, then close it."""
        if self.state == UP and self.room() >= 2:
            self._head(0xE0, 0)
            try:
                self._write()
            except OSError:
                pass
        self.drop("closed")

    def drop(self, reason):
        """Close the stream at once (no bytes more)."""
        stream = self.stream
        self.stream = None
        self.state = DOWN
        self.reason = reason
        self.out_start = self.out_end = 0
        self.wrote = False
        self.awaited = 0
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass

    # --- the main loop's turn -------------------------------------------------

    def poll(self, now):
        """One bounded piece of work at tick ``now``; what happened (``IDLE``…)."""
        if self.state == DOWN:
            return IDLE
        try:
            ready = self.stream.ready()
            if ready & BROKEN:
                return self._lose("reset")
            if self.state == OPENING:
                if not ready & WRITABLE:
                    return self._late(now)
                self.state = WAITING  # connected: CONNECT goes now
            if ready & WRITABLE:
                self._write_at(now)
            if self.calls >= PROBE_CALLS and not self.awaited and self.state == UP:
                self._ping(now)  # the broker's answer confirms the calls before it
            if self.out_end != self.out_start and ticks_diff(now, self.out_moved_at) >= STALL_MS:
                return self._lose("stalled")
            event = self._read(now, ready & READABLE)
            if event != IDLE:
                return event
            return self._late(now)
        except OSError:
            return self._lose("reset")

    def _late(self, now):
        """The answer awaited is overdue, or the broker has been silent: ping it."""
        if self.awaited:
            if ticks_diff(now, self.asked_at) >= ANSWER_MS:
                return self._lose("no answer")
        elif self.state == UP and ticks_diff(now, self.heard_at) >= PING_MS:
            self._ping(now)
        return IDLE

    def _ping(self, now):
        if self.room() >= 2:
            self._head(0xC0, 0)
            self._await(_PINGRESP, now)

    def _lose(self, reason):
        self.drop(reason)
        return LOST

    def _await(self, kind, now):
        """The answer of ``kind`` to the request just queued is awaited from ``now``."""
        self.awaited = kind
        self.asked_at = now
        self.awaited_end = (self.written + self.out_end - self.out_start) & _POSITION_MASK

    def _answered(self):
        """The awaited answer came: every write call up to its request is confirmed."""
        self.awaited = 0
        end = self.awaited_end
        ends = self.call_ends
        while self.calls and (end - ends[self.call_first]) & _POSITION_MASK < 0x800000:
            self.call_first = (self.call_first + 1) % UNCONFIRMED_CALLS
            self.calls -= 1

    # --- writing ----------------------------------------------------------------

    def _write_at(self, now):
        if self.out_end == self.out_start:
            self.wrote = False
            self.out_moved_at = now
            return
        self.wrote = self._write() > 0
        if self.wrote:
            self.out_moved_at = now

    def _write(self):
        start = self.out_start
        count = self.out_end - start
        if count <= 0:
            return 0
        if count > WRITE_CHUNK:
            count = WRITE_CHUNK
        calls = self.calls
        if calls >= UNCONFIRMED_CALLS:
            return 0  # the stack may be holding all of them: nothing more until an answer
        sent = self.stream.write(self.outbox, start, count)
        if sent:
            written = (self.written + sent) & _POSITION_MASK
            self.written = written
            self.call_ends[(self.call_first + calls) % UNCONFIRMED_CALLS] = written
            self.calls = calls + 1
            start += sent
            if start == self.out_end:
                start = self.out_end = 0
            self.out_start = start
        return sent

    def _make_room(self, count):
        """Move what is still to go to the queue's start if the end has no room."""
        outbox = self.outbox
        if self.out_end + count <= len(outbox):
            return
        start = self.out_start
        end = self.out_end
        index = 0
        while start < end:
            outbox[index] = outbox[start]
            index += 1
            start += 1
        self.out_start = 0
        self.out_end = index
        if index + count > len(outbox):
            raise OSError(105)  # ENOBUFS: the caller checks room() first

    def _head(self, kind, length):
        self._make_room(length + 5)
        self._byte(kind)
        while True:
            digit = length & 0x7F
            length >>= 7
            if length:
                self._byte(digit | 0x80)
            else:
                self._byte(digit)
                return

    def _byte(self, value):
        self.outbox[self.out_end] = value
        self.out_end += 1

    def _text(self, text):
        count = len(text)
        self._byte(count >> 8)
        self._byte(count & 0xFF)
        self._bytes(text, count)

    def _bytes(self, data, count):
        outbox = self.outbox
        end = self.out_end
        index = 0
        while index < count:  # an index, not an iterator: nothing allocated
            outbox[end] = data[index]
            end += 1
            index += 1
        self.out_end = end

    # --- reading ------------------------------------------------------------------

    def _read(self, now, readable):
        """Parse the bytes left from the last chunk, or a new chunk if the stream has one;
        returns at the first packet that means something (its bytes after it wait)."""
        chunk = self.chunk
        index = self.chunk_at
        count = self.chunk_count
        if index >= count:
            if not readable:
                return IDLE
            count = self.stream.readinto(chunk, READ_CHUNK)
            if not count:
                return IDLE
            index = 0
            self.chunk_count = count
            self.heard_at = now
        inbox = self.inbox
        size = len(inbox)
        while index < count:
            value = chunk[index]
            index += 1
            phase = self.phase
            if phase == _HEAD:
                kind = value & 0xF0
                if kind == 0 or kind == 0xF0 or (kind != _PUBLISH and value & 0x0F):
                    return self._lose("garbage")  # no packet a broker sends a client
                self.head = value
                self.length = 0
                self.shift = 0
                self.phase = _LENGTH
                continue
            if phase == _LENGTH:
                self.length |= (value & 0x7F) << self.shift
                self.shift += 7
                if value & 0x80:
                    if self.shift > 21:
                        return self._lose("garbage")  # a length of more than four bytes
                    continue
                self.got = 0
                self.phase = _BODY
                if self.length != 0:
                    continue
            else:
                got = self.got
                if got < size:
                    inbox[got] = value
                self.got = got + 1
                if self.got != self.length:
                    continue
            event = self._packet()
            if event != IDLE:
                self.chunk_at = index
                return event
        self.chunk_at = index
        return IDLE

    def _packet(self):
        """A whole packet is in: what it means."""
        self.phase = _HEAD
        kind = self.head & 0xF0
        length = self.length
        inbox = self.inbox
        if kind == _CONNACK:
            if self.awaited != _CONNACK or length != 2:
                return self._lose("garbage")
            self._answered()
            if inbox[1] != 0:
                self.refused = inbox[1]
                return self._lose("refused")
            self.state = UP
            return CONNECTED
        if kind == _SUBACK:
            if self.awaited == _SUBACK:
                self._answered()
            if length >= 3 and inbox[2] == 0x80:
                return self._lose("refused")  # the broker refused the subscription
            return SUBSCRIBED
        if kind == _PINGRESP:
            if self.awaited == _PINGRESP:
                self._answered()
            return IDLE
        if kind == _PUBLISH:
            if length > len(inbox):
                self.oversized += 1
                return IDLE
            if length < 2:
                return self._lose("garbage")
            topic_length = (inbox[0] << 8) | inbox[1]
            start = 2 + topic_length
            if self.head & 0x06:
                start += 2  # a packet id (QoS 1 or 2; the subscription asks for 0)
            if start > length:
                return self._lose("garbage")
            self.topic_start = 2
            self.topic_end = 2 + topic_length
            self.payload_start = start
            self.payload_end = length
            return MESSAGE
        return IDLE  # nothing else is for a client of QoS 0: let it pass

    def topic_is(self, topic):
        """True if the last PUBLISH came on ``topic`` (bytes), compared in place."""
        start = self.topic_start
        if self.topic_end - start != len(topic):
            return False
        inbox = self.inbox
        index = 0
        count = len(topic)
        while index < count:
            if inbox[start + index] != topic[index]:
                return False
            index += 1
        return True

    def payload(self):
        """The last PUBLISH's payload as new bytes (only for a message that is taken)."""
        return bytes(self.inbox[self.payload_start : self.payload_end])
