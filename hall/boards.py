"""What the view knows of each board, from one bounded reading of what arrives (docs/hall.md).

``Board`` takes its clock's messages and statuses as the broker delivers
them and keeps only what the clock could have said: the payload's size is
checked first, then ``firmware.hall_decode`` reads it (flat JSON, ranges,
fixed sets, known keys only); ``seq`` never goes back within one connection
of the clock (a viewer keeps the highest; a new connection, its ``online``
status or its ``boot``/``reconnect`` message, starts counting again); a
clock may send ``RATE_PER_S`` messages a second on average, in bursts of
``BURST``. Everything else is refused, counted per board and its reason kept
for the page: a board that sends garbage is itself something to look at.
Memory per board is bounded whatever arrives: one decoded message, the
clock times of at most ``2 * MAX_MOVES`` plies, two counters.

``needs`` says what the chief arbiter must act on at a board now: a fallen
flag, a claim open or postponed, a clock offline or sending garbage, time
trouble (the side to move under two minutes where the clock's quickplay
setting says Appendix G applies) and a low battery.
"""

from firmware import hall_decode
from hall.pgn import ClockHistory

SILENT_MS = 75_000  # no message for 2.5 heartbeats: shown offline even without the will
RATE_PER_S = 10  # a clock sends on a change: a press takes at least 0.15 s
BURST = 30
GARBAGE_MS = 300_000  # a refused message keeps the board in the strip this long
TROUBLE_MS = 120_000  # Appendix G: "less than two minutes"
STATUSES = (b"online", b"offline")


def plain_reason(text):
    """A refusal's reason without anything the clock sent: each quoted part, and what
    follows ``": "``, become "…" (the page shows the reason; the bytes stay out of it)."""
    out = []
    quote = None
    escaped = False
    for char in text:
        if quote is not None:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True  # repr's \' inside a quoted part
            elif char == quote:
                quote = None
            continue
        if char in "'\"":
            quote = char
            out.append("…")
        else:
            out.append(char)
    plain = "".join(out)
    head, colon, _ = plain.partition(": ")
    return (head + ": …" if colon else plain)[:80]


def board_number(text):
    """``text`` as a board number 1..9999 (ASCII digits, no leading zero), else None."""
    if not 1 <= len(text) <= 4 or text[0] == "0" or any(c not in "0123456789" for c in text):
        return None
    return int(text)


class Board:
    """One board: its last message, whether its clock is online, its clock times."""

    def __init__(self, number, listed=False):
        self.number = number
        self.listed = listed  # one of the hall's accounts: shown before its clock comes
        self.message = None
        self.received_ms = 0
        self.online = None  # None: no status seen yet
        self.history = ClockHistory()
        self.refused = 0  # messages that were not this clock's hall messages
        self.refusal = ""  # why the last one was refused
        self.refused_ms = None
        self.new_connection = True
        self.tokens = BURST
        self.tokens_ms = None
        self.pairing = None  # (white, black) names from the round's pairings
        self.seq = 0  # the view's sequence of this board's last change (``changed``)

    def refuse(self, now_ms, reason):
        self.refused += 1
        self.refusal = plain_reason(reason)
        self.refused_ms = now_ms

    def _allow(self, now_ms):
        """The rate limit: a token bucket of ``BURST`` filled at ``RATE_PER_S``."""
        if self.tokens_ms is not None:
            gained = (now_ms - self.tokens_ms) * RATE_PER_S // 1000
            if gained > 0:
                self.tokens = min(BURST, self.tokens + gained)
                self.tokens_ms += gained * 1000 // RATE_PER_S
        else:
            self.tokens_ms = now_ms
        if self.tokens <= 0:
            return False
        self.tokens -= 1
        return True

    def take_status(self, payload, now_ms):
        """The clock's ``/status`` (online, or the broker's offline); True if it changed."""
        if not self._allow(now_ms):
            self.refuse(now_ms, "more than %d messages a second" % RATE_PER_S)
            return False
        if payload not in STATUSES:
            self.refuse(now_ms, "a status that is neither online nor offline")
            return False
        online = payload == b"online"
        if online:
            self.new_connection = True
        changed = online != self.online
        self.online = online
        return changed

    def take_message(self, payload, now_ms):
        """The clock's state message; True if the board changed."""
        if not self._allow(now_ms):
            self.refuse(now_ms, "more than %d messages a second" % RATE_PER_S)
            return False
        try:
            data = hall_decode.decode(payload)
        except ValueError as error:
            self.refuse(now_ms, str(error))
            return False
        if data["board"] != self.number:
            self.refuse(now_ms, "board %d on the topic of board %d" % (data["board"], self.number))
            return False
        last = self.message
        if last is not None:
            if data == last:
                return False  # the retained message again, after the view reconnected
            starts = self.new_connection or data["reason"] in ("boot", "reconnect")
            if data["seq"] <= last["seq"] and not starts:
                self.refuse(now_ms, "seq %d after %d" % (data["seq"], last["seq"]))
                return False
        self.new_connection = False
        self.message = data
        self.received_ms = now_ms
        if self.online is None:
            self.online = True
        self.history.follow(data)
        return True

    def changed(self, seq):
        """The view counted this board's last change as its change ``seq``."""
        self.seq = seq

    def is_online(self, now_ms):
        silent = self.message is not None and now_ms - self.received_ms > SILENT_MS
        return bool(self.online) and not silent

    def state(self, now_ms):
        """What the page shows: the clock's state, ``flags`` when both fell, ``offline``,
        or ``no clock yet``."""
        message = self.message
        if message is None:
            return "no clock yet"
        if not self.is_online(now_ms):
            return "offline"
        if message["flag_left"] and message["flag_right"]:
            return "flags"
        return message["state"]

    def needs(self, now_ms):
        """What the arbiter must act on here now, most urgent first (empty: nothing)."""
        reasons = []
        message = self.message
        if self.refused_ms is not None and now_ms - self.refused_ms < GARBAGE_MS:
            reasons.append("garbage")
        if message is None:
            return reasons
        if not self.is_online(now_ms):
            reasons.insert(0, "offline")
        if message["flag_left"] or message["flag_right"]:
            reasons.insert(0, "flag")
        if message["claim"].startswith(("open", "postponed")):
            reasons.append("claim")
        mover = message["to_move"]
        if (
            message["state"] == "running"
            and message.get("quickplay", "off") != "off"
            and mover != "none"
            and not message["flag_" + mover]
            and message[mover + "_ms"] - (now_ms - self.received_ms) < TROUBLE_MS
        ):
            reasons.append("time trouble")
        if message["battery"] == "low":
            reasons.append("battery")
        return reasons

    def snapshot(self, now_ms):
        names = self.pairing or (None, None)
        return {
            "board": self.number,
            "message": self.message,
            "age_ms": now_ms - self.received_ms if self.message is not None else None,
            "received_ms": self.received_ms if self.message is not None else None,
            "at_ms": now_ms,
            "seq": self.seq,
            "online": self.is_online(now_ms),
            "state": self.state(now_ms),
            "needs": self.needs(now_ms),
            "plies": len(self.history.times),
            "refused": self.refused,
            "refusal": self.refusal,
            "white": names[0],
            "black": names[1],
        }
