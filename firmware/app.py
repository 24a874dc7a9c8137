"""The clock application: turns input events into clock actions and frames.

``step(now)`` is one pass of the main loop: it acts on the input events that
the interrupt handlers stored, in the order of their first contact edges and
each at its own tick, lets a flag fall when its time has come, and redraws
both displays. During a game it allocates nothing. Levers and the
play/pause key act at their first edge; ``set``, ``plus`` and ``minus`` act
as short presses (at release) or long presses (held 2 s), as
``hardware.keys`` classifies them from their edges: in the setup state and
after the game for the setup menus (``firmware.menu_gate``), during a game only
for the arbiter's procedures while the clock is paused
(``firmware.arbiter``). While the clock runs they do nothing.

A menu key that can act holds back the inputs that came after it until its
press is classified; they then act at their own edges' ticks, so a quick
``set`` then ``play`` (or ``set`` then a lever) is taken in that order. The
clock is not running while a key can act, so nothing is charged meanwhile,
and a message on the displays waits for the key (``_act_until``). So what
the clock does depends only on the edges' ticks, never on how often the
main loop runs.
"""

import firmware
from firmware import arbiter as arbiter_module
from firmware import claims as claims_module
from firmware import engine, frames, lifetime
from firmware import menu_gate as menu_module
from firmware.battery_mark import BatteryMark
from firmware.input_codes import KEY_PLAY, KEY_SET, LEVER_LEFT, LEVER_RIGHT, PENDING, SHORT
from firmware.sound import Sound

_FIRST_KEY = KEY_SET


