"""The arbiter's procedures on the keys, while the clock is paused.

Every procedure starts with a long press (2 s), so a key touched by accident
during a game never changes a time or a setting (keys other than play/pause
do nothing while the clock runs). Screens and sequences: docs/arbiter.md.

- hold ``plus``: open a quickplay-finish claim for the player to move, or,
  with a claim open or postponed, come back to the ruling on it (also after
  play went on, or a flag fell). ``plus``/``minus`` choose the outcome
  (``CLoS`` closes the claim with no award), ``set`` confirms, ``play``
  leaves without a ruling. Holding ``plus`` again on that screen opens the
  claim of the player to move, when it is the other player's turn: the
  earlier claim is closed without an award.
- hold ``set``: correct a time. A lever chooses the side; ``plus``/``minus``
  change the amount by the unit shown; ``set`` changes the unit (1 min,
  1 s, 0.1 s, 0.01 s, 0.001 s); ``play`` applies it. Holding ``plus`` there
  gives the chosen side the event's penalty amount for the game's class
  at once (by default the edition's: ``claims.PENALTY_DEFAULT_MS``).
- a lever moved while the clock is paused changes nothing; the display says
  ``LEvr`` (left) or ``rLEv`` (right) for 3 s and the event log keeps it.
- hold ``minus``: correct the move counter. ``plus``/``minus`` change it,
  ``play`` applies it; ``set`` applies it with the base time of every period
  the correction crosses (``n  t`` on the left says there is one to give).
- hold ``set`` twice (the second hold on the time screen): ``nEU GAnE``;
  ``set`` confirms a new game with the settings in force, any other key
  keeps the game (docs/menus.md).
"""

from micropython import const

from firmware import claims as claims_module
from firmware import engine, frames
from firmware.input_codes import KEY_MINUS, KEY_PLAY, KEY_PLUS, KEY_SET, LEVER_LEFT, LEVER_RIGHT
from firmware.screen import Screen
from firmware.tickmath import ticks_add, ticks_diff

MESSAGE_MS = const(3000)

IDLE = const(0)
RULING = const(1)
ADJUST = const(2)
MOVES = const(3)
MESSAGE = const(4)
NEW_GAME = const(5)

UNITS_MS = (60_000, 1000, 100, 10, 1)
_MAX_SHOWN_MS = const(359_999_999)  # 99:59:59.999: claims.add_time's ceiling too
_FIRST_FINE_UNIT = const(2)  # 0.1 s: from here the amount shows as S.mmm
OUTCOME_TEXT = {
    "draw": "drA",
    "grant": "GrAn",
    "refuse": "rEF",
    "postpone": "PoSt",
    "postpone+2": "Po 2",
    "reject": "rEJ",
    "close": "CLoS",
}
REFUSAL_TEXT = {
    "quickplay-off": "oFF",
    "claim-open": "CLA",
    "claim-postponed": "PoSt",
    "no-game": "GAnE",
    "not-paused": "PAU",
    "special-control": "tYPE",
    "has-bonus": "Inc",
    "blitz": "bLtz",
    "flag-fallen": "FLAG",
    "opponent-flag": "FLAG",
    "not-last-period": "PEr",
    "time-2min": "t 2",
    "bad-time": "tInE",
    "bad-outcome": "oUt",
    "no-claim": "no",
    "lever-left": "LEvr",
    "lever-right": "rLEv",
    "preparing": "PrEP",
}


