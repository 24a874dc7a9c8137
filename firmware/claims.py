"""Quickplay-finish claims: the arbiter's procedures on top of ``engine.Clock``.

The event sets before the game which procedure applies (G.2; Dutch G2: G.4
or G.5) and which edition of the rules. What each path carries out:

- ``open``, every setting: only the player to move, the clock stopped to call
  the arbiter (6.12), under two minutes shown, before his flag has fallen
  (G.4, G.5, G.6a; 2015 10.4, 10.5; older 10.2, 11); only standard or rapid
  without increment or delay, never blitz (G.3, 2015 10.3); only in the
  claimant's last period, the quickplay finish itself (G.1, 10.1).
- ``g4-increment``/``g4-delay``, appendix-g (G.4): the claim is also a draw
  offer; ``decide`` ``draw``, ``grant`` (opponent +2:00, both sides to the
  5-second mode) or ``refuse``. 2015 edition (10.4): no offer, no ruling, the
  claim alone is granted. The older edition has no 5-second mode: G.4 under
  it is a setting error.
- ``g5`` (G.5; 2015 10.5; older 10.2, its ruling final by 10.2.4): ``draw``
  (a), ``postpone``/``postpone+2`` (b), ``reject`` (c, opponent +2:00). A
  postponed claim is ruled on later, also after a flag (b): ``draw``, or
  ``reject`` (+2:00 unless the opponent's flag has fallen: it stays at zero).
- ``g6`` (G.6; older 11; the 2015 text has no rule for an event without an
  arbiter, so G.6 serves it too): the claim ends the game, both clocks
  freeze and ``record`` keeps what the designated arbiter needs.

Choices where the texts leave the clock open: the G.3 conditions are checked
on both sides' controls (they are conditions on the game); hourglass and
byo-yomi are refused (their time grows or renews each move: neither "two
minutes left" nor a 5-second mode means anything there); a claim is refused
once the opponent's flag has fallen (the flag decides; no time can be added
to it); a new claim while one is postponed is refused, the first awaits its
ruling; after ``refuse`` or ``reject`` the player may claim again. A grant
leaves the opponent's time as it is plus 2:00: his first +5 s comes with his
next move. After a ruling that does not end the game the clock stays paused
with the claimant to move; the arbiter resumes it (6.11).
"""

from micropython import const

from firmware import engine
from firmware import timecontrol as tc

QUICKPLAY = ("off", "g4-increment", "g4-delay", "g5", "g6")
EDITIONS = ("appendix-g", "2015", "older")
SIDE_NAMES = ("left", "right")

_CLAIM_BELOW_MS = const(120_000)  # "less than two minutes"
_EXTRA_MS = const(120_000)  # the opponent's two extra minutes
_MODE_MS = const(5_000)  # the 5-second mode
_GAME_MOVES = const(60)  # Article 15.1: base + 60 x increment
_RAPID_FROM_MS = const(900_000)
_STANDARD_FROM_MS = const(3_600_000)
_MAX_SHOWN_MS = const(359_999_999)  # 99:59:59.999, the most the display shows

_G4_OUTCOMES = ("draw", "grant", "refuse")
_G5_OUTCOMES = ("draw", "postpone", "postpone+2", "reject")
_FINAL_OUTCOMES = ("draw", "reject")  # the later ruling on a postponed claim


def outcomes(quickplay, postponed):
    """The rulings the arbiter can give on a claim, in the order the keys offer them."""
    if postponed:
        return _FINAL_OUTCOMES
    return _G5_OUTCOMES if quickplay == "g5" else _G4_OUTCOMES


def check_setting(quickplay, edition):
    """Raise ValueError unless ``quickplay`` and ``edition`` can be used together."""
    if quickplay not in QUICKPLAY:
        raise ValueError(
            "quickplay setting %r: expected one of %s" % (quickplay, ", ".join(QUICKPLAY))
        )
    if edition not in EDITIONS:
        raise ValueError("edition %r: expected one of %s" % (edition, ", ".join(EDITIONS)))
    if edition == "older" and quickplay in ("g4-increment", "g4-delay"):
        raise ValueError(
            "quickplay %s: the older edition has no 5-second mode "
            "(its Article 10 has only the draw claim); use g5 or g6" % quickplay
        )


