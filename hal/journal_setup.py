"""What the journal store does before a start, or paused: a game's header, event log, ring.

Loaded by a step of ``hal.journal_store.JournalStore`` and let go after, so
that nothing of it stays on the heap in play: ``begin_game`` (the header, the
event log set aside), ``append_event`` (arbiter actions: the clock is
paused; into the ring's event block, ``program_event``), ``open_slot`` and
the ring's finding (boot), and the journal's ring below. It reads the store and
hands back what it found; the store keeps it.

The journal's ring: entries programmed into flash erased before the game,
never erased in the game (hal/journal_ring.py says where each slot lies).

A littlefs file, ``game.jr`` (``firmware.files.JOURNAL_RING``), of up to
``JOURNAL_RING_BLOCKS`` blocks (boards/*.py), sized to the game's control
(``ring_need``), is written through the filesystem before the start, a block
at a time (``add_block``: a new file at a new game's setup, then the blocks
appended back to back while the clock is set up): every byte 0xFF but a marker at the
start of each block's data (``MAGIC``, the ring's random nonce, the block's
index in the file). littlefs erases each block as it allocates it, and then
leaves the blocks of a file that is not written again where they are (it
moves metadata, never such data). ``locate`` finds them on the block device
under the filesystem (``rp2.Flash``, the esp32's ``vfs`` partition) by their
markers, the nonce and the length read through the file itself.

During play ``JournalStore.write_record`` programs each entry into erased bytes
of those blocks with ``writeblocks(block, buf, offset)``, which programs without
erasing: no erase in play. The first page of every block is left alone
(littlefs's skip-list pointers and the marker); pages 1 to 15 hold 3 slots
each, 45 a block, filled in order. On the rp2 a page is programmed whole (its
flash programs whole pages), 0xFF everywhere but the new entry: a 1 bit
programs nothing, so the entries before it stay as they are; on the esp32
only the entry's 68 bytes are programmed (``JOURNAL_WHOLE_PAGES``, boards/*.py).
A power cut in a program leaves a torn entry whose checksum boot refuses.

A full ring (or none yet: a game started at once on a flash that never held
one) hands the entries back to the two littlefs slot files
(``hal.journal_store``), which erase; the next setup prepares a fresh ring.

The ring's invariants (each checked in tests/test_journal_ring_faults.py):

1. Found as committed. The ring the store programs is the ring ``locate``
   finds from what littlefs committed: the nonce read through the file, one
   device block for each whole block of the file's committed size, each the
   one block of the device whose marker holds that nonce and index. Once the
   last block wanted is added ``add_ring_block`` locates the ring as a boot
   would, and the store keeps it only if it finds the blocks it had plus the
   new ones;
   otherwise the entries go to the slot files and the next setup starts a
   fresh ring.
2. No stale copy. A block whose append a power cut stopped before
   littlefs's commit is a block littlefs holds free, but it keeps the
   marker: before a block is appended to a ring found at boot (once a
   preparation: a new ring has a new nonce), every device block marked with
   the ring's nonce and an index at or past the committed count is erased
   (``clear_stale``), so an append never leaves two blocks with one index.
   A cut during that erase leaves the block erased or still stale, and the
   next preparation erases it again: the preparation can be cut at any byte
   and resumes where the committed file ends.
3. Entries in order. The ring's slots are programmed in order, each once:
   the used slots come first (a torn slot is used and never programmed
   again), so the first unused slot is found by halving.
4. The newest whole entry. Boot reads back from the last used slot to the
   first whole entry (``newest_entry``), past any number of torn ones, and
   ``firmware.boot.resume`` takes the newest whole entry of the header's
   game from the ring and both slot files.
5. One ring, one game. A new game's header is written before its first
   entry, and a ring that holds any entry is replaced at the next setup, so
   the entries of a ring all belong to one game.
6. A game's identity never repeats. A new game takes an id above every id
   the boot found (the header, the slots, the ring) and above the game
   before it; a game that left setup never lends its id to the next one, and
   the sequence numbers go on from the highest found.
7. Set aside whole. A journal the clock cannot use is set aside header first
   (an entry without its header is never restored), then the ring, then the
   slots, and the store forgets the ring it had found.
"""

