"""The simulated RP2040's ``rp2`` module: the PIO assembler, state machines and DMA channels.

The simulated board puts this module where MicroPython's ``rp2`` is
(``sim.world.SimBoard`` with ``capture``), so ``hal.capture`` runs
unchanged. It runs on CPython and inside MicroPython.

- ``asm_pio`` assembles a program written in MicroPython's PIO language by
  the same rules as MicroPython's own (ports/rp2/modules/rp2.py: two passes,
  the instruction names put into the function's globals while it runs),
  each instruction encoded from the RP2040 datasheet's 3.4 "Instruction
  Set". tests/test_lever_capture.py checks its opcodes against
  adafruit_pioasm's and runs them in rp2040-pio-emulator.
- ``StateMachine`` runs one program only, the lever capture's
  (``hal.lever_pio``), and runs it by its effect at the level of edges: it
  watches its pin's line (``sim.machine``), pushes at the first closing
  edge while armed, and re-arms after ``quiet_cycles`` of an open contact.
  The same test plays edge sequences on this model and on the emulator
  running the program, and compares the pushes.
- ``DMA`` is ``sim.rp2_dma``'s: channels that copy the timer or read a
  state machine's RX FIFO, paced by its DREQ as a credit or as a level
  (``set_dreq``), started by a write to their trigger register.
"""

from sim import machine as sim_machine
from sim import rp2_dma
from sim.rp2_dma import DMA, DREQ, set_dreq  # noqa: F401  (rp2.DMA; the DREQ's switch)

# --- the assembler ---------------------------------------------------------


class PIOASMError(Exception):
    pass


class PIO:
    """The pin states ``asm_pio``'s ``*_init`` options take (MicroPython's values)."""

    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3


# Operand values of the PIO language, as MicroPython's assembler names them. The
# encodings (3.4.x of the datasheet): WAIT source gpio 0, pin 1, irq 2; JMP conditions
# always 0, !x 1, x-- 2, !y 3, y-- 4, x!=y 5, pin 6, !osre 7; MOV/IN/OUT/SET operands
# pins 0, x 1, y 2, null 3, pindirs 4, status/pc 5, isr 6, osr 7; PUSH/PULL Block bit 5,
# IfFull/IfEmpty bit 6 (noblock carries a marker bit 0 that the encoding drops).
_NAMES = {
    "gpio": 0,
    "pins": 0,
    "x": 1,
    "y": 2,
    "null": 3,
    "pindirs": 4,
    "pc": 5,
    "status": 5,
    "isr": 6,
    "osr": 7,
    "not_x": 1,
    "x_dec": 2,
    "not_y": 3,
    "y_dec": 4,
    "x_not_y": 5,
    "pin": 6,
    "not_osre": 7,
    "noblock": 0x01,
    "block": 0x21,
    "iffull": 0x40,
    "ifempty": 0x40,
}


