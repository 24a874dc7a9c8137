"""Levers and keys as pin interrupts that time-stamp the first contact edge.

Each input's handler runs on every edge. On the first edge that finds the
contact closed while the input is armed, it stores the input's number and
the tick in a preallocated ring and disarms the input; bounce that follows
is ignored. An input is re-armed once its contact has been open and quiet (no
edge) for ``QUIET_MS``, so bounce adds no latency and a release never counts
as a press: by the main loop's next pass (``rearm``), or by the handler itself
at the next closing edge, from the edges' ticks (the level each edge left is
kept), so a key pressed again before a pass (the passes come a ring block
apart while the journal's ring is prepared) is a press of its own. A contact
found closed at boot starts disarmed (``disarm_closed``, at boot): it counts
only once it has been open and quiet and closes again.
The handler allocates nothing.

Each press keeps its ring slot's record of the release: ``ring_open`` is 1
while the contact is held, and once it has been re-armed ``ring_release``
holds the tick of its last (settling) edge. So how long a key was held is
known from its edges even when the press is read from the ring much later.

On a board whose levers and play key are stamped by the chip
(``hal.capture``, the RP2040's PIO and DMA), their handler is only the
wake-up: it takes every stamp the capture holds, of all of them, oldest
first, each as an event at its own tick, however late the handler runs (a
flash erase holds the CPU, not the capture); the pin's own stamp is the
fallback for a press the capture did not see (``capture_missed``). So two
paths stamp: ``pop`` gives the events oldest stamp first, whatever order
their handlers stored them in. Where pin handlers are hard
(the rp2), a press released before its handler runs is still a press: the
chip latched its closing edge, which ``irq.flags()`` reports.

The main loop asks the ring two questions, ``pending`` (an event to read)
and ``settling`` (a contact held or still bouncing), and takes events with
``pop`` with ``popped_tick()`` and ``popped_slot()``. The fields are the
ring's own: ``hal.keys`` reads a press's record by its slot through
``press_into``.
"""

from array import array

from micropython import const

from firmware.tickmath import ticks_diff
from hal.tick_source import ticks_ms

QUIET_MS = const(25)
# Slots, one kept free: 31 unread presses, far more than a player makes between two passes.
_RING = const(32)