import json
import random

from micropython import const

from firmware.files import EVENTS, JOURNAL_HEADER, JOURNAL_RING, JOURNAL_SLOTS, OLD_EVENTS
from hal.journal_ring import BLOCK_BYTES, ENTRY_BYTES, EVENT_BYTES, PAGE_BYTES, SLOTS_PER_BLOCK

MAGIC = b"CJRB"
_MARK = const(12)  # magic, nonce, index
# The ring's size under ``prepare_first`` (``ring_need``): the moves a side makes in
# a game, and the running time after which a side's clock has an entry at least
# (firmware.journal: 5 s less a tick; 4.9 s leaves room for any board's tick).
GAME_MOVES = const(100)
ENTRY_EVERY_MS = const(4900)
_DELAY = const(2)  # firmware.timecontrol.DELAY
_BRONSTEIN = const(3)  # firmware.timecontrol.BRONSTEIN


def pointer_bytes(index):
    """littlefs's skip-list pointers at the start of a file's block ``index``: none in
    the first, ctz(index) + 1 words of 4 bytes in the others (littlefs's on-disk
    specification)."""
    if index == 0:
        return 0
    count = 1
    while index & 1 == 0:
        index >>= 1
        count += 1
    return 4 * count


def _word(buf, at):
    return buf[at] | buf[at + 1] << 8 | buf[at + 2] << 16 | buf[at + 3] << 24


def device_of(files):
    """The block device under the filesystem: the simulated flash's, else the chip's."""
    if hasattr(files, "block_device"):
        return files.block_device()
    try:
        import rp2

        return rp2.Flash()
    except ImportError:
        import esp32

        return esp32.Partition.find(esp32.Partition.TYPE_DATA, label="vfs")[0]


def add_block(files, path, index, nonce):
    """Write the ring file's block ``index`` (the clock stands: littlefs erases the
    block it allocates): block 0 starts a new file, the others are appended. Written
    a page at a time: nothing larger than a page is allocated."""
    page = bytearray(b"\xff" * PAGE_BYTES)
    page[0:4] = MAGIC
    for at, value in ((4, nonce), (8, index)):
        for byte in range(4):
            page[at + byte] = (value >> (8 * byte)) & 0xFF
    left = BLOCK_BYTES - pointer_bytes(index)
    with files.open(path, "ab" if index else "wb") as handle:
        while left > 0:
            count = left if left < PAGE_BYTES else PAGE_BYTES
            handle.write(page if count == PAGE_BYTES else page[:count])
            left -= count
            page[0:_MARK] = b"\xff" * _MARK


def blocks_in(size):
    """How many whole blocks a ring file of ``size`` bytes holds."""
    index = 0
    while size >= BLOCK_BYTES - pointer_bytes(index):
        size -= BLOCK_BYTES - pointer_bytes(index)
        index += 1
    return index


def locate(files, path):
    """``(device, the ring's blocks on it in the file's order, nonce)``, or None if the
    file has no whole block or a block's marker is missing or found twice (then
    the ring is not used). The nonce and the length are read through the file."""
    with files.open(path, "rb") as handle:
        head = handle.read(_MARK)
        size = handle.seek(0, 2)
    if len(head) < _MARK or head[0:4] != MAGIC:
        return None
    nonce = _word(head, 4)
    count = blocks_in(size)
    device = device_of(files)
    blocks = [-1] * count
    buf = bytearray(64)
    for block in range(device.ioctl(4, 0)):
        device.readblocks(block, buf, 0)
        if MAGIC not in buf:  # (in C, allocating nothing: most blocks are not the ring's)
            continue
        at = 0
        while at + _MARK <= 64:
            if buf[at : at + 4] == MAGIC and _word(buf, at + 4) == nonce:
                index = _word(buf, at + 8)
                if index < count and pointer_bytes(index) == at:
                    if blocks[index] != -1:
                        return None  # a copy the power cut short: which is the file's?
                    blocks[index] = block
            at += 4
    if count == 0 or -1 in blocks:
        return None
    return device, blocks, nonce


