"""The journal's ring as one object (hal/journal_ring.py): where each slot and the event
lines lie, at the ring's limits.

A block is 4,096 bytes: page 0 is littlefs's skip-list pointers and the ring's
marker, pages 1 to 15 hold 3 entries of 68 bytes each (45 a block); a ring of
two blocks or more keeps its last block for the event log's lines (pages 1 to
15, 3,840 bytes). The store programs and the boot reads through these
addresses only: no other module computes them.
"""

import os

import pytest

from hal import journal_setup
from hal.journal_ring import (
    BLOCK_BYTES,
    ENTRY_BYTES,
    EVENT_BYTES,
    PAGE_BYTES,
    SLOTS_PER_BLOCK,
    Ring,
)
from hal.journal_store import JournalStore
from hal.storage import Storage
from sim.flash import Flash

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _ring(blocks=(7, 3, 11)):
    ring = Ring()
    ring.take(object(), list(blocks), 5)
    return ring


def test_the_first_and_last_slots_of_a_block():
    """Slot 0 opens page 1 (byte 256); slot 2 is the page's third entry (256 + 136);
    slot 3 opens page 2 (512); slot 44, the block's last, is page 15's third entry,
    bytes 3,976 to 4,043 of the block's 4,096; slot 45 opens the next block's page 1."""
    ring = _ring()
    assert (ring.device_block(0), ring.slot_at(0)) == (7, 256)
    assert (ring.page_at(2), ring.entry_at(2), ring.slot_at(2)) == (256, 136, 392)
    assert ring.slot_at(3) == 512
    assert (ring.page_at(44), ring.entry_at(44), ring.slot_at(44)) == (3840, 136, 3976)
    assert ring.slot_at(44) + ENTRY_BYTES <= BLOCK_BYTES
    assert (ring.device_block(45), ring.slot_at(45)) == (3, 256)
    assert ring.device_block(89) == 3 and ring.slot_at(89) == 3976


def test_a_blocks_slots_fill_pages_1_to_15_without_overlap():
    ring = _ring()
    spans = sorted((ring.slot_at(slot), ring.slot_at(slot) + ENTRY_BYTES) for slot in range(45))
    assert spans[0][0] == PAGE_BYTES and spans[-1][1] <= BLOCK_BYTES
    for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
        assert end <= start
    for slot in range(SLOTS_PER_BLOCK):  # an entry never crosses its page
        assert ring.entry_at(slot) + ENTRY_BYTES <= PAGE_BYTES
        assert ring.slot_at(slot) == ring.page_at(slot) + ring.entry_at(slot)


@pytest.mark.parametrize("count, slots, event_block", [(1, 45, -1), (2, 45, 3), (3, 90, 11)])
def test_the_last_block_is_the_event_logs_from_two_blocks_on(count, slots, event_block):
    ring = _ring((7, 3, 11)[:count])
    assert ring.block_count() == count
    assert ring.capacity == slots and ring.event_block == event_block


def test_the_ring_ends_at_its_last_slot_and_does_not_wrap():
    """Slots are taken in order; the last one (capacity - 1) is taken, the next is not:
    the ring is full, and stays full (no slot is used twice: that would need an
    erase)."""
    ring = _ring((7, 3, 11))
    for slot in range(ring.capacity - 1):
        assert ring.take_slot() == slot
    assert not ring.is_full()
    assert ring.take_slot() == ring.capacity - 1 == 89
    assert ring.is_full()
    assert ring.take_slot() == -1 and ring.take_slot() == -1
    assert ring.next == ring.capacity


def test_no_ring_takes_no_slot():
    ring = Ring()
    assert ring.capacity == 0 and ring.is_full() and ring.take_slot() == -1
    ring = _ring()
    ring.forget()
    assert ring.take_slot() == -1 and ring.event_block == -1 and not ring.event_room(1)


def test_the_event_area_takes_3840_bytes_and_not_one_more():
    ring = _ring()
    assert PAGE_BYTES + EVENT_BYTES == BLOCK_BYTES
    assert ring.event_room(EVENT_BYTES) and not ring.event_room(EVENT_BYTES + 1)
    ring.event_at = EVENT_BYTES - 10
    assert ring.event_room(10) and not ring.event_room(11)


def _store_with_events(tmp_path, whole_pages):
    flash = Flash(16)
    flash.device.whole_pages = whole_pages
    store = JournalStore(Storage(str(tmp_path), flash), 2, whole_pages)
    while store.is_preparing():
        store.prepare_block()
    assert store.ring.event_block >= 0
    return store


@pytest.mark.parametrize("whole_pages", [True, False], ids=["rp2", "esp32"])
def test_event_lines_read_back_across_pages_up_to_the_area_end(tmp_path, whole_pages):
    """Lines of 99 bytes and a newline, programmed one after the other (on the rp2 as
    whole pages, 0xFF but the line's bytes, across a page's end): 38 fill 3,800 bytes;
    a line of 39 bytes fills the area to its last byte; one more byte is refused (the
    line goes to the event log file instead)."""
    store = _store_with_events(tmp_path, whole_pages)
    lines = ["%099d" % number for number in range(38)] + ["x" * 39]
    for line in lines:
        assert journal_setup.program_event(store, line)
    assert store.ring.event_at == EVENT_BYTES
    assert not journal_setup.program_event(store, "")
    assert journal_setup.event_text(store.ring) == ("\n".join(lines) + "\n").encode()


def test_a_torn_event_line_leaves_the_next_on_a_line_of_its_own(tmp_path):
    """Boot finds where the lines end; after a line cut short the next starts a line."""
    store = _store_with_events(tmp_path, True)
    journal_setup.program_event(store, "[1]")
    store.ring.event_at += 2  # as a program cut after two bytes of the next line leaves it
    page = bytearray(b"\xff" * PAGE_BYTES)
    page[4:6] = b"[2"
    store.ring.device.writeblocks(store.ring.event_block, page, PAGE_BYTES)
    journal_setup.find_events(store.ring)
    assert store.ring.event_at == 6 and store.ring.event_torn
    journal_setup.program_event(store, "[3]")
    assert journal_setup.event_text(store.ring) == b"[1]\n[2\n[3]\n"


def test_only_the_ring_computes_a_slots_address():
    """The page and entry arithmetic lives in hal/journal_ring.py alone: neither the
    store nor its setup code names a slot's page, or a slot's place in its block, to
    compute with (the setup sizes the ring in blocks of ``SLOTS_PER_BLOCK``, no more)."""
    for name in ("hal/journal_store.py", "hal/journal_setup.py"):
        with open(os.path.join(ROOT, name)) as source:
            text = source.read()
        assert "SLOTS_PER_PAGE" not in text and "_PER_PAGE" not in text, name
        assert "% SLOTS_PER_BLOCK" not in text and "slot // " not in text, name
