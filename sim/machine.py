"""The simulated board's ``machine`` module: pins, timers, I2C and the rest, in software.

The firmware imports this in place of MicroPython's ``machine`` and runs
unchanged; the simulator reaches the same objects through the functions in
the last section (``reset``, ``drive``, ``timers``, ``attach_i2c``, ...), which
real ``machine`` does not have. It runs on CPython and inside MicroPython, so
it keeps to the Python both understand.

Every ``Pin`` with the same id is the same wire. Timers do not run by
themselves: the simulator's scheduler reads ``period_ms`` and ``next_due`` of
each active timer and calls ``fire()``. I2C devices are Python objects with
``write(buf)`` and ``read_into(buf)``, attached per bus and address; an
absent one (or one whose ``present`` is False) NACKs with ``OSError`` EIO and
is not touched.

The paths the firmware runs on every tick and press allocate nothing under
MicroPython: reading a pin, dispatching an edge to its handler in
``drive``, ``Timer.fire`` and ``I2C.writeto`` into a device (the device's own
``write`` must not allocate either). That is why they use index loops and
positional calls only.
"""

from sim import vclock as _vclock
from sim import wakes as _wakes

PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
SOFT_RESET = 5

EIO = 5  # what the rp2 port raises on an I2C NACK
SOFT_I2C_BUS = -1  # the bus id a SoftI2C joins (MicroPython's old I2C(-1) was software I2C)

_IN = 0
_OUT = 1
_OPEN_DRAIN = 2
_NO_PULL = 0
_PULL_UP = 1
_PULL_DOWN = 2
_FALLING = 4
_RISING = 8
_UNDRIVEN = -1

_lines = {}  # pin id -> _Line, shared by every Pin with that id
_buses = {}  # I2C bus id -> {address: device}
_timers = []  # every Timer made since reset(), active or not
_adc_levels = {}  # ADC pin id -> value read_u16() returns
_pwms = {}  # pin id -> the last PWM made on it
_jumpers = {}  # output pin id -> the input pin id a wire joins it to (``jumper``)


class _Board:
    """Scalar state of the simulated board."""

    def __init__(self):
        self.watchdog = None
        self.clock = None  # the simulator's ms clock, time-stamps watchdog feeds
        self.latency = None  # the chip's latency model (sim.latency): times each I2C frame
        self.wire = None  # wire(input id, level): what carries a jumpered output's level
        self.waits = _wakes.Waits()  # how the main loop waits, and its wakes (sim.wakes)


_board = _Board()


# --- pins ------------------------------------------------------------------


class _Line:
    """One GPIO wire: how the chip drives it, what drives it from outside, its IRQ."""

    def __init__(self, pin_id):
        self.pin_id = pin_id
        self.mode = _IN
        self.pull = _NO_PULL
        self.output = 0  # the output latch
        self.external = _UNDRIVEN  # the level driven from outside, or _UNDRIVEN
        self.handler = None
        self.trigger = 0
        self.hard = False
        self.irq_pin = None  # the Pin on which irq() was called
        self.irq = None  # what irq() returned: its flags() are the edges that called it
        self.latched = 0  # the edges latched while the chip held the interrupt back
        self.watcher = None  # what watches the level without the CPU (sim.rp2's PIO)


def _line_of(pin_id):
    line = _lines.get(pin_id)
    if line is None:
        line = _Line(pin_id)
        _lines[pin_id] = line
    return line


def _level(line):
    """What the pin reads: its own output wins, then the outside driver, then the pull."""
    mode = line.mode
    if mode == _OUT:
        return line.output
    if mode == _OPEN_DRAIN and line.output == 0:
        return 0
    if line.external != _UNDRIVEN:
        return line.external
    if line.pull == _PULL_UP:
        return 1
    return 0


def _edge(line, before):
    """Call the line's handler if its level moved away from ``before`` in a watched direction
    (after its watcher, if any: the PIO sees an edge before the CPU's handler runs)."""
    after = _level(line)
    if after == before:
        return
    watcher = line.watcher
    if watcher is not None:
        watcher.on_level(after)
    handler = line.handler
    if handler is None:
        return
    if after:
        if line.trigger & _RISING:
            line.irq.flags_now = _RISING
            handler(line.irq_pin)
    elif line.trigger & _FALLING:
        line.irq.flags_now = _FALLING
        handler(line.irq_pin)


