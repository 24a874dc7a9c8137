"""The simulated RP2040's DMA channels, as ``rp2.DMA`` (``sim.rp2`` gives them to the firmware).

Channels move words: from ``TIMERAWL`` (the simulated timer, ``sim.machine``)
or a state machine's RX FIFO (``PIO0_RXF0`` on: the read takes the word
out), into the buffer given as ``write`` (its address wrapping as
``ring_size`` says) or into another channel's ``AL1_TRANS_COUNT_TRIG``
(which starts that channel for as many transfers). A channel paced by a
state machine's RX DREQ is served at its pushes (``serve``) as
``DREQ.mode`` says: ``"credit"``, one transfer per push; ``"level"``, a
transfer as long as the FIFO is not empty, as rp2040js models it, so a
channel that does not read the FIFO runs on until its count is out.
Unpaced channels (``TREQ_SEL`` 0x3F) run their count when started.
``pack_ctrl`` packs the fields where the datasheet's 2.5.7 ``CH0_CTRL_TRIG``
puts them. It runs on CPython and inside MicroPython.
"""

from sim import machine as sim_machine

CHANNELS = []  # the channels claimed since ``reset``, by number
STATE_MACHINES = {}  # id -> the state machine whose RX FIFO a channel may read (sim.rp2)

DREQ_PIO0_RX0 = 4  # RP2040 datasheet 2.5.3.1
# CH0_CTRL_TRIG's fields (2.5.7): name -> (lowest bit, width).
_CTRL_FIELDS = {
    "enable": (0, 1),
    "high_pri": (1, 1),
    "size": (2, 2),
    "inc_read": (4, 1),
    "inc_write": (5, 1),
    "ring_size": (6, 4),
    "ring_sel": (10, 1),
    "chain_to": (11, 4),
    "treq_sel": (15, 6),
    "irq_quiet": (21, 1),
    "bswap": (22, 1),
    "sniff_en": (23, 1),
}
_TREQ_PERMANENT = 0x3F
PIO0_RXF0 = 0x50200020  # 2.2, 3.7: RXF0..RXF3, 4 bytes apart
DMA_BASE = 0x50000000  # 2.2; 2.5.7: channels 0x40 apart
_AL1_TRANS_COUNT_TRIG = 0x01C
_LEVEL_BURST = 64  # transfers modelled one by one under a level before the rest at once


class _Dreq:
    """How a PIO RX FIFO's DREQ paces a DMA channel: ``"credit"`` or ``"level"``
    (``set_dreq``)."""

    mode = "credit"


DREQ = _Dreq()


def set_dreq(mode):
    """The DREQ's semantics from now on: one credit per push, or a level (FIFO not empty)."""
    if mode not in ("credit", "level"):
        raise ValueError("the DREQ is a credit or a level, not %r" % (mode,))
    DREQ.mode = mode


def _field(ctrl, name):
    shift, width = _CTRL_FIELDS[name]
    return (ctrl >> shift) & ((1 << width) - 1)


