"""The boot takes the newest journal entry, by one sequence number (firmware/boot/):
between the two slots, and between the slots and the ring's newest whole entry (the
store's ``ring_entry``, hal/journal_setup.py), an entry one newer wins and one older
loses. A boot preferring the older entry of two went unnoticed before (issue 36): the
tests' entries were many numbers apart."""

import pytest

from firmware import claims, engine, files, journal, timecontrol
from firmware.boot import journal_read, resume
from tests import records


def entry(seq, moves):
    """A whole journal entry, sequence ``seq``, of a game at ``moves`` White moves."""
    clock = engine.Clock(timecontrol.parse("300"))
    clock.press(1, 0)
    now = 0
    while clock.moves() < moves:
        now += 1000
        clock.press(clock.mover, now)
    clock.pause(now + 500)
    buf = bytearray(journal.RECORD_SIZE)
    records.encode(buf, seq, 7, clock, claims.Claims(clock, "off", "appendix-g"), 500, 0)
    assert journal_read.valid(buf)
    return bytes(buf)


class Storage:
    """The flash's files as a dict; what the boot sets aside is recorded."""

    def __init__(self, files_by_name):
        self.files = files_by_name
        self.set_apart = []

    def read_bytes(self, name):
        return self.files.get(name)

    def set_aside(self, name):
        self.set_apart.append(name)


class Store:
    """The journal store: its ring's newest whole entry, or None."""

    def __init__(self, newest=None):
        self.newest = newest
        self.asked = []

    def ring_entry(self, whole):
        self.asked.append("ring_entry")
        if self.newest is not None and whole(self.newest):
            return self.newest
        return None

    def drop_ring(self):
        self.asked.append("drop_ring")  # a journal problem: asserted never to happen


class App:
    def __init__(self, storage):
        self.flash = storage
        self.notices = []

    def storage(self):
        return self.flash

    def notice(self, code):
        self.notices.append(code)


HEADER = (
    b'{"version": 1, "game": 7, "control_left": "300", "control_right": "300",'
    b' "quickplay": "off", "edition": "appendix-g"}'
)


def boot_record(slots, ring_seq=None):
    """The sequence number of the entry the boot takes from slot entries of sequences
    ``slots`` (None: an empty slot) and a ring whose newest whole entry is
    ``ring_seq`` (None: no ring)."""
    storage = Storage({files.JOURNAL_HEADER: HEADER})
    for name, seq in zip(files.JOURNAL_SLOTS, slots, strict=True):
        if seq is not None:
            storage.files[name] = entry(seq, seq - 38)
    store = Store(None if ring_seq is None else entry(ring_seq, ring_seq - 38))
    app = App(storage)
    header, record, _top_game, top_seq = resume.read_journal(app, store)
    assert app.notices == [] and storage.set_apart == [] and header is not None
    assert store.asked == ["ring_entry"]
    assert top_seq == max(seq for seq in list(slots) + [ring_seq] if seq is not None)
    return journal_read.sequence(record)


@pytest.mark.parametrize("newer", [0, 1])
def test_of_two_slots_one_apart_the_newer_is_taken(newer):
    slots = [41, 41]
    slots[newer] = 42
    assert boot_record(slots) == 42


def test_a_ring_entry_one_newer_than_the_slot_is_taken():
    assert boot_record([41, None], 42) == 42


def test_a_ring_entry_one_older_than_the_slot_is_not():
    assert boot_record([41, None], 40) == 41


def test_a_ring_entry_one_newer_than_both_slots_is_taken():
    assert boot_record([40, 41], 42) == 42
    assert boot_record([41, 40], 42) == 42