def _carry(line):
    """If a jumper joins ``line`` to an input, put the level it drives on that input: an
    open-drain output pulls it low or lets it go (its pull-up holds it high). A
    push-pull output there would fight the input's contact: refused."""
    target = _jumpers.get(line.pin_id)
    if target is None or line.mode == _IN:
        return
    if line.mode == _OUT:
        raise ValueError(
            "Pin(%r) drives push-pull into Pin(%r): a closed contact there would short it; "
            "make it open-drain" % (line.pin_id, target)
        )
    level = 0 if line.output == 0 else None
    wire = _board.wire
    if wire is None:
        drive(target, level)
    else:
        wire(target, level)


class Pin:
    """A GPIO pin; every Pin with the same id shares one simulated line."""

    IN = _IN
    OUT = _OUT
    OPEN_DRAIN = _OPEN_DRAIN
    PULL_UP = _PULL_UP
    PULL_DOWN = _PULL_DOWN
    IRQ_FALLING = _FALLING
    IRQ_RISING = _RISING

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.pin_id = id
        self.line = _line_of(id)
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        """Set what is given; ``-1`` leaves mode or pull as it was, ``pull=None`` removes it."""
        line = self.line
        before = _level(line)
        if value is not None:
            line.output = 1 if value else 0
        if mode != -1:
            if mode not in (_IN, _OUT, _OPEN_DRAIN):
                raise ValueError("invalid pin mode %r" % (mode,))
            line.mode = mode
        if pull is None:
            line.pull = _NO_PULL
        elif pull != -1:
            if pull not in (_NO_PULL, _PULL_UP, _PULL_DOWN):
                raise ValueError("invalid pin pull %r" % (pull,))
            line.pull = pull
        _edge(line, before)
        if _jumpers:
            _carry(line)

    def value(self, x=None):
        """The level the pin reads (no argument), or set its output latch to ``x``."""
        line = self.line
        if x is None:
            return _level(line)
        before = _level(line)
        line.output = 1 if x else 0
        _edge(line, before)
        if _jumpers:
            _carry(line)
        return None

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def high(self):
        self.value(1)

    def low(self):
        self.value(0)

    def toggle(self):
        self.value(1 - self.line.output)

    def irq(self, handler=None, trigger=_FALLING | _RISING, hard=False):
        """Call ``handler(pin)`` on the edges in ``trigger``; ``handler=None`` stops it."""
        line = self.line
        line.handler = handler
        line.trigger = trigger if handler is not None else 0
        line.hard = hard
        line.irq_pin = self if handler is not None else None
        line.irq = _Irq() if handler is not None else None
        return line.irq

    def __repr__(self):
        return "Pin(%r)" % (self.pin_id,)


class _Irq:
    """What ``Pin.irq`` returns: ``flags()`` are the edges that called the handler (as the
    rp2 port keeps them: both, if both were latched while the interrupt was held back)."""

    def __init__(self):
        self.flags_now = 0

    def flags(self):
        return self.flags_now


# --- timers ----------------------------------------------------------------


