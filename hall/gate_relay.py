"""The login gate's two sides of a connection, as asyncio protocols (``hall.gate``).

- ``FirstPacket`` keeps what a side sends until its first MQTT packet is whole (the
  client's CONNECT, the broker's CONNACK): ``first`` (a future) then holds it, and
  ``buffer`` what came after it;
- ``splice`` hands both transports to a ``Relay`` each: a read on one side is written
  to the other in the same callback (no task woken, no copy kept), the reading of one
  side paused while the other's write buffer is full, and either side's end closing the
  other.
"""

import asyncio

from hall import gate_login

HELD_BYTES = 65536  # what a side may send past its first packet before the relay begins


class FirstPacket(asyncio.Protocol):
    """Bytes of one side until its first packet is whole (``gate_login.split_packet``)."""

    def __init__(self, limit):
        self.limit = limit
        self.buffer = bytearray()
        self.transport = None
        self.ended = False
        self.paused = False
        self.first = asyncio.get_running_loop().create_future()

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        self.buffer += data
        if self.first.done():  # more, while its login waits: kept, up to a bound
            if len(self.buffer) > HELD_BYTES and not self.paused:
                self.transport.pause_reading()
                self.paused = True
            return
        try:
            found = gate_login.split_packet(self.buffer, self.limit)
        except ValueError as error:
            self.first.set_exception(error)
            return
        if found is not None:
            self.first.set_result(found)

    def eof_received(self):
        self.connection_lost(None)
        return False  # the transport closes

    def connection_lost(self, exc):
        self.ended = True
        if not self.first.done():
            self.first.set_exception(ConnectionError("closed before its first packet"))


class Relay(asyncio.Protocol):
    """What one side sends, written to ``peer`` (the other side's transport)."""

    def __init__(self, peer, ended):
        self.peer = peer
        self.ended = ended

    def data_received(self, data):
        self.peer.write(data)

    def eof_received(self):
        return False  # the transport closes, and connection_lost closes the other side

    def connection_lost(self, exc):
        self.peer.close()  # what is written to it still goes out first
        if not self.ended.done():
            self.ended.set_result(None)

    def pause_writing(self):  # this side's outgoing buffer is full: stop reading the other
        self.peer.pause_reading()

    def resume_writing(self):
        self.peer.resume_reading()


async def splice(client, broker):
    """Relay the two ``FirstPacket`` sides both ways (what each sent past its first packet
    first) until either ends."""
    ended = asyncio.get_running_loop().create_future()
    client.transport.set_protocol(Relay(broker.transport, ended))
    broker.transport.set_protocol(Relay(client.transport, ended))
    for side, other in ((client, broker), (broker, client)):
        if side.paused:
            side.transport.resume_reading()
        if side.buffer:
            other.transport.write(bytes(side.buffer))
        if side.ended:  # it left before the relay began
            other.transport.close()
            return
    await ended
