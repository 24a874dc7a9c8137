"""The chips' latencies on the simulated board: what holds an edge's stamp back, and how long.

The ideal simulated board calls an edge handler at the edge's instant. A
chip does not always: ``ChipLatency`` models, from the figures of the
board's chip (``boards/chips/<CHIP>.py``, at their ``typical`` or ``max``
values), the C calls the main loop makes and the time each takes:

- a flash write: the simulated flash (``sim.flash``) reports each commit;
  littlefs pads it to its program size and programs it page by page, and
  erases a 4 KiB block before the commit that would overflow it (the
  metadata block of the files written in place), programming the live
  metadata again with that commit, entry by entry as littlefs compacts it
  (``compacted_bytes``: the files on the flash then); a file's
  creation and a small file's rename are commits too; a ring file's bytes
  are programmed as littlefs's cache fills (``LFS_CACHE_BYTES``);
- an I2C frame (``sim.machine.I2C``): 9 bits a byte plus the address, the
  start and the stop, at the bus clock;
- a garbage collection: time per KiB of heap in use;
- the hall link's socket calls (a board with a radio), as ``hal.hall_link``
  and ``hal.mqtt`` make them: after each pass, when the main loop is free,
  polls back to back (the loop polls whenever nothing else is due), each a
  readiness call at zero timeout, then a read of at most ``READ_CHUNK``
  bytes when bytes have come (the broker's PINGRESP) or a write of at most
  ``WRITE_CHUNK`` while bytes are queued: a message (``hall_message``'s
  bytes in a PUBLISH) for a change of the clock or the claims and every
  30 s, a PINGREQ after 20 s without a byte from the broker or after 8
  writes the broker has not confirmed (``hal.mqtt.PROBE_CALLS``). A message
  allocates nothing (``bench.hall_alloc``), so it brings no collection.
  Left out: the readiness calls of the loop's turns between the simulated
  passes (while the app rests: each at most 0.1 ms, a stamp moved by at most
  the millisecond boundary it crosses) and a reconnection's calls (a settings
  push that arrives in play is left unread until the clock stands).

The calls of one main-loop pass run one after the other from the pass's
instant. An edge inside one is stamped late: on a chip with hard pin
interrupts (rp2) only if the call turns the interrupts off (a flash erase
or program), at the call's end; on a chip with soft pin handlers (esp32)
inside any call, at its end. The chip latches the line's interrupt and
runs the handler once, which reads the level the line has then: a press
held for less than what is left of the call is not seen at all. (The
main loop's passes at the ticks that fall inside a call are not held back:
they change no stamp; the journal's ring adds its blocks before a game's
start only, one a pass.) A block device read (the ring's scans) costs the
CPU ``DEVICE_READ_US``, and ``MARKED_READ_US`` more where its bytes hold a
ring's marker; outside a game, an erase costs ``ERASE_CPU_US`` after it, a
file replaced whole ``FILE_WRITE_CPU_US``, a preparation's first block
``RING_START_CPU_US`` (boards/chips/, measured on the port), the interrupts
on. The firmware reads the chip's clock in a pass, past the calls made so far
(``sim.world``): the ticker keeps the grid's next tick after a long pass. A pass
an input's edge wakes from the main loop's sleep starts with the contact's
chatter and the wake's cost (``input_wake``: ``KEY_WAKE_US``, ``CAPTURED_WAKE_US``,
measured on the port), so its step reads its tick and draws after them, as the
chip's does; the edge's stamp, which the engine charges, is the edge's.
``in_game`` counts the erases and the main loop's longest hold while a game
is in progress, running or paused. ``sim.world.SimBoard`` applies
this when it is given a model (``latency=``); clock scripts run without one
unless the runner is asked for it (docs/spec/scripts.md).
"""

from firmware import engine, hall_message

LEVELS = ("typical", "max")
_HEARTBEAT_MS = 30_000  # hal/hall_link.py HEARTBEAT_MS
_PING_MS = 20_000  # hal/mqtt.py PING_MS: silence from the broker this long, a PINGREQ
_PROBE_CALLS = 8  # hal/mqtt.py PROBE_CALLS: unconfirmed writes that send a PINGREQ
_WRITE_CHUNK = 96  # hal/mqtt.py WRITE_CHUNK
_OUTBOX = 1024  # hal/mqtt.py: the outgoing queue; a message it has no room for waits
_TOPIC = b"hall/board/12"  # a board's topic (hall_message.board_topic)
_COMMIT_OVERHEAD = 12  # a littlefs commit's tags and CRC beside the data (bench/power.py)
_RING_MARK = b"CJRB"  # hal/journal_setup.py MAGIC, a ring block's marker (the module is let go)