class App:
    """The clock as a board runs it: engine, claims, keys and displays."""

    def __init__(
        self,
        hardware,
        left_control,
        right_control=None,
        quickplay="off",
        edition="appendix-g",
        penalty_ms=claims_module.PENALTY_DEFAULT_MS,
    ):
        self.hardware = hardware
        self.clock = engine.Clock(left_control, right_control)
        self.claims = claims_module.Claims(self.clock, quickplay, edition, penalty_ms)
        self.arbiter = arbiter_module.Arbiter(self.clock, self.claims)
        self.frame = bytearray(frames.FRAME_SIZE)
        self.menu = menu_module.Menu(self)  # the setup menus (setup state only)
        self.settings = None  # the Settings in force (hal.boot puts them here)
        self.sound = Sound()  # the buzzer at a flag and in the last 10 s
        self.battery_mark = BatteryMark()  # bAtt Lo while the clock stands
        self.notices = None  # boot messages (firmware.notices), loaded only if there are any
        self.journal = None  # the game journal (firmware.journal), attached at boot
        self.waiting_key = -1  # a menu key whose press is not classified yet
        self.waiting_slot = 0  # its slot in the inputs' ring

    def apply_settings(self, settings):
        """Put ``settings`` in force: a new game on fresh clocks with its controls
        and event rules (the setup menus; the boot path may use it too)."""
        left, right = settings.controls()
        log = self.claims.log
        self.clock = engine.Clock(left, right)
        self.claims = claims_module.Claims(
            self.clock, settings.quickplay, settings.edition, settings.penalty_ms
        )
        self.claims.log = log  # the event log goes on across games
        self.arbiter = arbiter_module.Arbiter(self.clock, self.claims)
        self.settings = settings

    def new_game(self):
        """A new game with the settings in force (after the game, or the arbiter's
        new-game sequence while paused: docs/menus.md)."""
        if self.settings is not None:
            self.apply_settings(self.settings)
        else:
            self.clock.new_game()
            self.claims.new_game()
            self.arbiter = arbiter_module.Arbiter(self.clock, self.claims)

    def step(self, now):
        """One pass of the main loop at tick ``now``."""
        self.hardware.inputs.rearm(now)
        self.take_inputs(now)
        self.clock.update(now)
        if self.waiting_key < 0:  # a message waits for the key held on it
            self._act_until(now)
        hardware = self.hardware
        self.sound.update(self.clock, self.settings, now, hardware.buzzer)
        hardware.leds.show(self.clock.running())
        hardware.battery.update(now)
        notices = self.notices
        if notices is not None:
            notices.tick(now)
            if not notices.active and not notices.changed:
                self.notices = None  # all shown and the times drawn again: let them go
                lifetime.let_go(firmware, "notices")
        if self.journal is not None:
            self.journal.tick(now)  # allocation-free while a clock runs
        self.refresh(now)

    def notice(self, text):
        """Queue a boot message (``firmware.notices``, loaded for them)."""
        if self.notices is None:
            from firmware.notices import Notices

            self.notices = Notices()
        self.notices.add(text)

    def _act_until(self, tick):
        """Let the screens' messages time out up to ``tick``."""
        self.arbiter.tick(tick)
        self.menu.tick(tick)

    def take_inputs(self, now):
        """Act on the stored inputs in the order of their first contact edges: a menu
        key that can act holds back the later ones until it is short or long."""
        inputs = self.hardware.inputs
        keys = self.hardware.keys
        while True:
            key = self.waiting_key
            if key >= 0:
                kind = keys.classify(key, self.waiting_slot, now)
                if kind == PENDING:
                    return
                self.waiting_key = -1
                self.on_key(key, kind == SHORT, keys.tick)
            index = inputs.pop()
            if index < 0:
                return
            tick = inputs.popped_tick
            self._act_until(tick)
            if index < _FIRST_KEY:
                self.on_input(index, tick)
            elif self.keys_act():
                if self.notices is not None:
                    self.notices.dismiss()  # and the key does its job once classified
                self.waiting_key = index
                self.waiting_slot = inputs.popped_slot

    def keys_act(self):
        """Whether ``set``, ``plus`` and ``minus`` can do anything now: not while the
        clock runs (unless a screen is up), so no key touched in play changes a thing."""
        return self.clock.state != engine.RUNNING or self.menu.active() or self.arbiter.active()

    def on_key(self, key, short, tick):
        """Act on a short or long press of a menu key, classified at ``tick``."""
        handler = self.key_handler()
        if short:
            handler.on_press(key, tick)
        else:
            handler.on_long_press(key, tick)
        if self.arbiter.new_game_wanted:
            self.new_game()

    def on_input(self, index, tick):
        """Act on lever or play ``index`` whose contact closed at ``tick``."""
        clock = self.clock
        if self.notices is not None:
            self.notices.dismiss()  # any press clears the boot messages
        if self.menu.active() and self.menu.on_press(index, tick):
            return
        if self.arbiter.on_press(index, tick):
            return
        if index == LEVER_LEFT or index == LEVER_RIGHT:
            if clock.state == engine.PAUSED:
                self.arbiter.lever_while_paused(index, tick)
            else:
                clock.press(index, tick)
        elif index == KEY_PLAY:
            if clock.state == engine.RUNNING:
                clock.pause(tick)
            else:
                clock.resume(tick)

    def key_handler(self):
        """Who gets the keys' presses: the setup menus before the first lever
        press and after the game, the arbiter's procedures during a game."""
        state = self.clock.state
        if self.menu.active():
            return self.menu
        if (state == engine.SETUP or state == engine.OVER) and not self.arbiter.active():
            return self.menu
        return self.arbiter

    def refresh(self, now):
        """Redraw both displays for ``now``."""
        displays = self.hardware.displays
        frame = self.frame
        menu = self.menu
        notices = self.notices
        if notices is not None:
            if notices.changed:
                notices.changed = False
                if notices.active:
                    notices.draw(frame)
                    displays[0].show_frame(frame)
                    displays[1].show_frame(frame)
                    return
                menu.changed = True  # what the messages covered is drawn again
                self.arbiter.changed = True
            elif notices.active:
                return
        if menu.active():
            if menu.changed:
                menu.changed = False
                menu.draw(frame, 0, now)
                displays[0].show_frame(frame)
                menu.draw(frame, 1, now)
                displays[1].show_frame(frame)
            return
        arbiter = self.arbiter
        if arbiter.active():
            if not arbiter.changed:
                return
            arbiter.changed = False
            arbiter.draw(frame, 0)
            displays[0].show_frame(frame)
            arbiter.draw(frame, 1)
            displays[1].show_frame(frame)
            return
        mark = self.battery_mark
        state = self.clock.state  # before the start or paused: never over a flag's display
        standing = state == engine.SETUP or state == engine.PAUSED
        if mark.showing(standing, self.hardware.battery.low, now):
            displays[0].show_frame(mark.frames[0])
            displays[1].show_frame(mark.frames[1])
            return
        claimant = self.claims.claimant  # an open or postponed claim: digit 3's point
        settings = self.settings
        tenths = settings is not None and settings.tenths
        frames.render_side(frame, self.clock, 0, now, tenths)
        if claimant == 0:
            frame[2] |= frames.DOT
        displays[0].show_frame(frame)
        frames.render_side(frame, self.clock, 1, now, tenths)
        if claimant == 1:
            frame[2] |= frames.DOT
        displays[1].show_frame(frame)