def game_ms(control):
    """The time one side is given for its first 60 moves (Article 15.1).

    One period: its time + 60 x its Fischer increment. Several periods: the
    times of those that begin within the first 60 moves, plus the Fischer
    increment of each of those moves. Delays give no time (they only spare
    some). Byo-yomi: main time plus what renews over 60 moves (Japanese 60
    periods, Canadian a block per M moves); hourglass: its starting time.
    """
    kind = control.kind
    main_ms = control.periods[0][1]
    if kind == tc.HOURGLASS:
        return main_ms
    if kind == tc.JAPANESE:
        return main_ms + _GAME_MOVES * control.byo_ms
    if kind == tc.CANADIAN:
        blocks = (_GAME_MOVES + control.byo_count - 1) // control.byo_count
        return main_ms + blocks * control.byo_ms
    total = 0
    before = 0  # moves of the earlier periods, up to 60
    last = len(control.periods) - 1
    for index in range(last + 1):
        if before >= _GAME_MOVES:
            break
        moves, time_ms, mode, bonus_ms = control.periods[index]
        end = _GAME_MOVES if index == last else min(control.cumulative[index], _GAME_MOVES)
        total += time_ms
        if mode == tc.FISCHER:
            total += (end - before) * bonus_ms
        before = end
    return total


def classify(control):
    """Article 15.1 on ``game_ms(control)`` (multi-period rule there): ``"blitz"``
    under 15 min, ``"rapid"`` from 15 to under 60, ``"standard"`` from 60."""
    total = game_ms(control)
    if total < _RAPID_FROM_MS:
        return "blitz"
    if total < _STANDARD_FROM_MS:
        return "rapid"
    return "standard"


def five_second_mode(increment):
    """The control a G.4 grant puts both sides on: +5 s a move, or a 5 s delay."""
    if increment:
        return tc.TimeControl("0+5", tc.STAGES, ((0, 0, tc.FISCHER, _MODE_MS),))
    return tc.TimeControl("0d5", tc.STAGES, ((0, 0, tc.DELAY, _MODE_MS),))