class EdgeRing:
    """The board's levers and keys, numbered in the order of ``firmware.input_codes``."""

    def __init__(self, pins, active_levels, capture=None):
        from machine import disable_irq, enable_irq

        self.disable_irq = disable_irq  # around ``bring_forward``
        self.enable_irq = enable_irq
        self.pins = pins
        self.capture = capture  # hal.capture.LeverCapture of inputs 0.., or None
        self.count = len(pins)
        self.active = bytearray(active_levels)
        self.armed = bytearray(b"\x01" * self.count)
        self.all_armed = b"\x01" * self.count  # ``armed`` when no contact is held or settling
        self.last_edge = array("i", [0] * self.count)
        self.left_open = bytearray(b"\x01" * self.count)  # 1: the last edge left it open
        self.ring_source = bytearray(_RING)
        self.ring_tick = array("i", [0] * _RING)
        self.ring_open = bytearray(_RING)  # 1 while the press in that slot is held
        self.ring_release = array("i", [0] * _RING)  # its release tick, once re-armed
        self.slot_of = bytearray(self.count)  # the ring slot of each input's last press
        self.head = 0  # next slot the handler writes
        self.tail = 0  # next slot the main loop reads
        self.dropped = 0  # events lost to a full ring
        self.tick_popped = 0
        self.slot_popped = 0  # kept intact by the handler until the next pop
        self.capture_missed = 0  # presses the capture had no stamp for when their handler ran
        self.missed_tick = array("i", [0] * self.count)  # the last such press's pin stamp
        self.missed_open = bytearray(self.count)  # 1 until a stamp of that input follows it
        self.irqs = None  # each pin's irq object, where handlers are hard (irq.flags())
        self.closing_flag = bytearray(self.count)  # the IRQ flag of each contact's closing
        self.handler = self.on_edge  # bound once: the handler allocates nothing

    def enable(self, pin_class):
        """Attach the edge handler to every pin (call after everything exists)."""
        trigger = pin_class.IRQ_FALLING | pin_class.IRQ_RISING
        irqs = []
        hard = True
        index = 0
        for pin in self.pins:
            self.closing_flag[index] = (
                pin_class.IRQ_FALLING if self.active[index] == 0 else pin_class.IRQ_RISING
            )
            index += 1
            try:
                irqs.append(pin.irq(handler=self.handler, trigger=trigger, hard=True))
            except TypeError:  # ports without hard IRQs on pins
                pin.irq(handler=self.handler, trigger=trigger)
                hard = False
        if hard:  # a soft handler runs from the scheduler: its flags are not the edge's
            self.irqs = irqs

    def on_edge(self, pin):
        """Interrupt handler: store the first closing edge of an armed input."""
        now = ticks_ms()
        index = 0
        pins = self.pins
        while index < self.count:
            if pins[index] is pin:
                break
            index += 1
        if index == self.count:
            return
        if not self.armed[index]:
            self.rearm_on_closing(index, pin, now)
        self.last_edge[index] = now
        self.left_open[index] = pin.value() != self.active[index]
        capture = self.capture
        if capture is not None and index < capture.count and capture.ok:
            self.take_captured()
            # A press the capture did not see (its machine re-arms within a millisecond
            # of this ring): stamped now, if still held. Not by irq.flags(): a handler
            # held back past the release finds the press's edge there, but the capture
            # saw that press (its machine was armed if this ring was).
            if self.armed[index] and pin.value() == self.active[index]:
                self.capture_missed += 1
                self.missed_tick[index] = now
                self.missed_open[index] = 1
                self.store(index, now)
            return
        if self.armed[index] and self.closed(index, pin):
            self.store(index, now)

    def rearm_on_closing(self, index, pin, now):
        """Re-arm input ``index`` at an edge at ``now`` that finds its contact closed after
        it was left open and quiet for ``QUIET_MS`` (its release settled before any pass
        of the main loop could re-arm it): the last press's release is its last edge."""
        if self.left_open[index] and ticks_diff(now, self.last_edge[index]) >= QUIET_MS:
            if pin.value() == self.active[index]:
                self.settle(index)

    def settle(self, index):
        """Input ``index``'s release settled at its last edge: noted in its press's ring
        slot, and the input armed again."""
        slot = self.slot_of[index]
        if self.ring_open[slot] and self.ring_source[slot] == index:
            self.ring_release[slot] = self.last_edge[index]
            self.ring_open[slot] = 0
        self.armed[index] = 1  # last: the handler may store a new press now

    def closed(self, index, pin):
        """Whether input ``index``'s contact is closed, or closed since its interrupt was
        latched (its closing edge in ``irq.flags()``: released before the handler ran)."""
        if pin.value() == self.active[index]:
            return True
        irqs = self.irqs
        return irqs is not None and bool(irqs[index].flags() & self.closing_flag[index])

    def store(self, index, tick):
        """A press of input ``index`` at ``tick`` into the ring; the input disarmed."""
        self.armed[index] = 0
        head = self.head
        following = (head + 1) % _RING
        if following == self.tail:
            self.dropped += 1
            return
        self.ring_source[head] = index
        self.ring_tick[head] = tick
        self.ring_open[head] = 1
        self.slot_of[index] = head
        self.head = following

    def take_captured(self):
        """Every stamp the capture holds, of every input it stamps, into the ring, oldest
        first. A stamp no later than the pin's own stamp of a press the capture had no
        stamp for is that press's push, come after its handler ran (the PIO pushes a few
        microseconds after the edge, the DMA a few cycles after that): not a second press."""
        capture = self.capture
        capture.read_now()
        while True:
            lever = -1
            oldest = -1
            index = 0
            while index < capture.count:
                age = capture.oldest_age_us(index)
                if age > oldest:
                    oldest = age
                    lever = index
                index += 1
            if lever < 0:
                return
            tick = capture.take(lever)
            if self.missed_open[lever]:
                self.missed_open[lever] = 0
                if ticks_diff(tick, self.missed_tick[lever]) <= 0:
                    continue  # the push of the press stamped by its pin: it came late
            self.store(lever, tick)

    def disarm_closed(self, now):
        """Leave disarmed every input whose contact is closed at ``now`` (boot): it was
        pressed before the clock could see it (while the power was off, or held
        through a cut), so neither its release nor the bounce of that release is a
        press. It counts once it has been open and quiet for ``QUIET_MS``
        (``rearm``) and closes anew."""
        index = 0
        while index < self.count:
            if self.pins[index].value() == self.active[index]:
                self.armed[index] = 0
                self.last_edge[index] = now
                self.left_open[index] = 0
            index += 1

    def held(self, index):
        """Whether input ``index``'s contact reads closed now (its pin at its active level)."""
        return self.pins[index].value() == self.active[index]

    def chip_capture(self):
        """The chip's stamps of the levers (``hal.capture.LeverCapture``), or None: the
        pin handler stamps them."""
        return self.capture

    def pending(self):
        """Whether a stored event waits for the main loop (``pop`` would give one)."""
        return self.head != self.tail

    def settling(self):
        """Whether a contact is held or has not been quiet for ``QUIET_MS`` since its
        last edge (``rearm`` has an input to re-arm)."""
        return self.armed != self.all_armed

    def popped_tick(self):
        """The tick of the first edge of the event ``pop`` gave last."""
        return self.tick_popped

    def popped_slot(self):
        """The ring slot of the event ``pop`` gave last (it keeps the press's release)."""
        return self.slot_popped

    def pop(self):
        """The stored event with the oldest stamp, its input number (its tick in
        ``popped_tick``, its slot in ``popped_slot``), or -1. Events are stored in the
        order their handlers ran, which is not their stamps' where two paths stamp
        them: a lever or the play key stamped by the chip inside a flash erase is
        stored after a key whose pin handler ran when the erase ended, yet came first.
        So the oldest is brought to the front (equal stamps keep the handlers'
        order). The handler never writes the slot just popped (the ring counts as full
        before it), so its release can still be read."""
        tail = self.tail
        head = self.head
        if tail == head:
            return -1
        ticks = self.ring_tick
        oldest = tail
        slot = (tail + 1) % _RING
        while slot != head:
            if ticks_diff(ticks[slot], ticks[oldest]) < 0:
                oldest = slot
            slot = (slot + 1) % _RING
        if oldest != tail:
            self.bring_forward(oldest, tail)
        self.slot_popped = tail
        self.tick_popped = ticks[tail]
        index = self.ring_source[tail]
        self.tail = (tail + 1) % _RING
        return index

    def bring_forward(self, slot, tail):
        """Move the event in ``slot`` to ``tail``, the ones between one slot on (their
        order kept), each input's last press following its slot. The interrupts are
        off meanwhile: a handler storing a press of an input whose slot moves would
        otherwise race the move."""
        state = self.disable_irq()
        source = self.ring_source
        tick = self.ring_tick
        held = self.ring_open
        release = self.ring_release
        slot_of = self.slot_of
        moved_source = source[slot]
        moved_tick = tick[slot]
        moved_held = held[slot]
        moved_release = release[slot]
        moved_last = slot_of[moved_source] == slot
        while slot != tail:
            before = (slot - 1) % _RING
            index = source[before]
            source[slot] = index
            tick[slot] = tick[before]
            held[slot] = held[before]
            release[slot] = release[before]
            if slot_of[index] == before:
                slot_of[index] = slot
            slot = before
        source[tail] = moved_source
        tick[tail] = moved_tick
        held[tail] = moved_held
        release[tail] = moved_release
        if moved_last:
            slot_of[moved_source] = tail
        self.enable_irq(state)

    def rearm(self, now):
        """Re-arm every input whose contact is open and has been quiet long enough,
        and note the release in its press's ring slot."""
        if self.armed == self.all_armed:
            return  # nothing to re-arm: the usual tick
        index = 0
        while index < self.count:
            if not self.armed[index]:
                pin = self.pins[index]
                if pin.value() != self.active[index] and (
                    ticks_diff(now, self.last_edge[index]) >= QUIET_MS
                ):
                    self.settle(index)
            index += 1

    # --- for the readers: a press's record (hal.keys), the handlers off (hal.hardware) ---

    def disable(self):
        """Detach the edge handler from every pin (the hardware stops)."""
        for pin in self.pins:
            pin.irq(handler=None)

    def press_into(self, slot, now, record):
        """Copy the press stored in ring ``slot`` into ``record`` (an ``array("i")`` of
        ``PRESS_FIELDS``, allocated once by the reader, as KMK's ``events.get_into``):
        ``PRESS_START`` its first edge's tick, ``PRESS_HELD`` 1 while the contact is
        held or its release not settled, ``PRESS_RELEASE`` the release's tick once
        settled, ``PRESS_RELEASING`` 1 if at ``now`` the contact is open or has had
        an edge within ``QUIET_MS`` (a release under way). Allocates nothing."""
        index = self.ring_source[slot]
        record[PRESS_START] = self.ring_tick[slot]
        record[PRESS_HELD] = self.ring_open[slot]
        record[PRESS_RELEASE] = self.ring_release[slot]
        releasing = self.pins[index].value() != self.active[index]
        record[PRESS_RELEASING] = releasing or ticks_diff(now, self.last_edge[index]) < QUIET_MS


PRESS_START = const(0)
PRESS_HELD = const(1)
PRESS_RELEASE = const(2)
PRESS_RELEASING = const(3)
PRESS_FIELDS = const(4)