class DMA:
    """A DMA channel: the next free number, as ``rp2.DMA()`` claims one."""

    def __init__(self):
        self.channel = len(CHANNELS)
        self.read = 0
        self.write_base = 0  # the write address given (a buffer's, in SRAM, 16-byte aligned)
        self.target = None  # the buffer at ``write_base``, or None: a register address
        self.count = 0
        self.reload = 0  # TRANS_COUNT as written: what a trigger starts the channel with
        self.ctrl = 0
        self.offset = 0  # bytes into ``write_base`` the next transfer writes
        self.transfers = 0  # every transfer made, for the tests
        # Where the addresses lead, worked out once at ``config`` (the addresses are big
        # ints inside MicroPython: a transfer under heap_lock must not compute with them).
        self.source_machine = -1  # the state machine whose RX FIFO ``read`` is, or -1
        self.trigger_channel = -1  # the channel whose AL1_TRANS_COUNT_TRIG ``write`` is
        CHANNELS.append(self)

    @property
    def write(self):
        """The WRITE_ADDR register: where the next transfer writes."""
        return self.write_base + (self.offset if self.target is not None else 0)

    def pack_ctrl(self, **fields):
        ctrl = (
            1 << 21 | _TREQ_PERMANENT << 15 | 1 << 5 | 1 << 4 | 2 << 2 | 1 | self.channel << 11
        )  # MicroPython's default (ports/rp2/rp2_dma.c): quiet, unpaced, words, both increment
        for name in fields:
            shift, width = _CTRL_FIELDS[name]
            value = int(fields[name])
            if value >> width:
                raise ValueError("bad field value")
            ctrl = (ctrl & ~(((1 << width) - 1) << shift)) | value << shift
        return ctrl

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        if read is not None:
            self.read = read
            self.source_machine = _fifo_of(read)
        if write is not None:
            if isinstance(write, int):
                self.target = None
                self.write_base = write
                self.trigger_channel = _trigger_of(write)
            else:
                self.target = write
                self.write_base = 0x20000000 + 64 * self.channel
        if count is not None:
            self.reload = count
            self.count = 0
        if ctrl is not None:
            self.ctrl = ctrl
        if not trigger or read is not None or write is not None:
            self.offset = 0
        if trigger:
            self.start()

    def start(self):
        """Triggered: the count reloaded; an unpaced channel runs it at once."""
        self.count = self.reload
        if _field(self.ctrl, "enable") and _field(self.ctrl, "treq_sel") == _TREQ_PERMANENT:
            while self.count > 0:
                self.transfer()

    def treq(self):
        if not _field(self.ctrl, "enable") or self.count <= 0:
            return -1
        return _field(self.ctrl, "treq_sel")

    def run_while(self, state_machine):
        """Requests while ``state_machine``'s RX FIFO holds a word (a level DREQ): a channel
        that reads the FIFO empties it; one that does not runs until its count is out."""
        burst = 0
        while state_machine.rx and self.count > 0:
            if burst == _LEVEL_BURST:  # the FIFO is not read: the rest at once
                rest = self.count
                self.count = 0
                self.transfers += rest
                if _field(self.ctrl, "inc_write") and self.target is not None:
                    self.offset = (self.offset + 4 * rest) % (1 << _field(self.ctrl, "ring_size"))
                return
            self.transfer()
            burst += 1

    def transfer(self):
        """One request served: a word from ``read`` into ``write``."""
        if _field(self.ctrl, "size") != 2 or _field(self.ctrl, "inc_read"):
            raise ValueError("the simulated DMA copies one register word by word")
        if self.source_machine >= 0:
            word = _take_word(self.source_machine)
        else:
            word = sim_machine.mem32_read(self.read)
        self.count -= 1
        self.transfers += 1
        buffer = self.target
        if buffer is None:
            channel = CHANNELS[self.trigger_channel]
            channel.reload = word
            if word:  # a null trigger (0) starts nothing
                channel.start()
            return
        index = self.offset // 2
        buffer[index] = word & 0xFFFF
        buffer[index + 1] = (word >> 16) & 0xFFFF
        if _field(self.ctrl, "inc_write"):
            self.offset += 4
            ring = _field(self.ctrl, "ring_size")
            if ring and _field(self.ctrl, "ring_sel"):
                self.offset %= 1 << ring


def _fifo_of(address):
    """The state machine whose RX FIFO is at ``address`` (PIO0's RXF0..RXF3), or -1."""
    offset = address - PIO0_RXF0
    return offset // 4 if 0 <= offset < 16 and offset % 4 == 0 else -1


def _trigger_of(address):
    """The channel whose AL1_TRANS_COUNT_TRIG is at ``address``: the only register the
    simulated DMA writes."""
    offset = address - DMA_BASE
    if offset < 0 or offset % 0x40 != _AL1_TRANS_COUNT_TRIG or offset // 0x40 >= 12:
        raise ValueError("the simulated DMA writes no register at 0x%08x" % address)
    return offset // 0x40


def _take_word(machine_id):
    """The DMA's read of a state machine's RX FIFO: its oldest word, taken out (an empty
    FIFO reads 0, and flags an underflow on the chip)."""
    state_machine = STATE_MACHINES.get(machine_id)
    if state_machine is None or not state_machine.rx:
        return 0
    return state_machine.take()


def serve(request, state_machine):
    """``state_machine`` pushed: the channels paced by its DREQ ``request`` are served."""
    for channel in CHANNELS:
        if channel.treq() == request:
            if DREQ.mode == "credit":
                channel.transfer()
            else:  # a level: requests while the FIFO holds a word
                channel.run_while(state_machine)


def reset():
    """Every channel free (the DREQ's semantics stay as set)."""
    del CHANNELS[:]