class Timer:
    """A timer the simulator's scheduler fires; inactive until ``init`` is given a period."""

    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, mode=1, period=-1, callback=None, freq=None, tick_hz=1000):
        self.timer_id = id
        self.mode = mode
        self.period_ms = 0
        self.callback = None
        self.next_due = None  # virtual ms of the next firing, kept by the scheduler
        self.active = False
        _timers.append(self)
        if period != -1 or callback is not None or freq is not None:
            self.init(mode=mode, period=period, callback=callback, freq=freq, tick_hz=tick_hz)

    def init(self, mode=1, period=-1, callback=None, freq=None, tick_hz=1000):
        """Start (or restart) the timer: every ``period`` ms, or ``freq`` times a second."""
        if mode not in (Timer.ONE_SHOT, Timer.PERIODIC):
            raise ValueError("invalid timer mode %r" % (mode,))
        if freq is not None:
            if freq <= 0:
                raise ValueError("timer freq must be positive")
            period_ms = int(1000 // freq)
        elif period > 0:
            period_ms = period * 1000 // tick_hz
        else:
            raise ValueError("the timer needs a period or a freq")
        if period_ms < 1:
            raise ValueError("simulated timers run in whole milliseconds, at least 1")
        self.mode = mode
        self.period_ms = period_ms
        self.callback = callback
        self.next_due = None
        self.active = True

    def deinit(self):
        self.active = False
        self.next_due = None

    def fire(self):
        """The timer's moment has come: run its callback (a ONE_SHOT timer stops first)."""
        if not self.active:
            return
        if self.mode == 0:
            self.active = False
            self.next_due = None
        callback = self.callback
        if callback is not None:
            callback(self)

    def __repr__(self):
        return "Timer(%r, period_ms=%r, active=%r)" % (self.timer_id, self.period_ms, self.active)


# --- I2C -------------------------------------------------------------------


def _nack():
    return OSError(EIO, "EIO")


def _memaddr_bytes(memaddr, addrsize):
    if addrsize not in (8, 16):
        raise ValueError("addrsize must be 8 or 16")
    if addrsize == 8:
        return bytearray((memaddr & 0xFF,))
    return bytearray(((memaddr >> 8) & 0xFF, memaddr & 0xFF))


class I2C:
    """An I2C controller on bus ``id``; it reaches the devices attached to that bus id."""

    def __init__(self, id, scl=None, sda=None, freq=400000, timeout=50000):
        self.bus_id = id
        self.scl = scl
        self.sda = sda
        self.freq = freq
        self.timeout = timeout

    def _device(self, addr):
        """The device answering at ``addr``; raises EIO (a NACK) if none does."""
        devices = _buses.get(self.bus_id)
        if devices is None:
            raise _nack()
        device = devices.get(addr)
        if device is None or not getattr(device, "present", True):
            raise _nack()
        return device

    def writeto(self, addr, buf, stop=True):
        """One write transaction of ``buf``; returns the number of bytes written."""
        device = self._device(addr)
        device.write(buf)
        latency = _board.latency
        if latency is not None:
            latency.i2c_frame(self.freq, len(buf))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        """The buffers in ``vector`` as one write transaction."""
        device = self._device(addr)
        joined = bytearray()
        for part in vector:
            joined.extend(part)
        device.write(joined)
        return len(joined)

    def readfrom_into(self, addr, buf, stop=True):
        self._device(addr).read_into(buf)

    def readfrom(self, addr, nbytes, stop=True):
        buf = bytearray(nbytes)
        self.readfrom_into(addr, buf)
        return bytes(buf)

    def writeto_mem(self, addr, memaddr, buf, addrsize=8):
        device = self._device(addr)
        joined = _memaddr_bytes(memaddr, addrsize)
        joined.extend(buf)
        device.write(joined)

    def readfrom_mem_into(self, addr, memaddr, buf, addrsize=8):
        device = self._device(addr)
        device.write(_memaddr_bytes(memaddr, addrsize))
        device.read_into(buf)

    def readfrom_mem(self, addr, memaddr, nbytes, addrsize=8):
        buf = bytearray(nbytes)
        self.readfrom_mem_into(addr, memaddr, buf, addrsize)
        return bytes(buf)

    def scan(self):
        """The addresses that answer, in ascending order."""
        found = []
        devices = _buses.get(self.bus_id)
        if devices:
            for addr in devices:
                if getattr(devices[addr], "present", True):
                    found.append(addr)
        found.sort()
        return found


class SoftI2C(I2C):
    """Bit-banged I2C on any two pins; it reaches the devices attached to ``SOFT_I2C_BUS``."""

    def __init__(self, scl, sda, freq=400000, timeout=50000):
        I2C.__init__(self, SOFT_I2C_BUS, scl, sda, freq, timeout)


# --- watchdog, PWM, ADC ----------------------------------------------------


class WDT:
    """The watchdog: it never bites here, but records every feed."""

    def __init__(self, id=0, timeout=5000):
        self.timeout_ms = timeout
        self.feeds = 0
        self.last_feed_ms = None
        _board.watchdog = self

    def feed(self):
        self.feeds += 1
        clock = _board.clock
        if clock is not None:
            self.last_feed_ms = clock()


def _pin_id(pin):
    return pin.pin_id if isinstance(pin, Pin) else pin


class PWM:
    """PWM output on a pin; it records the frequency and duty it was given."""

    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin_id = _pin_id(pin)
        self.frequency = 0
        self.duty = 0
        self.active = True
        self.init(freq, duty_u16)
        _pwms[self.pin_id] = self

    def init(self, freq=0, duty_u16=0):
        self.freq(freq)
        self.duty_u16(duty_u16)
        self.active = True

    def freq(self, value=None):
        if value is None:
            return self.frequency
        if value < 0:
            raise ValueError("PWM freq must not be negative")
        self.frequency = value
        return None

    def duty_u16(self, value=None):
        if value is None:
            return self.duty
        if not 0 <= value <= 0xFFFF:
            raise ValueError("duty_u16 must be 0..65535")
        self.duty = value
        return None

    def deinit(self):
        self.active = False


class ADC:
    """An analogue input; it reads what the simulator set with ``set_adc``."""

    def __init__(self, pin):
        self.pin_id = _pin_id(pin)

    def read_u16(self):
        return _adc_levels.get(self.pin_id, 0)


# --- the rest of machine ---------------------------------------------------


def reset_cause():
    return PWRON_RESET


_cpu_freq = [125_000_000]  # the RP2040's clock at reset under MicroPython


def freq(value=None):
    """The CPU clock in Hz; ``freq(hz)`` sets it, as the hardware layer does at boot."""
    if value is None:
        return _cpu_freq[0]
    if value < 1_000_000:
        raise ValueError("CPU frequency %r is too low" % (value,))
    _cpu_freq[0] = value
    return None


def idle():
    """``machine.idle()``: the main loop waits for an interrupt or 1 ms (``sim.wakes``)."""
    _board.waits.idle(_vclock.now_ms())


def waits():
    """The main loop's waits and wakes (``sim.wakes.Waits``), since ``reset``."""
    return _board.waits


def sleep_poll(now_ms=None):
    """A ``select.poll`` stand-in for the main loop's sleep (``hal.sleep``), whose
    waits ``waits()`` counts; ``now_ms``: the ms a sleep starts at (the virtual ms, or a
    chip board's, past the calls of the pass that sleeps: ``SimBoard.chip_now_ms``)."""
    return _wakes.Poll(_board.waits, now_ms or _vclock.now_ms)


def lightsleep(ms=None):
    pass


def unique_id():
    return b"SIMBOARD"


def disable_irq():
    return 0


def enable_irq(state):
    pass


# --- the simulator's side (not in real machine) ----------------------------


def reset(keep_contacts=False):
    """A fresh board: forget every pin, timer, I2C device, handler, ADC level and PWM.

    With ``keep_contacts`` (a power cut) what drives a line from outside stays: a
    lever or key held down is still held when the board comes back. (Real
    ``machine.reset()`` reboots the board; this is the simulator's version of it.)
    """
    held = []
    for pin_id in _lines:
        if keep_contacts and _lines[pin_id].external != _UNDRIVEN:
            held.append((pin_id, _lines[pin_id].external))
    _lines.clear()
    for pin_id, level in held:
        _line_of(pin_id).external = level
    _buses.clear()
    for timer in _timers:
        timer.deinit()
    _timers.clear()
    _adc_levels.clear()
    _pwms.clear()
    _jumpers.clear()
    _cpu_freq[0] = 125_000_000
    _board.watchdog = None
    _board.clock = None
    _board.latency = None
    _board.wire = None
    _board.waits = _wakes.Waits()


def drive(pin_id, level):
    """Drive line ``pin_id`` from outside to ``level`` (None: stop driving it).

    If what the pin reads changes, and its handler watches that edge, the
    handler runs now, with the new level already readable.
    """
    line = _lines.get(pin_id)
    if line is None:
        line = _line_of(pin_id)
    before = _level(line)
    if level is None:
        line.external = _UNDRIVEN
    elif level:
        line.external = 1
    else:
        line.external = 0
    _edge(line, before)


def latch(pin_id, level):
    """Drive line ``pin_id`` to ``level`` as ``drive`` does, but with its interrupt held
    back (the chip is in a call that holds it): the handler is not called. True if the
    edge is one the handler watches, so that the chip latches an interrupt for it."""
    line = _line_of(pin_id)
    before = _level(line)
    line.external = _UNDRIVEN if level is None else (1 if level else 0)
    after = _level(line)
    if after != before and line.watcher is not None:
        line.watcher.on_level(after)
    if after == before or line.handler is None:
        return False
    edge = _RISING if after else _FALLING
    if not line.trigger & edge:
        return False
    line.latched |= edge
    return True


def raise_irq(pin_id):
    """A latched interrupt of line ``pin_id`` is served: its handler runs once, and reads
    the level the line has now (a press already released reads open)."""
    line = _lines.get(pin_id)
    if line is not None and line.handler is not None:
        line.irq.flags_now = line.latched
        line.latched = 0
        line.handler(line.irq_pin)


def watch(pin_id, watcher):
    """``watcher.on_level(level)`` at every change of line ``pin_id``'s level, whatever the
    CPU is doing (``sim.rp2``'s state machines); None stops it."""
    _line_of(pin_id).watcher = watcher


# The RP2040's timer (datasheet 4.6): a 64-bit count of microseconds from boot, whose
# thousandths are ``time.ticks_ms()`` (ports/rp2/mphalport.h), read as TIMERAWH and
# TIMERAWL at these addresses (2.2, 4.6.5). The simulated one is the virtual clock's.
# (Small ints stay small here while the timer is below 2**30 us, the first 18 minutes
# from the ticks' origin: a press under heap_lock allocates nothing in the simulator.)
_TIMERAWH = 0x40054024
_TIMERAWH_HI = 0x40054026
_TIMERAWL = 0x40054028
_TIMERAWL_HI = 0x4005402A
_SMALL = 1 << 30


def timer_us():
    """The simulated 64-bit timer: whole virtual milliseconds, from the ticks' origin."""
    clock = _vclock.CLOCK
    return (clock.offset + clock.now_ms) * 1000


def mem32_read(address):
    """A 32-bit word of the simulated chip's registers (the timer's only)."""
    time_us = timer_us()
    if address == _TIMERAWL:
        return time_us if time_us < _SMALL else time_us % (1 << 32)
    if address == _TIMERAWH:
        return 0 if time_us < _SMALL else time_us >> 32
    raise ValueError("the simulated chip has no register at 0x%08x" % address)


class _Memory16:
    """``machine.mem16``: 16-bit reads of the simulated registers (halves of their words)."""

    def __getitem__(self, address):
        if address == _TIMERAWL_HI:
            return mem32_read(_TIMERAWL) >> 16
        if address == _TIMERAWH_HI:
            return mem32_read(_TIMERAWH) >> 16
        return mem32_read(address) & 0xFFFF


mem16 = _Memory16()


def pin_level(pin_id):
    """What line ``pin_id`` reads now (the board's view: output, outside driver, pull)."""
    return _level(_line_of(pin_id))


def timers():
    """The active timers, in the order they were made."""
    active = []
    for timer in _timers:
        if timer.active:
            active.append(timer)
    return active


def next_timer(now_ms):
    """The active timer due first (the first made among equals), a timer without a due
    time counting from ``now_ms``; None if none is active. Builds no list: the
    simulated board asks at every event."""
    best = None
    for timer in _timers:
        if timer.active:
            if timer.next_due is None:
                timer.next_due = now_ms + timer.period_ms
            if best is None or timer.next_due < best.next_due:
                best = timer
    return best


def attach_i2c(bus_id, address, device):
    """Put ``device`` (``write(buf)``, ``read_into(buf)``) on bus ``bus_id`` at ``address``."""
    if not 0 <= address <= 0x7F:
        raise ValueError("I2C address must be 0..127")
    devices = _buses.get(bus_id)
    if devices is None:
        devices = {}
        _buses[bus_id] = devices
    devices[address] = device


def set_adc(pin_id, value_u16):
    """Set what ``ADC(pin_id).read_u16()`` returns."""
    if not 0 <= value_u16 <= 0xFFFF:
        raise ValueError("ADC value must be 0..65535")
    _adc_levels[pin_id] = value_u16


def set_clock(now_ms):
    """Give the board a clock (a function returning ms) to time-stamp watchdog feeds."""
    _board.clock = now_ms


def set_latency(model):
    """Time the board's I2C frames with ``model`` (sim.latency.ChipLatency), or None."""
    _board.latency = model


def jumper(output_id, input_id, wire=None):
    """Join output pin ``output_id`` to input ``input_id`` with a wire: what the output
    drives (open-drain only) reaches the input as ``drive`` would put it there, or
    through ``wire(input_id, level)`` (level 0, or None: let go) if given."""
    _jumpers[output_id] = input_id
    _board.wire = wire


def watchdog():
    """The WDT the firmware started, or None."""
    return _board.watchdog


def pwm_of(pin_id):
    """The last PWM made on pin ``pin_id``, or None."""
    return _pwms.get(pin_id)
