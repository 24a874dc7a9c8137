"""The boot takes the newest journal entry, by one sequence number (firmware/boot/):
between the two slots, and between the slots and the ring's newest whole entry, an
entry one newer wins and one older loses. A boot preferring the older entry of two
went unnoticed before (issue 36): the tests' entries were many numbers apart."""

import pytest

from firmware import claims, engine, files, journal, timecontrol
from firmware.boot import journal_read, resume


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
    journal.encode(buf, seq, 7, clock, claims.Claims(clock, "off", "appendix-g"), 500, 0)
    assert journal_read.valid(buf)
    return bytes(buf)


class Storage:
    """The flash's files as a dict."""

    def __init__(self, files_by_name):
        self.files = files_by_name

    def read_bytes(self, name):
        return self.files.get(name)


class Store:
    """The journal store: its ring's entries, newest first."""

    def __init__(self, ring):
        self.ring = ring

    def setup(self, name, *args):
        assert name == "ring_entries"
        return self.ring


class App:
    def __init__(self, storage):
        self.hardware = type("Hardware", (), {"storage": storage})()
        self.notices = []

    def notice(self, code):
        self.notices.append(code)


HEADER = (
    b'{"version": 1, "game": 7, "control_left": "300", "control_right": "300",'
    b' "quickplay": "off", "edition": "appendix-g"}'
)


@pytest.mark.parametrize("newer", [0, 1])
def test_of_two_slots_one_apart_the_newer_is_taken(newer):
    slots = [entry(41, 3), entry(41, 3)]
    slots[newer] = entry(42, 4)
    storage = Storage(dict(zip(files.JOURNAL_SLOTS, slots, strict=True)))
    record, spoiled = journal_read.read_slots(storage)
    assert journal_read.sequence(record) == 42 and not spoiled


def boot_record(slot_seq, ring_seqs):
    storage = Storage({files.JOURNAL_HEADER: HEADER, files.JOURNAL_SLOTS[0]: entry(slot_seq, 2)})
    ring = [entry(seq, seq - 38) for seq in ring_seqs]
    app = App(storage)
    header, record = resume.read_journal(app, Store(ring))
    assert app.notices == [] and header is not None
    return journal_read.sequence(record)


def test_a_ring_entry_one_newer_than_the_slot_is_taken():
    assert boot_record(41, [42]) == 42


def test_a_ring_entry_one_older_than_the_slot_is_not():
    assert boot_record(41, [40]) == 41


def test_the_rings_newest_entry_is_the_one_compared():
    assert boot_record(40, [42, 41]) == 42  # newest first, as the store gives them
