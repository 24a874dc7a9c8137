"""Boot: bring back a journalled game, start the journal, and queue the boot messages.

``attach(app, store, settings, tick_ms)`` runs once, after the settings were
read and before the interrupts start. If the journal holds a game in
progress (or a finished one: its result and a G.6 record must survive), the
app's clock and claims take it back with the header's controls and event
settings, whatever the settings file says now: a running clock comes back
**paused**, and the displays say ``rESt`` before the times. A journal the
clock cannot use is set aside (``game.json.bad``, ``game.j0.bad``…) with the
code ``Err3`` (``vEr3`` for a newer firmware's); the clock then starts afresh.
docs/power.md tells the whole story.
"""

from firmware import claims as claims_module
from firmware import engine, files, timecontrol
from firmware import journal as journal_module
from firmware.boot import documents, journal_read

RESTORED = "rESt"  # the boot message of a game that came back (firmware.notices)


def check_slots(data):
    """Raise ValueError unless ``data`` is the user slots file: slot "1".."9" -> controls."""
    for name in data:
        if name == "version":
            continue
        slot = data[name]
        if name not in ("1", "2", "3", "4", "5", "6", "7", "8", "9") or not isinstance(slot, dict):
            raise ValueError("slot %r is not a user slot" % (name,))
        left = timecontrol.parse(slot["control_left"])
        timecontrol.check_pair(left, timecontrol.parse(slot.get("control_right", left.text)))


def attach(app, store, settings, tick_ms):
    """Restore a journalled game into ``app`` if there is one; journal from now on."""
    if settings.error_code is not None:
        app.notice(settings.error_code)
    problem = documents.load(app.storage(), files.USER_SLOTS, check_slots)
    if problem is not None:
        app.notice(documents.code(problem.kind, documents.USER_SLOTS))
    header, record, top_game, top_seq = read_journal(app, store)
    game = header["game"] if header is not None else 0
    restored = False
    logged = 0
    if (
        record is not None
        and header is not None
        and journal_read.game_id(record) == game
        and journal_read.state(record) != engine.SETUP
    ):
        try:
            logged = restore(app, store, header, record)
            restored = True
        except Exception as error:  # any field the clock cannot use: never a boot loop
            journal_problem(app, store, documents.Unusable(documents.BAD, str(error)))
            header = None  # set aside: the next game writes its own
            left, right = settings.controls()
            app.clock.configure(left, right)
            app.claims.configure(settings.quickplay, settings.edition, settings.penalty_ms)
    if not restored and top_game > game:
        game = top_game  # the next game's id goes above every id found (invariant 6)
    try:
        store.open_slots(header)
    except OSError as error:  # entries will fail and be counted; the clock goes on
        journal_problem(app, store, documents.Unusable(documents.BAD, "flash: %s" % error), False)
    journal = journal_module.Journal(app.clock, app.claims, store, tick_ms, game, top_seq, logged)
    app.attach_journal(journal)
    if restored:
        app.notice(RESTORED)
    journal.open(restored)
    return restored


def read_journal(app, store):
    """``(header, entry, top game, top sequence)``: the journal's header and the newest
    whole entry of its game (the ring's and the slots'), and the highest game id and
    sequence number of any whole entry found, or of the header (``(None, None, top
    game, top sequence)`` if the journal cannot be used: it is set aside)."""
    top = [0, 0]
    try:
        entries, spoiled = journal_read.read_slots(app.storage())
        entry = store.ring_entry(journal_read.valid)
        if entry is not None:
            entries.append(entry)
            spoiled = False
        for entry in entries:  # read before the header: ids above a header set aside
            top[0] = max(top[0], journal_read.game_id(entry))
            top[1] = max(top[1], journal_read.sequence(entry))
        header = journal_read.read_header(app.storage())
        if header is not None:
            top[0] = max(top[0], header["game"])
        if spoiled:
            raise documents.Unusable(documents.BAD, "no journal slot holds a whole entry")
        record = None
        for entry in entries:  # the newest of the header's game (any game without one)
            game = journal_read.game_id(entry)
            sequence = journal_read.sequence(entry)
            if header is not None and game != header["game"]:
                continue
            if record is None or sequence > journal_read.sequence(record):
                record = entry
        if record is not None and header is None and journal_read.state(record) != 0:
            raise documents.Unusable(documents.BAD, "a journalled game without its header")
    except documents.Unusable as problem:
        journal_problem(app, store, problem)
        return None, None, top[0], top[1]
    except Exception as error:  # the flash refuses, or a slot too large for the heap
        journal_problem(app, store, documents.Unusable(documents.BAD, "flash: %s" % error))
        return None, None, top[0], top[1]
    return header, record, top[0], top[1]


def journal_problem(app, store, problem, set_aside=True):
    app.notice(documents.code(problem.kind, documents.JOURNAL))
    if set_aside:
        journal_read.set_aside(app.storage())  # the ring too (invariant 7)
        store.drop_ring()


def restore(app, store, header, record):
    """Put the journalled game on the app; return how many event-log entries came back."""
    left = timecontrol.parse(header["control_left"])
    right = timecontrol.parse(header["control_right"])
    timecontrol.check_pair(left, right)
    claims_module.check_setting(header["quickplay"], header["edition"])
    clock = app.clock
    claims = app.claims
    clock.configure(left, right)
    claims.configure(header["quickplay"], header["edition"], claims.penalty_ms)
    journal_read.decode(record, clock, claims)
    count = journal_read.log_count(record)
    events = journal_read.read_events(app.storage(), header["game"], count, store.event_text())
    for tick, what, detail in events:
        claims.note(tick, what, detail)
    return len(events)
