"""Quickplay-finish claims: the arbiter's procedures on top of ``engine.Clock``.

The event sets before the game which procedure applies (G.2; Dutch G2: G.4
or G.5) and which edition of the rules. What each path carries out:

- ``open``, every setting: only the player to move, the clock stopped to call
  the arbiter (6.12), under two minutes shown, before his flag has fallen
  (G.4, G.5, G.6a; 2015 10.4, 10.5; older 10.2, 11); only standard or rapid
  without increment or delay, never blitz (G.3, 2015 10.3; the class by the
  edition's own definition, ``classify``); only in the claimant's last
  period, the quickplay finish itself (G.1, 10.1).
- ``g4-increment``/``g4-delay``, appendix-g (G.4): the claim is also a draw
  offer; ``decide`` ``draw``, ``grant`` (opponent +2:00, both sides to the
  5-second mode, every period kept) or ``refuse``. 2015 edition (10.4): no
  offer, no ruling, the claim alone is granted. The older edition has no
  5-second mode: G.4 under it is a setting error.
- ``g5`` (G.5; 2015 10.5; older 10.2, its ruling final by 10.2.4): ``draw``
  (a), ``postpone``/``postpone+2`` (b), ``reject`` (c, opponent +2:00). A
  postponed claim is ruled on later, also after a flag (b): ``draw``, or
  ``reject``, which gives the two minutes only if the postponement did not:
  two minutes once per claim (``awarded``).
- ``g6`` (G.6; older 11; the 2015 text has no rule for an event without an
  arbiter, so G.6 serves it too): the claim ends the game, both clocks
  freeze and ``record`` keeps what the designated arbiter needs.

The claim's life cycle (docs/arbiter.md has it as a table): ``none`` ->
``open`` (a claim in time) -> ``postponed`` (G.5 b) or ``none`` (any other
ruling, or ``close``: no award). An open or postponed claim waits for the
arbiter while play goes on (play going on is a postponement in effect) and
can be ruled on or closed at any later pause, also after a flag. When the
other player, to move with under two minutes, claims in turn, the earlier
claim is closed without an award (logged) and his opens.

Choices where the texts leave the clock open: the G.3 conditions are checked
on both sides' controls (they are conditions on the game; the class is the
game's one, the higher of the two sides', A.1 and B.1 "for each player");
claims in hourglass and byo-yomi are refused (their time grows or renews each move: neither "two
minutes left" nor a 5-second mode means anything there); a claim is refused
once the opponent's flag has fallen (the flag decides; no time can be added
to it); a grant after a flag is refused; after ``refuse`` or ``reject`` the
player may claim again. A grant leaves the opponent's time as it is plus
2:00: his first +5 s comes with his next move. After a ruling that does not
end the game the clock stays paused with the claimant to move; the arbiter
resumes it (6.11).
"""

from micropython import const

from firmware import engine
from firmware import timecontrol as tc
from firmware.timing import method_of

QUICKPLAY = ("off", "g4-increment", "g4-delay", "g5", "g6")
EDITIONS = ("appendix-g", "2015", "older")
SIDE_NAMES = ("left", "right")
CLASSES = ("standard", "rapid", "blitz")  # by rank: the higher class first
# The quick penalty's default per class (CLASSES) in each edition (EDITIONS): the
# current Laws (7.5.5, A.3, B.3); the 2015 and older texts' rapid Article 15.3
# applies the standard game's articles, two minutes, and one in blitz.
PENALTY_DEFAULT_MS = (
    (120_000, 60_000, 60_000),
    (120_000, 120_000, 60_000),
    (120_000, 120_000, 60_000),
)

_CLAIM_BELOW_MS = const(120_000)  # "less than two minutes"
_EXTRA_MS = const(120_000)  # the opponent's two extra minutes
_MODE_MS = const(5_000)  # the 5-second mode
_GAME_MOVES = const(60)  # A.1, B.1, Article 15.1: base + 60 x increment
_BLITZ_UP_TO_MS = const(600_000)  # appendix-g (A.1, B.1): blitz is 10 min or less
_RAPID_FROM_MS = const(900_000)  # 2015 and older (Article 15.1): rapid from 15 min
_STANDARD_FROM_MS = const(3_600_000)
_MAX_SHOWN_MS = const(359_999_999)  # 99:59:59.999, the most the display shows

