"""The arbiter's settings push, as a clock takes it (docs/hall.md).

``take`` puts the event's settings (control, quickplay rule, edition) in
force only in the setup state, stores them like the setup menus do and shows
``HALL`` on both displays; in a game it refuses them. The payload is read
like the clock's files (``firmware.strict_json``). Loaded by
``hal.hall_link`` when the first push arrives.
"""

from firmware import engine, files, hall_message, strict_json
from firmware import settings as settings_module

FROM_HALL = "HALL"  # what both displays show when the arbiter's settings took effect


def take(app, payload, push, push_id):
    """What became of ``payload``: ``(push, push_id)`` for the next message."""
    try:
        data = strict_json.loads(payload)  # the files' strict reading: alike on every lane
        wanted_id = data.get("id")
        if not isinstance(wanted_id, str) or not wanted_id:
            raise ValueError("a push needs an id")
        if len(wanted_id) > hall_message.MAX_PUSH_ID:  # the view reads no longer one
            raise ValueError("an id of at most %d characters" % hall_message.MAX_PUSH_ID)
        for char in wanted_id:  # echoed in the next message: printable ASCII on every lane
            if char < " " or char > "~":
                raise ValueError("an id of printable ASCII")
    except Exception:
        return "invalid", None
    if wanted_id == push_id and push == "applied":
        return push, push_id  # the retained push again after a reconnect: already in force
    if app.clock.state != engine.SETUP:
        return "refused", wanted_id  # never a change during a game: the next message says so
    fresh = settings_module.Settings()
    try:
        current = app.settings if app.settings is not None else fresh
        wanted = current.to_dict()
        control = data.get("control", wanted["control_left"])
        wanted["control_left"] = control
        wanted["control_right"] = data.get("control_right", control)
        wanted["quickplay"] = data.get("quickplay", wanted["quickplay"])
        wanted["edition"] = data.get("edition", wanted["edition"])
        fresh.apply(wanted)
    except Exception:
        return "invalid", wanted_id
    app.apply_settings(fresh)
    try:
        app.storage().write_json(files.SETTINGS, fresh.to_dict())
    except OSError:
        pass  # in force until the power goes; the menus' next save writes it
    app.notice(FROM_HALL)
    return "applied", wanted_id