def chip_of(board):
    """The figures of ``board``'s chip (``boards.chips.<CHIP>``)."""
    name = board.CHIP
    try:
        return __import__("boards.chips." + name, None, None, ("SOFT_PIN_HANDLERS",))
    except ImportError:
        raise ValueError("no latency figures for chip %r (boards/chips/%s.py)" % (name, name))


class ChipLatency:
    """The C calls of ``board``'s chip at ``level`` ("typical" or "max"); ``attributes``:
    each file carries MicroPython's attributes (``LFS_FILE_ATTR_BYTES``; False for a
    littlefs that stores none, littlefs-python's)."""

    def __init__(self, board, level="typical", network=None, attributes=True):
        if level not in LEVELS:
            raise ValueError("latency level must be one of %s" % ", ".join(LEVELS))
        self.level = level
        pick = LEVELS.index(level)
        chip = chip_of(board)
        self.chip = chip
        self.soft_handlers = chip.SOFT_PIN_HANDLERS
        self.flash_masks = chip.FLASH_MASKS_INTERRUPTS
        self.erase_us = chip.SECTOR_ERASE_US[pick]
        self.erase_cpu_us = getattr(chip, "ERASE_CPU_US", 0)  # the CPU around a block's erase
        self.program_us = chip.PAGE_PROGRAM_US[pick]
        self.chunk_us = getattr(chip, "CHUNK_PROGRAM_US", (0, 0))[pick]
        self.sector_bytes = chip.SECTOR_BYTES
        self.page_bytes = chip.PAGE_BYTES
        self.prog_bytes = chip.LFS_PROG_BYTES
        # littlefs's cache, through which a file's bytes are programmed (0: each write alone)
        self.cache_bytes = getattr(chip, "LFS_CACHE_BYTES", 0)
        self.gc_us_per_kib = chip.GC_US_PER_KIB[pick]
        self.read_us = getattr(chip, "DEVICE_READ_US", 0)  # the CPU's: the same at each level
        self.marked_read_us = getattr(chip, "MARKED_READ_US", 0)  # a ring marker's parse
        # each file's attributes beside its name and struct (MicroPython's mtime)
        self.file_attr_bytes = getattr(chip, "LFS_FILE_ATTR_BYTES", 0) if attributes else 0
        # a commit's bytes beside its data: its tags and CRCs, and the file's attributes
        tags = getattr(chip, "LFS_COMMIT_TAG_BYTES", _COMMIT_OVERHEAD)
        self.commit_overhead = tags + self.file_attr_bytes
        self.inline_bytes = min(self.sector_bytes // 8, getattr(chip, "LFS_CACHE_BYTES", 0) or 512)
        # the files on the flash as a compaction finds them: (name, size, in blocks), or None
        self.live_files = None
        self.compaction_cpu_us = getattr(chip, "COMPACTION_CPU_US", 0)
        self.file_write_cpu_us = getattr(chip, "FILE_WRITE_CPU_US", 0)
        self.ring_start_cpu_us = getattr(chip, "RING_START_CPU_US", 0)
        # a pass an input's edge woke: the step's tick read after these (0: at the edge)
        self.key_wake_us = getattr(chip, "KEY_WAKE_US", 0)
        self.captured_wake_us = getattr(chip, "CAPTURED_WAKE_US", self.key_wake_us)
        self.scanned = True  # the device read since a ring's file was last opened to write
        self.poll_us = chip.SOCKET_POLL_US[pick]
        self.recv_us = chip.SOCKET_RECV_US[pick]
        self.send_us = chip.SOCKET_SEND_US[pick]
        if network is None:
            network = bool(getattr(board, "NETWORK", False)) and self.send_us > 0
        self.network = network
        self.message = hall_message.Message() if network else None
        self.i2c_freq = board.I2C_FREQ
        self.block_used = 0  # bytes committed to the current metadata block
        self.cursor_us = 0  # when the calls made so far end
        self.windows = []  # (start_us, end_us, masks interrupts), of the calls not yet over
        self.in_play = _never
        self.in_game = _never  # a game in progress: running or paused
        self.pass_us = 0  # when the current pass began
        self.free = True  # the main loop was out of its calls when the pass began
        self.changes_seen = -1
        self.beat_at = 0
        self.queued = 0  # bytes in the link's outgoing queue
        self.heard_at = 0  # the last instant a byte came from the broker
        self.answer_due = False  # a PINGREQ went: its PINGRESP comes by the next turn
        self.unconfirmed = 0  # write calls since the broker last answered a PINGREQ
        # What happened, for the figures.
        self.erases = 0
        self.erases_in_play = 0
        self.programs = 0
        self.frames = 0
        self.collections = 0
        self.collections_in_play = 0
        self.socket_calls = 0
        self.messages = 0
        self.longest_us = 0
        self.longest_in_play_us = 0
        self.erases_in_game = 0  # while a game is in progress, paused too
        self.longest_hold_in_game_us = 0  # a pass's calls, from the pass's instant to their end
        self.device_reads = 0
        self.deferred = 0  # edges stamped late
        # The scheduler's queue (soft pin handlers and timer callbacks wait there while
        # a C call runs; MicroPython drops what does not fit, silently).
        self.scheduler_depth = getattr(chip, "SCHEDULER_DEPTH", 0)
        self.handler_us = getattr(chip, "HANDLER_US", (0, 0))[pick]
        self.queue_until_us = -1  # the end of the call the queued calls wait for
        self.queued = 0
        self.dropped_calls = 0  # handler and callback calls the full queue dropped

    # --- the main loop's calls ---------------------------------------------

    def begin_pass(self, now_ms):
        """A main-loop pass starts at ``now_ms``: its calls follow those still running."""
        now_us = now_ms * 1000
        self.free = self.cursor_us <= now_us
        if self.free:
            self.cursor_us = now_us
        self.pass_us = now_us
        windows = self.windows
        while windows and windows[0][1] <= now_us:
            windows.pop(0)

    def input_wake(self, settle_us, captured):
        """The pass an input's edge woke from the main loop's sleep: before the step reads
        its tick, the core runs the edge handler at each edge of the contact's chatter
        until the line settles (``settle_us`` from the wake), then the wake itself: the
        poll's return to the loop, ``CAPTURED_WAKE_US`` after an input the capture stamps
        (its handler takes the stamps), ``KEY_WAKE_US`` after a key (boards/chips/,
        measured on the port). A chip without those figures wakes at no cost. The CPU's,
        the interrupts on: not a C call (its figures leave it out), but it holds the loop."""
        wake_us = self.captured_wake_us if captured else self.key_wake_us
        if wake_us:
            start = self.cursor_us
            self.cursor_us = start + settle_us + wake_us
            self.windows.append((start, self.cursor_us, False))

    def call(self, duration_us, masks):
        """One C call of ``duration_us``; ``masks``: the interrupts are off while it runs."""
        if duration_us <= 0:
            return
        start = self.cursor_us
        end = start + duration_us
        self.cursor_us = end
        self.windows.append((start, end, masks))
        if duration_us > self.longest_us:
            self.longest_us = duration_us
        if self.in_play() and duration_us > self.longest_in_play_us:
            self.longest_in_play_us = duration_us
        if self.in_game() and end - self.pass_us > self.longest_hold_in_game_us:
            self.longest_hold_in_game_us = end - self.pass_us

    def flash_commit(self, data_bytes):
        """littlefs commits ``data_bytes`` (a flush, a rename, a remove)."""
        prog = self.prog_bytes
        commit = -(-(data_bytes + self.commit_overhead) // prog) * prog
        if self.block_used + commit > self.sector_bytes:
            # a compaction: the block erased, the live metadata programmed again, the
            # commit's change in it (``compacted_bytes``), and the CPU that gathers it
            self.erase_block()
            if not self.in_game():
                self.call(self.compaction_cpu_us, False)
            commit = self.compacted_bytes()
            self.block_used = 0
        self.block_used += commit
        self.program_pages(-(-commit // self.page_bytes))

    def compacted_bytes(self):
        """What a compaction of littlefs's metadata pair programs: the live entries as littlefs's
        ``lfs_dir_compact`` writes them again (its on-disk specification), padded to the
        program size. The block's revision count (4 bytes); the superblock's name "littlefs"
        and its struct (12 + 28); each file's name (a tag and its bytes), its struct (a tag
        and the data inline, up to ``inline_bytes``, or a CTZ list's head and size, 8) and
        its attributes (``LFS_FILE_ATTR_BYTES``: MicroPython's mtime, a tag and 8 bytes);
        then the commit's end: the erased state's CRC (a tag and 8 bytes) and the CRC's tag
        and word. Files are what ``live_files`` reports (none without it)."""
        size = 4 + 12 + 28 + 12 + 8
        files = self.live_files() if self.live_files is not None else ()
        for name, length, in_blocks in files:
            size += 4 + len(name) + 4 + self.file_attr_bytes
            size += 8 if in_blocks or length > self.inline_bytes else length
        prog = self.prog_bytes
        return -(-size // prog) * prog

    def mounted(self, sizes):
        """The flash as it is when the board boots, its files of ``sizes`` bytes: littlefs's
        metadata block holds the superblock's commit and, for each file, its creation's
        commit and its data's (a small file's bytes are inline in the metadata)."""
        prog = self.prog_bytes
        used = prog
        for size in sizes:
            used += prog + -(-(size + self.commit_overhead) // prog) * prog
        self.block_used = used if used <= self.sector_bytes else used % self.sector_bytes

    def file_written(self):
        """A file replaced whole outside a game (``hal.storage``'s JSON files: the settings,
        the header): the CPU of the step around its write (``FILE_WRITE_CPU_US``)."""
        if not self.in_game():
            self.call(self.file_write_cpu_us, False)

    def ring_opened(self):
        """A journal ring's file opened to be written outside a game: the first block of
        a preparation if the device was scanned since the last (``hal.journal_setup`` is
        let go after each scan and loaded again there, a new ring's nonce drawn): the CPU
        before its erase beyond a later block's (``RING_START_CPU_US``)."""
        if self.scanned and not self.in_game():
            self.call(self.ring_start_cpu_us, False)
        self.scanned = False

    def erase_block(self):
        """One 4 KiB sector erase (a block device's, or littlefs's before a commit)."""
        self.erases += 1
        if self.in_play():
            self.erases_in_play += 1
        if self.in_game():
            self.erases_in_game += 1
        self.call(self.erase_us, self.flash_masks)
        if self.erase_cpu_us and not self.in_game():  # the ring's preparation, before a start
            self.call(self.erase_cpu_us, False)

    def device_read(self, read=None):
        """One block device read (the journal ring's scans, its slots at boot) and the
        Python over what it read, ``read`` (its bytes): the CPU's ``DEVICE_READ_US``, the
        interrupts on; ``MARKED_READ_US`` more if they hold a ring block's marker, which
        the scan parses in Python (``hal.journal_setup.locate``: a block without one is
        skipped in C)."""
        self.device_reads += 1
        self.scanned = True
        cost = self.read_us
        if read is not None and _RING_MARK in read:
            cost += self.marked_read_us
        self.call(cost, False)

    def program_range(self, offset, size):
        """One ``writeblocks`` of ``size`` bytes at ``offset``: whole page programs, or on
        a chip whose driver programs at most ``WRITE_CHUNK_BYTES`` at a time and never
        across a page (ESP-IDF), one program of its time for each such piece."""
        chunk = getattr(self.chip, "WRITE_CHUNK_BYTES", 0)
        if not chunk:
            page = self.page_bytes
            self.program_pages((offset + size - 1) // page - offset // page + 1)
            return
        pieces = 0
        at = offset
        end = offset + size
        while at < end:
            page_end = (at // self.page_bytes + 1) * self.page_bytes
            at = min(at + chunk, page_end, end)
            pieces += 1
        self.programs += pieces
        self.call(pieces * self.chunk_us, self.flash_masks)

    def program_pages(self, pages):
        """``pages`` page programs in one call (one ``writeblocks`` at an offset)."""
        self.programs += pages
        self.call(pages * self.program_us, self.flash_masks)

    def i2c_frame(self, freq, data_bytes):
        """One I2C write of ``data_bytes`` at ``freq`` Hz: start, address, data, stop."""
        bits = 9 * (data_bytes + 1) + 2
        self.frames += 1
        self.call(-(-bits * 1_000_000 // (freq or self.i2c_freq)), False)

    def collection(self, heap_in_use):
        """A full garbage collection with ``heap_in_use`` bytes on the heap."""
        self.collections += 1
        if self.in_play():
            self.collections_in_play += 1
        self.call(self.gc_us_per_kib * heap_in_use // 1024, False)

    def after_pass(self, app, now_ms, ticks):
        """The hall link's turn after a pass (boards with a radio), if the pass found
        the main loop free: its socket calls, one after the other (``ticks``: the
        board's tick at ``now_ms``, for the message's bytes)."""
        if not self.network or app is None or not self.free:
            return
        changes = app.clock.changes + app.claims.changes
        if changes != self.changes_seen or now_ms >= self.beat_at:
            count = self.message.write(app, ticks, 12, 1, "change")
            packet = 3 + 2 + len(_TOPIC) + count  # PUBLISH: its head, the topic, the message
            if self.queued + packet <= _OUTBOX:  # else the link tries at its next turn
                self.queued += packet
                self.messages += 1
                self.changes_seen = changes
                self.beat_at = now_ms + _HEARTBEAT_MS  # (allocates nothing: no collection)
        if not self.answer_due and (
            now_ms - self.heard_at >= _PING_MS or self.unconfirmed >= _PROBE_CALLS
        ):
            self.queued += 2  # PINGREQ
            self.answer_due = True
        self.socket(self.poll_us)  # readiness, at zero timeout
        if self.answer_due and self.queued == 0:
            self.socket(self.recv_us)  # the PINGRESP (2 bytes) came meanwhile
            self.heard_at = now_ms
            self.answer_due = False
            self.unconfirmed = 0
        while self.queued:
            self.socket(self.send_us)
            self.unconfirmed += 1
            self.queued -= min(self.queued, _WRITE_CHUNK)
            self.socket(self.poll_us)  # the next poll

    def socket(self, duration_us):
        """One socket call of the hall link (the interrupts on)."""
        self.socket_calls += 1
        self.call(duration_us, False)

    # --- what the world asks -------------------------------------------------

    def stamp_ms(self, at_ms):
        """When an edge at ``at_ms`` is stamped: the end of the call it falls in, if
        that call holds the handler back on this chip; else ``at_ms``."""
        stamp = self.held_until_ms(at_ms)
        if stamp > at_ms:
            self.deferred += 1
        return stamp

    def held_until_ms(self, at_ms):
        """The millisecond a handler (a pin's, a timer's) due at ``at_ms`` runs in: the
        end of the call ``at_ms`` falls in, if that call holds handlers back on this
        chip; else ``at_ms``. Counts nothing."""
        at_us = at_ms * 1000
        for start, end, masks in self.windows:
            if start <= at_us < end and (masks or self.soft_handlers):
                return max(end // 1000, at_ms)
        return at_ms

    def schedule(self, at_ms):
        """A soft handler or callback asks for a call at ``at_ms``, inside a C call: queued
        until the call ends, the millisecond it runs in returned (the calls queued before
        it run first, ``handler_us`` each), or -1: dropped, ``scheduler_depth`` calls wait
        already (MicroPython's mp_sched_schedule answers False and nothing else happens)."""
        end = self.cursor_us
        if end != self.queue_until_us:
            self.queue_until_us = end
            self.queued = 0
        if self.queued >= self.scheduler_depth:
            self.dropped_calls += 1
            return -1
        runs_at = end + self.queued * self.handler_us
        self.queued += 1
        return runs_at // 1000

    def drained_ms(self):
        """The first whole millisecond at which the main loop is out of its calls and the
        scheduler has run the calls queued behind them."""
        if self.queue_until_us != self.cursor_us:
            return self.busy_until_ms()
        return -(-(self.queue_until_us + self.queued * self.handler_us) // 1000)

    def busy_until_ms(self):
        """The first whole millisecond at which the main loop is out of its C calls."""
        return -(-self.cursor_us // 1000)

    def figures(self):
        """What the model counted, in milliseconds where it is a time."""
        return {
            "erases": self.erases,
            "erases_in_play": self.erases_in_play,
            "erases_in_game": self.erases_in_game,
            "device_reads": self.device_reads,
            "page_programs": self.programs,
            "i2c_frames": self.frames,
            "collections": self.collections,
            "collections_in_play": self.collections_in_play,
            "socket_calls": self.socket_calls,
            "hall_messages": self.messages,
            "longest_c_call_ms": round(self.longest_us / 1000, 3),
            "longest_c_call_in_play_ms": round(self.longest_in_play_us / 1000, 3),
            "longest_hold_in_game_ms": round(self.longest_hold_in_game_us / 1000, 3),
            "edges_stamped_late": self.deferred,
            "scheduled_calls_dropped": self.dropped_calls,
        }


def _never():
    return False


def running(board):
    """A function telling whether ``board``'s clock runs (a game in play)."""

    def in_play():
        app = board.app
        return app is not None and app.clock.state == engine.RUNNING

    return in_play


def in_progress(board):
    """A function telling whether ``board`` has a game in progress (running or paused)."""

    def in_game():
        app = board.app
        return app is not None and app.clock.state in (engine.RUNNING, engine.PAUSED)

    return in_game