_G4_OUTCOMES = ("draw", "grant", "refuse", "close")
_G5_OUTCOMES = ("draw", "postpone", "postpone+2", "reject", "close")
_FINAL_OUTCOMES = ("draw", "reject", "close")  # the later ruling on a postponed claim


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
    """The time one side is given for its first 60 moves (A.1, B.1, Article 15.1).

    One period: its time + 60 x its Fischer increment. Several periods: the
    times of those that begin within the first 60 moves, plus the Fischer
    increment of each of those moves. Delays give no time (they only spare
    some). Byo-yomi: main time plus what renews over 60 moves (Japanese 60
    periods, Canadian a block per M moves); hourglass: its starting time.
    """
    return method_of(control).game_ms(control, _GAME_MOVES)


def classify(control, edition):
    """The game's class by the edition's own definition, on ``game_ms(control)``:
    ``appendix-g`` (A.1, B.1) ``"blitz"`` up to 10 min, ``"rapid"`` over 10 and
    under 60; ``2015`` and ``older`` (Article 15.1) ``"blitz"`` under 15 min,
    ``"rapid"`` from 15 to under 60; ``"standard"`` from 60 in every edition."""
    total = game_ms(control)
    if total >= _STANDARD_FROM_MS:
        return "standard"
    if edition == "appendix-g":
        return "blitz" if total <= _BLITZ_UP_TO_MS else "rapid"
    return "blitz" if total < _RAPID_FROM_MS else "rapid"