class _Emitter:
    """One program being assembled: ``data`` the instructions, ``wrap_target``, ``wrap``."""

    def __init__(self):
        self.labels = {}
        self.data = []
        self.count = 0
        self.pass_number = 0
        self.wrap_target_at = 0
        self.wrap_at = -1

    def start(self, pass_number):
        self.pass_number = pass_number
        self.count = 0
        self.data = []

    def emit(self, word, label=None):
        self.count += 1
        if self.pass_number:
            if label is not None:
                if label not in self.labels:
                    raise PIOASMError("unknown label %s" % label)
                word |= self.labels[label]
            self.data.append(word)
        return self

    def __getitem__(self, delay):  # ``instruction()[delay]``
        if self.pass_number:
            if not 0 <= delay <= 31:
                raise PIOASMError("delay too large")
            self.data[-1] |= delay << 8
        return self

    def label(self, name):
        if self.pass_number == 0:
            if name in self.labels:
                raise PIOASMError("duplicate label %s" % name)
            self.labels[name] = self.count

    def wrap_target(self):
        self.wrap_target_at = self.count

    def wrap(self):
        self.wrap_at = self.count - 1

    def nop(self):
        return self.emit(0xA042)  # mov y, y

    def jmp(self, condition, label=None):
        if label is None:
            condition, label = 0, condition
        return self.emit(0x0000 | condition << 5, label)

    def wait(self, polarity, source, index):
        source = 1 if source == 6 else (0 if source == 0 else 2)
        return self.emit(0x2000 | polarity << 7 | source << 5 | index)

    def in_(self, source, bits):
        return self.emit(0x4000 | source << 5 | (bits & 31))

    def out(self, destination, bits):
        return self.emit(0x6000 | destination << 5 | (bits & 31))

    def push(self, flags=0, more=0):
        flags |= more
        if not flags & 1:
            flags |= 0x20
        return self.emit(0x8000 | (flags & 0x60))

    def pull(self, flags=0, more=0):
        flags |= more
        if not flags & 1:
            flags |= 0x20
        return self.emit(0x8080 | (flags & 0x60))

    def mov(self, destination, source):
        return self.emit(0xA000 | destination << 5 | source)

    def set(self, destination, value):
        return self.emit(0xE000 | destination << 5 | value)


_INSTRUCTIONS = ("nop", "jmp", "wait", "in_", "out", "push", "pull", "mov", "set")
_DIRECTIVES = ("label", "wrap_target", "wrap")


class Program:
    """An assembled program: ``opcodes`` (list of 16-bit words), ``wrap_target``, ``wrap``."""

    def __init__(self, opcodes, wrap_target, wrap, options=None):
        self.opcodes = opcodes
        self.wrap_target = wrap_target
        self.wrap = wrap
        self.options = options or {}  # asm_pio's keywords (set_init, ...)


def asm_pio(**options):
    """The decorator: the function's body, run twice with the PIO language in its globals."""

    def assemble(function):
        emitter = _Emitter()
        names = function.__globals__
        kept = dict(names)
        names.clear()
        try:
            names.update(_NAMES)
            for name in _INSTRUCTIONS + _DIRECTIVES:
                names[name] = getattr(emitter, name)
            emitter.start(0)
            function()
            emitter.start(1)
            function()
        finally:
            names.clear()
            names.update(kept)
        wrap = emitter.wrap_at if emitter.wrap_at >= 0 else len(emitter.data) - 1
        return Program(emitter.data, emitter.wrap_target_at, wrap, options)

    return assemble


# --- the state machines ----------------------------------------------------

_FIFO_DEPTH = 4
_machines = rp2_dma.STATE_MACHINES  # id -> StateMachine

_STARTING = 0  # waiting for its quiet count (pull), or not active
_RELEASED = 1  # waiting for the contact to open
_QUIET = 2  # open since ``opened_us``: armed at ``opened_us + quiet``
_ARMED = 3  # waiting for the closing edge
_STALLED = 4  # a push waits for room in the RX FIFO
_PROBE = 5  # the erase check's probe (hal.erase_check): counts down, then drives low


def _probe_opcodes():
    from hal import erase_check

    return erase_check.probe_program.opcodes


class _Probes:
    """Where a probe's close goes: ``schedule(at_ms, pin_id, level)`` (a simulated board's
    contact events: ``sim.world.SimBoard`` sets it), or None: nowhere."""

    schedule = None


PROBES = _Probes()