class Arbiter(Screen):
    """The procedures' state: which screen is up and what it holds."""

    def __init__(self, clock, claims):
        self.clock = clock
        self.claims = claims
        self.reset()

    def reset(self):
        """No screen up and nothing chosen (a new game)."""
        self.screen = IDLE
        self.choice = 0
        self.side = engine.NOBODY
        self.unit = 0
        self.amount_ms = 0
        self.moves = 0
        self.message = ""
        self.code = ""
        self.message_until = 0
        self.changed = True  # the screen must be drawn again
        self.new_game_wanted = False  # confirmed on the NEW_GAME screen: the app starts one

    def active(self):
        return self.screen != IDLE

    def _show(self, screen):
        self.screen = screen
        self.changed = True

    def refuse(self, code, now):
        """Show why a procedure was refused, for a few seconds."""
        self.code = code
        self.message = REFUSAL_TEXT.get(code, "no")
        self.message_until = ticks_add(now, MESSAGE_MS)
        self._show(MESSAGE)

    def on_long_press(self, key, now):
        """A key held for 2 s while the clock is paused starts a procedure (on a
        message too: the key clears it and does its job)."""
        if self.screen == MESSAGE:
            self._show(IDLE)
        if self.screen == ADJUST and key == KEY_PLUS:
            self._bonus(now)
            return
        if self.screen == RULING and key == KEY_PLUS:
            self._open_claim(now)  # the other player claims in turn
            return
        if self.screen == ADJUST and key == KEY_SET:
            self._show(NEW_GAME)  # hold set twice: the new-game question
            return
        if self.clock.state != engine.PAUSED or self.screen != IDLE:
            return
        if key == KEY_PLUS:
            if self.claims.pending():
                self.choice = 0  # back to the ruling on the claim already made
                self._show(RULING)
                return
            self._open_claim(now)
        elif key == KEY_SET:
            self.side = engine.NOBODY
            self.unit = 0
            self.amount_ms = 0
            self._show(ADJUST)
        elif key == KEY_MINUS:
            if self.clock.white == engine.NOBODY:
                self.refuse("no-game", now)
                return
            self.moves = self.clock.moves()
            self._show(MOVES)

    def on_press(self, key, now):
        """A short press (or a lever) while a screen is up; True if it was used."""
        screen = self.screen
        if screen == IDLE:
            return False
        if screen == MESSAGE:
            if key == KEY_SET and self.code == "claim-postponed":
                self.choice = 0  # the later ruling on the postponed claim (G.5 b)
                self._show(RULING)
                return True
            self._show(IDLE)  # any other key clears the message and acts as usual
            return False
        if screen == NEW_GAME:
            if key == KEY_SET:
                self.claims.note(now, "new-game", self.clock.moves())
                self.new_game_wanted = True
            self._show(IDLE)  # any other key: no new game
            return True
        if screen == RULING:
            self._ruling_key(key, now)
        elif screen == ADJUST:
            self._adjust_key(key, now)
        elif screen == MOVES:
            if key == KEY_PLUS:
                self.moves += 1
            elif key == KEY_MINUS and self.moves > 0:
                self.moves -= 1
            elif key == KEY_PLAY or key == KEY_SET:
                self._set_moves(key == KEY_SET, now)
                return True
        self.changed = True
        return True

    def _open_claim(self, now):
        refused = self.claims.open(now)
        if refused is not None:
            self.refuse(refused, now)
        elif self.claims.state == "open":
            self.choice = 0
            self._show(RULING)
        else:
            self._show(IDLE)  # granted at once (2015, 10.4)

    def _offers(self):
        """The time each side is offered by the move-counter correction shown."""
        from firmware import move_count  # loaded while the counter's screen is up

        clock = self.clock
        offer = move_count.period_time_offer
        return offer(clock, 0, self.moves), offer(clock, 1, self.moves)

    def _set_moves(self, with_time, now):
        """Apply the corrected move counter."""
        self._apply_moves(with_time, now)

    def _apply_moves(self, with_time, now):
        """Apply the corrected move counter; ``with_time``: also the offered period times."""
        clock = self.clock
        claims = self.claims
        offers = self._offers() if with_time else (0, 0)
        for index in (0, 1):  # all or nothing: each offer checked before any applies
            side = clock.sides[index]
            offer = offers[index]
            fallen = side.flagged and not side.can_flag
            after = (0 if fallen else clock.shown_ms(index, now)) + offer
            if (offer < 0 and (fallen or after < 0)) or (offer > 0 and after > _MAX_SHOWN_MS):
                self.refuse("bad-time", now)
                return
        if not clock.set_moves(self.moves):  # Black to move cannot have -1 moves
            self._show(IDLE)
            return
        claims.note(now, "moves", self.moves)
        for index in (0, 1):
            if offers[index]:
                claims.add_time(index, offers[index], now)
        self._show(IDLE)

    def _ruling_key(self, key, now):
        claims = self.claims
        offered = claims_module.outcomes(claims.quickplay, claims.state == "postponed")
        if key == KEY_PLUS:
            self.choice = (self.choice + 1) % len(offered)
        elif key == KEY_MINUS:
            self.choice = (self.choice - 1) % len(offered)
        elif key == KEY_SET:
            refused = claims.decide(offered[self.choice], now)
            if refused is not None:
                self.refuse(refused, now)
            else:
                self._show(IDLE)
        elif key == KEY_PLAY:
            self._show(IDLE)  # the claim stays open; hold plus to come back

    def _adjust_key(self, key, now):
        if key == LEVER_LEFT or key == LEVER_RIGHT:
            self.side = key
        elif key == KEY_PLUS:
            self.amount_ms += UNITS_MS[self.unit]
        elif key == KEY_MINUS:
            self.amount_ms -= UNITS_MS[self.unit]
        elif key == KEY_SET:
            self.unit = (self.unit + 1) % len(UNITS_MS)
        elif key == KEY_PLAY:
            if self.side == engine.NOBODY or self.amount_ms == 0:
                self._show(IDLE)
                return
            refused = self.claims.add_time(self.side, self.amount_ms, now)
            if refused is not None:
                self.refuse(refused, now)
            else:
                self._show(IDLE)

    def _bonus(self, now):
        """The quick penalty or bonus (7.5, 12.9), to the side chosen with its lever, in
        one long press of plus: the event's amount for the game's class (by default
        the edition's, ``claims.PENALTY_DEFAULT_MS``)."""
        if self.side == engine.NOBODY:
            return
        refused = self.claims.add_time(self.side, self.claims.penalty(), now)
        if refused is not None:
            self.refuse(refused, now)
        else:
            self._show(IDLE)

    def lever_while_paused(self, index, now):
        """A lever moved while the clock is paused: nothing changes, the display says so."""
        self.claims.note(now, "lever-while-paused", index)
        self.refuse("lever-left" if index == LEVER_LEFT else "lever-right", now)

    def deadline(self):
        """The tick a message screen times out at, or None (the others wait for keys)."""
        return self.message_until if self.screen == MESSAGE else None

    def tick(self, now):
        """Let a message screen time out."""
        if self.screen == MESSAGE and ticks_diff(now, self.message_until) >= 0:
            self._show(IDLE)

    def draw(self, frame, index):
        """Draw side ``index`` of the current screen into ``frame``."""
        screen = self.screen
        if screen == MESSAGE:
            both = index == 1 or self.code.startswith("lever")
            frames.render_text(frame, self.message if both else "no")
        elif screen == RULING:
            claims = self.claims
            offered = claims_module.outcomes(claims.quickplay, claims.state == "postponed")
            if index == claims.claimant:
                frames.render_text(frame, OUTCOME_TEXT[offered[self.choice]])
            else:
                frames.render_text(frame, "CLA" if claims.state == "open" else "PoSt")
        elif screen == ADJUST:
            amount = self.amount_ms
            fine = self.unit >= _FIRST_FINE_UNIT  # below a second: S.mmm, sign on the left
            if index == 0:
                side = "-" if self.side == engine.NOBODY else "Lr"[self.side]
                sign = "-" if fine and amount < 0 else " "
                frames.render_text(frame, "A" + side + sign + str(self.unit + 1))
            elif fine:
                frames.render_fraction(frame, amount if amount >= 0 else -amount)
            else:
                frames.render_time(frame, amount if amount >= 0 else -amount)
                if amount < 0:
                    frame[0] = frames.TEXT_SEGMENTS[frames.TEXT_CHARS.find("-")]
        elif screen == NEW_GAME:
            frames.render_text(frame, "nEU" if index == 0 else "GAnE")
        elif screen == MOVES:
            if index == 0:
                offers = self._offers()
                frames.render_text(frame, "n  t" if offers[0] or offers[1] else "n")
            else:
                frames.render_number(frame, self.moves)