def clear_stale(device, nonce, count):
    """Erase every device block marked with ``nonce`` and an index at or past ``count``,
    the committed file's blocks: appends a power cut stopped before littlefs's commit
    (blocks littlefs holds free, which it erases anyway before it uses them)."""
    buf = bytearray(64)
    for block in range(device.ioctl(4, 0)):
        device.readblocks(block, buf, 0)
        if MAGIC not in buf:
            continue
        at = 0
        while at + _MARK <= 64:
            if buf[at : at + 4] == MAGIC and _word(buf, at + 4) == nonce:
                index = _word(buf, at + 8)
                if index >= count and pointer_bytes(index) == at:
                    device.writeblocks(block, bytearray(b"\xff" * PAGE_BYTES))  # erases it
                    break
            at += 4


def read(ring, slot):
    """The bytes of ``ring``'s ``slot`` (``hal.journal_ring.Ring``)."""
    buf = bytearray(ENTRY_BYTES)
    ring.device.readblocks(ring.device_block(slot), buf, ring.slot_at(slot))
    return buf


def used(ring, slot):
    for value in read(ring, slot):
        if value != 0xFF:
            return True
    return False


def first_unused(ring):
    """The first slot of ``ring`` never programmed (the used ones come first: a torn
    slot is used)."""
    low = 0
    high = ring.capacity
    while low < high:
        middle = (low + high) // 2
        if used(ring, middle):
            low = middle + 1
        else:
            high = middle
    return low


def find_ring(storage):
    """What ``locate`` finds of the ring file on ``storage`` at boot, or None."""
    if not storage.exists(JOURNAL_RING):
        return None
    return locate(storage.files, storage.path(JOURNAL_RING))


def newest_entry(ring, whole):
    """``ring``'s newest entry for which ``whole(entry)`` holds (read back from the last
    used slot past torn ones), or None."""
    slot = ring.next - 1
    while slot >= 0:
        entry = read(ring, slot)
        if whole(entry):
            return entry
        slot -= 1
    return None


def new_nonce():
    """A fresh ring's random nonce (its markers tell it from an older ring's)."""
    return random.getrandbits(30)


def clear_stale_of(storage, ring, count):
    """``clear_stale`` for ``ring`` on ``storage``'s device, ``count`` blocks committed."""
    clear_stale(ring.device or device_of(storage.files), ring.nonce, count)


def add_ring_block(storage, nonce, index):
    """Append the ring file's block ``index`` marked with ``nonce`` (the clock is set up;
    littlefs erases the block it allocates); block 0 starts a new file."""
    add_block(storage.files, storage.path(JOURNAL_RING), index, nonce)


def locate_ring(storage):
    """The ring file on ``storage`` as a boot would find it (``locate``), or None."""
    return locate(storage.files, storage.path(JOURNAL_RING))


def event_line(game, entry, clock):
    """One event-log line: the entry, with the move counter and both times at that moment."""
    tick, what, detail = entry
    shown = (clock.shown_ms(0, tick), clock.shown_ms(1, tick))
    return json.dumps([game, tick, what, detail, clock.moves(), shown[0], shown[1]])


def append_event(store, game, entry, clock):
    """Add one event-log line: into the ring's event block while it has room (programmed,
    no erase: the clock is paused, a game in progress), else appended to the event log
    file (littlefs, which may erase)."""
    line = event_line(game, entry, clock)
    if not program_event(store, line):
        store.storage.append_line(EVENTS, line)


def program_event(store, line):
    """Program ``line`` and its newline at the end of the ring's event lines (a line after
    a torn one on a line of its own); False if the ring has no room for it."""
    ring = store.ring
    data = (("\n" if ring.event_torn else "") + line + "\n").encode()
    at = ring.take_event(len(data))  # from the block's page 1; a cut leaves it torn
    if at < 0:
        return False
    if not store.whole_pages:
        ring.device.writeblocks(ring.event_block, data, at)
        return True
    end = at + len(data)
    page_at = at - at % PAGE_BYTES
    while page_at < end:  # each page the line touches, 0xFF but its bytes there
        page = bytearray(b"\xff" * PAGE_BYTES)
        low = at if at > page_at else page_at
        high = end if end < page_at + PAGE_BYTES else page_at + PAGE_BYTES
        page[low - page_at : high - page_at] = data[low - at : high - at]
        ring.device.writeblocks(ring.event_block, page, page_at)
        page_at += PAGE_BYTES
    return True