class StateMachine:
    """A PIO0 state machine running the lever capture's program on its pin's line."""

    def __init__(self, machine_id, program, freq=-1, in_base=None, jmp_pin=None, **options):
        from hal import lever_pio  # (loaded already at a boot: the program came from it)

        if freq <= 0 or 1_000_000 % freq:
            raise ValueError("the simulated state machine runs at a divisor of 1 MHz")
        self.machine_id = machine_id
        self.us_per_cycle = 1_000_000 // freq
        self.due_us = -1  # the probe's: when it pulls its pin low
        if isinstance(program, Program) and program.opcodes == _probe_opcodes():
            if options.get("set_base") is None or program.options.get("set_init") is None:
                # (without set_init MicroPython gives the machine no SET pin at all)
                raise ValueError("the probe program drives its set_base pin: give set_init")
            self.pin_id = options["set_base"].pin_id
            self.tx = []
            self.state = _PROBE
            _machines[machine_id] = self
            return
        if not isinstance(program, Program) or program.opcodes != lever_pio.lever_program.opcodes:
            raise NotImplementedError("the simulated PIO runs the lever capture's program only")
        if in_base is None or jmp_pin is None or in_base.pin_id != jmp_pin.pin_id:
            raise ValueError("the lever program reads one pin: give it as in_base and jmp_pin")
        self.pin_id = in_base.pin_id
        self.tx = []
        self.rx = 0  # words in the RX FIFO (each a 0: the program pushes an empty ISR)
        self.state = _STARTING
        self.quiet_us = 0
        self.opened_us = 0
        self.pushes = 0
        _machines[machine_id] = self
        sim_machine.watch(self.pin_id, self)

    def put(self, value):
        if self.state == _PROBE:  # pull, mov, value + 1 turns of jmp x--, set pindirs
            self.due_us = sim_machine.timer_us() + (value + 3) * self.us_per_cycle
            if PROBES.schedule is not None:  # at the first whole ms of virtual time after it
                PROBES.schedule(-(-self.due_us // 1000), self.pin_id, 0)
            return
        self.tx.append(value)

    def active(self, on=None):
        if self.state == _PROBE:
            if on == 0:
                self.due_us = -1
            return None
        if on is None:
            return self.state != _STARTING
        if on and self.state == _STARTING and self.tx:
            # The program's quiet wait in cycles (hal.lever_pio.quiet_cycles).
            self.quiet_us = (2 * self.tx.pop(0) + 3) * self.us_per_cycle
            self.state = _RELEASED
            self.on_level(sim_machine.pin_level(self.pin_id))
        return None

    def rx_fifo(self):
        return self.rx

    def get(self):
        if not self.rx:
            raise RuntimeError("the simulated state machine's RX FIFO is empty (get would block)")
        return self.take()

    def take(self):
        """The oldest word of the RX FIFO out (the CPU's ``get``, or the DMA's read): room
        for a stalled push."""
        self.rx -= 1
        if self.state == _STALLED:
            self.push(sim_machine.timer_us())
        return 1

    def on_level(self, level):
        """The line now reads ``level`` (1 open, 0 closed: contacts close to ground)."""
        now = sim_machine.timer_us()
        state = self.state
        if state == _QUIET and now >= self.opened_us + self.quiet_us:
            state = _ARMED
        if level == 0:
            if state == _ARMED:
                self.push(now)
                return
            if state == _QUIET:
                state = _RELEASED
        elif state == _RELEASED:
            state = _QUIET
            self.opened_us = now
        self.state = state

    def push(self, now):
        if self.rx >= _FIFO_DEPTH:
            self.state = _STALLED
            return
        self.rx += 1  # the word 1 (``set x, 1``, ``mov isr, x``)
        self.pushes += 1
        self.state = _RELEASED
        rp2_dma.serve(rp2_dma.DREQ_PIO0_RX0 + self.machine_id, self)
        if sim_machine.pin_level(self.pin_id):  # opened already (a stalled push): quiet now
            self.state = _QUIET
            self.opened_us = now


def reset():
    """A fresh chip (power on): no state machine runs, every DMA channel is free (the
    DREQ's semantics stay as set)."""
    for state_machine in _machines.values():
        sim_machine.watch(state_machine.pin_id, None)
    _machines.clear()
    rp2_dma.reset()


def machines():
    """The state machines made since ``reset``, by id (for tests and figures)."""
    return _machines