class Claims:
    """The claim on one clock. ``state``: ``"none"``, ``"open"``, ``"postponed"``,
    ``"recorded"``; ``claimant``: its side or ``engine.NOBODY``; ``awarded``:
    the claim's two minutes were given (at ``postpone+2``); ``result``:
    ``"none"`` or ``"draw"``; ``record``: the G.6 record; ``log``: ``(now,
    what, detail)`` tuples of this game (the journal has them written to
    flash, and empties the log at a new game); ``penalty_ms``: the quick penalty per class, in the
    order of ``CLASSES``, set by hand, or None: the edition's default. Methods
    return None, or a refusal code and change nothing."""

    def __init__(self, clock, quickplay, edition, penalty_ms=None):
        self.clock = clock
        self.log = []
        self.changes = 0  # bumped by every change of the claim, the result or the log
        self.configure(quickplay, edition, penalty_ms)

    def configure(self, quickplay, edition, penalty_ms=None):
        """New event settings (raises ValueError, changing nothing, for a pair that
        cannot go together): a new game under them. The event log goes on."""
        check_setting(quickplay, edition)
        self.quickplay = quickplay
        self.edition = edition
        self.penalty_ms = penalty_ms
        self.new_game()

    def new_game(self):
        """Forget the claim and the result, as ``clock.new_game()`` does the times."""
        self._close()
        self.result = "none"
        self.record = None
        self.changes += 1

    def restore(self, state, awarded, claimant, result, record):
        """Take back a journalled claim (``firmware.boot.journal_read``)."""
        self.state = state
        self.awarded = awarded
        self.claimant = claimant
        self.result = result
        self.record = record
        self.changes += 1

    def note(self, now, what, detail):
        """Add ``(now, what, detail)`` to the event log."""
        self.log.append((now, what, detail))
        self.changes += 1

    def pending(self):
        """True while a claim waits for the arbiter's ruling (open or postponed)."""
        return self.state == "open" or self.state == "postponed"

    def field(self):
        """The state line's claim field: ``none``, ``open-left``, ``postponed-right``…"""
        if self.state == "none":
            return "none"
        return "%s-%s" % (self.state, SIDE_NAMES[self.claimant])

    def game_class(self):
        """The game's one class (A.1, B.1 "for each player"): the higher of the two
        sides' own controls (the event's, never a G.4 mode), by their rank in
        ``CLASSES`` (standard first)."""
        sides = self.clock.sides
        left = CLASSES.index(classify(sides[0].control, self.edition))
        right = CLASSES.index(classify(sides[1].control, self.edition))
        return CLASSES[left if left < right else right]

    def penalty(self):
        """The quick penalty's time: the event's amount for the game's class, by
        default the edition's (``PENALTY_DEFAULT_MS``)."""
        amounts = self.penalty_ms or PENALTY_DEFAULT_MS[EDITIONS.index(self.edition)]
        return amounts[CLASSES.index(self.game_class())]

    def refusal(self, now):
        """Why the player to move cannot claim at ``now`` (a refusal code), or None.

        A pending claim of the other player does not stop him: opening his
        claim closes that one (``open``)."""
        if self.quickplay == "off":
            return "quickplay-off"
        clock = self.clock
        if self.state == "recorded" or self.result != "none" or not clock.in_turn():
            return "no-game"
        if clock.state != engine.PAUSED:
            return "not-paused"
        mover = clock.mover
        if self.pending() and self.claimant == mover:
            return "claim-open" if self.state == "open" else "claim-postponed"
        for side in clock.sides:
            refusal = side.quickplay_refusal()
            if refusal is not None:
                return refusal
        if self.game_class() == "blitz":
            return "blitz"
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
        """The arbiter opens a claim for the player to move (clock paused); a
        pending claim of the other player is closed first, without an award."""
        refused = self.refusal(now)
        if refused is not None:
            return refused
        if self.pending():
            self.note(now, "close", SIDE_NAMES[self.claimant])
        self._close()
        self.state = "open"
        self.claimant = self.clock.mover
        self.note(now, "claim", SIDE_NAMES[self.claimant])
        if self.quickplay == "g6":
            self._record(now)
        elif self.edition == "2015" and self.quickplay != "g5":
            self.note(now, "grant", SIDE_NAMES[self.claimant])
            self._grant(now)
            self._close()
        return None

    def decide(self, outcome, now):
        """The arbiter's ruling on the open (or postponed) claim, at any pause."""
        if self.quickplay == "off":
            return "quickplay-off"
        if self.quickplay == "g6":
            return "no-arbiter"
        if not self.pending():
            return "no-claim"
        if outcome not in outcomes(self.quickplay, self.state == "postponed"):
            return "bad-outcome"
        clock = self.clock
        if clock.state != engine.PAUSED:
            return "not-paused"
        if outcome == "grant" and (clock.sides[0].flagged or clock.sides[1].flagged):
            return "flag-fallen"  # the flag decides: no 5-second mode after it
        self.note(now, outcome, SIDE_NAMES[self.claimant])
        if outcome == "draw":
            clock.finish(now)
            self.result = "draw"
        elif outcome == "grant":
            self._grant(now)
        elif outcome == "postpone+2" or (outcome == "reject" and not self.awarded):
            opponent = clock.sides[1 - self.claimant]
            if not opponent.flagged or opponent.can_flag:  # a fallen flag stays at zero
                self.add_time(1 - self.claimant, _EXTRA_MS, now)
                self.awarded = True
        if outcome == "postpone" or outcome == "postpone+2":
            self.state = "postponed"
        else:
            self._close()
        return None

    def add_time(self, index, delta_ms, now=None):
        """Give side ``index`` ``delta_ms`` more (or, negative, less) time.

        What ``clock.shown_ms(index, now)`` returns moves by exactly
        ``delta_ms``: for the side to move, ``remaining_ms`` is the time at the
        start of the turn and the turn's use is taken off it when shown. A side
        left at exactly zero has a fallen flag; time given to a side whose flag
        has fallen clears its flag (the log keeps that it fell). In byo-yomi
        (6.10.2 and 7.5.5 apply to every control) the change goes to the main
        time while the side is in it (main time brought to zero starts its
        byo-yomi, no flag), else to the period or block it is in. With ``now`` the change
        goes into the log. Refused below zero, and above what the display shows
        (99:59:59.999: the journal and a 32-bit board hold it).
        """
        clock = self.clock
        side = clock.sides[index]
        at = clock.turn_start if now is None else now  # while still, any instant will do
        fallen = side.flagged and not side.can_flag
        shown = 0 if fallen else clock.shown_ms(index, at)
        after = shown + delta_ms
        if after < 0 or fallen and delta_ms < 0 or (delta_ms > 0 and after > _MAX_SHOWN_MS):
            return "bad-time"
        if fallen:
            clock.flag_at_zero(index)  # the turn's use is spent: the side stands at zero
        clock.add_time(index, delta_ms, at)
        if fallen and delta_ms > 0:
            clock.clear_flag(index)
            if now is not None:
                self.note(now, "flag-cleared", SIDE_NAMES[index])
        if now is not None:
            self.note(now, "add", "%s %d" % (SIDE_NAMES[index], delta_ms))
        if after == 0 and not fallen and (not side.in_byo or side.block_ms == 0):
            clock.flag_at_zero(index)
            if now is not None:
                self.note(now, "flag", SIDE_NAMES[index])
        return None

    # --- the effects ------------------------------------------------------

    def _close(self):
        self.state = "none"
        self.claimant = engine.NOBODY
        self.awarded = False

    def _grant(self, now):
        """G.4 / 10.4: opponent +2:00, both sides to the 5-second mode, periods kept."""
        self.add_time(1 - self.claimant, _EXTRA_MS, now)
        increment = self.quickplay == "g4-increment"
        self.clock.switch_controls(tc.FISCHER if increment else tc.DELAY, _MODE_MS, now)
        self.note(now, "mode", "0+5" if increment else "0d5")

    def _record(self, now):
        """G.6 / older 11: the claim ends the game; keep it for the arbiter."""
        clock = self.clock
        clock.finish(now)
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
        self.note(now, "record", SIDE_NAMES[self.claimant])