class Claims:
    """The claim on one clock. ``state``: ``"none"``, ``"open"``, ``"postponed"``,
    ``"recorded"``; ``claimant``: its side or ``engine.NOBODY``; ``result``:
    ``"none"`` or ``"draw"``; ``record``: the G.6 record; ``log``: ``(now,
    what, detail)`` tuples. Methods return None, or a refusal code and
    change nothing."""

    def __init__(self, clock, quickplay, edition):
        check_setting(quickplay, edition)
        self.clock = clock
        self.quickplay = quickplay
        self.edition = edition
        self.log = []
        self.new_game()

    def new_game(self):
        """Forget the claim and the result, as ``clock.new_game()`` does the times."""
        self.state = "none"
        self.claimant = engine.NOBODY
        self.result = "none"
        self.record = None

    def field(self):
        """The state line's claim field: ``none``, ``open-left``, ``postponed-right``…"""
        if self.state == "none":
            return "none"
        return "%s-%s" % (self.state, SIDE_NAMES[self.claimant])

    def refusal(self, now):
        """Why a claim cannot be opened at ``now`` (a refusal code), or None."""
        if self.quickplay == "off":
            return "quickplay-off"
        if self.state == "open":
            return "claim-open"
        if self.state == "postponed":
            return "claim-postponed"
        clock = self.clock
        if self.state != "none" or self.result != "none" or not clock.in_turn():
            return "no-game"
        if clock.state != engine.PAUSED:
            return "not-paused"
        for side in clock.sides:
            control = side.control
            if control.kind != tc.STAGES:
                return "special-control"
            if control.has_bonus():
                return "has-bonus"
            if classify(control) == "blitz":
                return "blitz"
        mover = clock.mover
        side = clock.sides[mover]
        if side.flagged:
            return "flag-fallen"
        if clock.sides[1 - mover].flagged:
            return "opponent-flag"
        if side.period != len(side.control.periods) - 1:
            return "not-last-period"
        if clock.shown_ms(mover, now) >= _CLAIM_BELOW_MS:
            return "time-2min"
        return None

    def open(self, now):
        """The arbiter opens a claim for the player to move (clock paused)."""
        refused = self.refusal(now)
        if refused is not None:
            return refused
        self.state = "open"
        self.claimant = self.clock.mover
        self._note(now, "claim", SIDE_NAMES[self.claimant])
        if self.quickplay == "g6":
            self._record(now)
        elif self.edition == "2015" and self.quickplay != "g5":
            self._note(now, "grant", SIDE_NAMES[self.claimant])
            self._grant(now)
            self._close()
        return None

    def decide(self, outcome, now):
        """The arbiter's ruling on the open (or postponed) claim."""
        if self.quickplay == "off":
            return "quickplay-off"
        if self.quickplay == "g6":
            return "no-arbiter"
        if self.state != "open" and self.state != "postponed":
            return "no-claim"
        valid = outcomes(self.quickplay, self.state == "postponed")
        if outcome not in valid:
            return "bad-outcome"
        clock = self.clock
        if clock.state != engine.PAUSED:
            return "not-paused"
        if self.state == "open" and (
            clock.mover != self.claimant or clock.sides[self.claimant].flagged
        ):
            return "claim-lapsed"  # play went on with the claim open: see ``withdraw``
        self._note(now, outcome, SIDE_NAMES[self.claimant])
        if outcome == "draw":
            self._settle(now)
            clock.state = engine.OVER
            self.result = "draw"
        elif outcome == "grant":
            self._grant(now)
        elif outcome == "reject" or outcome == "postpone+2":
            # refused only when the opponent's flag has fallen (a postponed claim)
            self.add_time(1 - self.claimant, _EXTRA_MS, now)
        if outcome == "postpone" or outcome == "postpone+2":
            self.state = "postponed"
        else:
            self._close()
        return None

    def withdraw(self, now):
        """Drop the open claim without a ruling (play went on before the ruling)."""
        if self.state != "open":
            return "no-claim"
        self._note(now, "withdraw", SIDE_NAMES[self.claimant])
        self._close()
        return None

    def add_time(self, index, delta_ms, now=None):
        """Give side ``index`` ``delta_ms`` more (or, negative, less) time.

        What ``clock.shown_ms(index, now)`` returns moves by exactly
        ``delta_ms``: for the side to move, ``remaining_ms`` is the time at the
        start of the turn and the turn's use is taken off it when shown. With
        ``now`` the change goes into the log. Refused for byo-yomi (the time
        shown there is a period's, not the main time), for a side whose flag
        has fallen and whose time stays at zero, below zero, and above what the
        display shows (99:59:59.999: the journal and a 32-bit board hold it).
        """
        clock = self.clock
        side = clock.sides[index]
        if side.control.kind == tc.JAPANESE or side.control.kind == tc.CANADIAN:
            return "special-control"
        if side.flagged and not side.can_flag:
            return "flag-fallen"
        at = clock.turn_start if now is None else now  # while still, any instant will do
        shown = clock.shown_ms(index, at) + delta_ms
        if shown < 0 or (delta_ms > 0 and shown > _MAX_SHOWN_MS):
            return "bad-time"
        side.remaining_ms += delta_ms
        if now is not None:
            self._note(now, "add", "%s %d" % (SIDE_NAMES[index], delta_ms))
        return None

    # --- the effects ------------------------------------------------------

    def _note(self, now, what, detail):
        self.log.append((now, what, detail))

    def _close(self):
        self.state = "none"
        self.claimant = engine.NOBODY

    def _settle(self, now):
        """Make the mover's shown time its settled time, the turn used up."""
        clock = self.clock
        clock.sides[clock.mover].remaining_ms = clock.shown_ms(clock.mover, now)
        clock.turn_used = 0

    def _grant(self, now):
        """G.4 / 10.4: opponent +2:00, both sides to the 5-second mode."""
        clock = self.clock
        claimant = self.claimant
        self.add_time(1 - claimant, _EXTRA_MS, now)
        increment = self.quickplay == "g4-increment"
        shown = clock.shown_ms(claimant, now)
        for side in clock.sides:
            side.control = five_second_mode(increment)
            side.period = 0
        # The move in progress starts again in the new mode: +5 s at once with
        # the increment, a fresh 5 s delay when play resumes with the delay.
        clock.sides[claimant].remaining_ms = shown + (_MODE_MS if increment else 0)
        clock.turn_used = 0
        self._note(now, "mode", clock.sides[0].control.text)

    def _record(self, now):
        """G.6 / older 11: the claim ends the game; keep it for the arbiter."""
        clock = self.clock
        self._settle(now)
        clock.state = engine.OVER
        self.state = "recorded"
        self.record = {
            "claimant": SIDE_NAMES[self.claimant],
            "left_ms": clock.shown_ms(0, now),
            "right_ms": clock.shown_ms(1, now),
            "moves": clock.moves(),
            "control_left": clock.sides[0].control.text,
            "control_right": clock.sides[1].control.text,
            "edition": self.edition,
            "setting": self.quickplay,
        }
        self._note(now, "record", SIDE_NAMES[self.claimant])