def event_text(ring):
    """The bytes of ``ring``'s event lines as programmed (b"": none)."""
    if ring.event_block < 0:
        return b""
    area = bytearray(EVENT_BYTES)
    ring.device.readblocks(ring.event_block, area, PAGE_BYTES)
    end = EVENT_BYTES
    while end > 0 and area[end - 1] == 0xFF:
        end -= 1
    return bytes(area[:end])


def find_events(ring):
    """Where ``ring``'s event lines end (boot): the next line goes there, on a line of
    its own if the last one was cut short."""
    text = event_text(ring)
    ring.found_events(len(text), len(text) > 0 and text[len(text) - 1] != 0x0A)


def begin_game(store, clock, claims, game, played):
    """Make the header describe a new game with ``clock``'s controls; return its id and
    the header then in force.

    ``game`` is the id of the game before (at boot, the highest id found on
    flash), ``played`` whether that game left setup. The header is rewritten,
    with the next id, unless it already describes an unplayed game with these
    controls under that id: a clock switched on and off again writes nothing,
    and a game that was played never lends its id to the next (invariant 6).
    The previous game's event log becomes ``events.old``.
    """
    wanted = {
        "control_left": clock.sides[0].control.text,
        "control_right": clock.sides[1].control.text,
        "quickplay": claims.quickplay,
        "edition": claims.edition,
    }
    header = store.header
    storage = store.storage
    same = not played and header is not None and header.get("game") == game
    for key in wanted:
        if header is None or header.get(key) != wanted[key]:
            same = False
    ring = store.ring
    if ring.has_events():  # the last game's lines in its ring, then any in the file
        kept = event_text(ring) + (storage.read_bytes(EVENTS) or b"")
        storage.remove(OLD_EVENTS)
        with storage.files.open(storage.path(OLD_EVENTS), "wb") as handle:
            handle.write(kept)
        storage.remove(EVENTS)
    elif storage.exists(EVENTS):
        storage.remove(OLD_EVENTS)
        storage.files.rename(storage.path(EVENTS), storage.path(OLD_EVENTS))
    if same:
        return game, header
    game += 1
    wanted["game"] = game
    storage.write_json(JOURNAL_HEADER, wanted)
    return game, wanted


def ring_need(clock, most):
    """The ring's blocks a game of ``clock``'s controls can fill, at most ``most``.

    An entry at each move (``GAME_MOVES`` a side) and one every ``ENTRY_EVERY_MS`` of
    a side's running time at most: the time its control gives for those moves
    (``game_ms``, the Laws' own reckoning of a control, A.1), plus a delay's
    length at each move, which the clock runs without charging. One block more
    for the entries of pauses, flags, arbiter's actions and a restore, and one for
    the event log's lines (``hal.journal_ring``). An hourglass gives
    back what the opponent uses, so its time has no bound: the whole ring. A
    game that goes beyond has its further entries in the slot files."""
    from firmware.timing import method_of

    entries = 0
    for side in clock.sides:
        control = side.control
        method = method_of(control)
        if method.SHARES_TIME:
            return most
        delay = 0
        for _moves, _time_ms, mode, bonus_ms in control.periods:
            if mode == _DELAY or mode == _BRONSTEIN:
                delay = bonus_ms if bonus_ms > delay else delay
        running = method.game_ms(control, GAME_MOVES) + GAME_MOVES * delay
        entries += GAME_MOVES + (running + ENTRY_EVERY_MS - 1) // ENTRY_EVERY_MS
    blocks = (entries + SLOTS_PER_BLOCK - 1) // SLOTS_PER_BLOCK + 2
    return blocks if blocks < most else most


def open_slot(storage, index):
    """Slot file ``index`` on ``storage``, open for writing in place (created if it is
    missing): the ring may fill, and then an entry opens nothing in play."""
    files = storage.files
    path = storage.path(JOURNAL_SLOTS[index])
    return files.open(path, "r+b" if files.exists(path) else "wb")
