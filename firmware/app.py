"""The clock application: turns input events into clock actions and frames.

``step(now)`` is one pass of the main loop: it acts on the input events that
the interrupt handlers stored, in the order of their first contact edges and
each at its own tick, lets a flag fall when its time has come, and redraws
both displays when what they show changes (a tick on which nothing changes
only steps the buzzer, the battery, the journal and the displays' restore:
``hal.display_restore``). Each step also asks its parts when each next needs a
step and hands the answers to ``firmware.deadlines``, which tells the board's
ticker the earliest: the board sleeps until then or until an input. During a
game it allocates nothing.

Levers and the play/pause key act at their first edge; ``set``, ``plus``
and ``minus`` act as short presses (at release) or long presses (held 2 s),
as ``hardware.keys`` classifies them from their edges: in the setup state
and after the game for the setup menus (``firmware.menu_gate``), during a
game only for the arbiter's procedures while the clock is paused
(``firmware.arbiter``). While the clock runs they do nothing.

A menu key that can act holds back the inputs that came after it until its
press is classified; they then act at their own edges' ticks, so a quick
``set`` then ``play`` (or ``set`` then a lever) is taken in that order. The
clock is not running while a key can act, so nothing is charged meanwhile,
and a message on the displays waits for the key (``_act_until``). So what
the clock does depends only on the edges' ticks, never on how often the
main loop runs.
"""

from micropython import const

from firmware import claims as claims_module
from firmware import engine, frames
from firmware import menu_gate as menu_module
from firmware.arbiter import Arbiter
from firmware.deadlines import Deadlines, earlier
from firmware.input_codes import KEY_PLAY, KEY_SET, LEVER_LEFT, LEVER_RIGHT, PENDING, SHORT
from firmware.sound import Sound
from firmware.tickmath import ticks_add, ticks_diff

_FIRST_KEY = KEY_SET
_FULL_MAX_MS = const(60_000)  # a full step at least once a minute, whatever the parts say
_FRAME_SIZE = const(5)  # frames.FRAME_SIZE
_TICKS_MAX = const((1 << 30) - 1)  # firmware.tickmath's
_TICKS_HALF = const(1 << 29)
_RUNNING = const(1)  # engine.RUNNING


class App:
    """The clock as a board runs it: engine, claims, keys and displays."""

    def __init__(
        self,
        hardware,
        left_control,
        right_control=None,
        quickplay="off",
        edition="appendix-g",
        penalty_ms=None,
    ):
        self.hardware = hardware
        self.clock = engine.Clock(left_control, right_control)
        self.claims = claims_module.Claims(self.clock, quickplay, edition, penalty_ms)
        self.arbiter = Arbiter(self.clock, self.claims)  # the arbiter's procedures
        self.frame = bytearray(frames.FRAME_SIZE)
        self.mover_frame = bytearray(frames.FRAME_SIZE)  # the running side's, as drawn last
        self.menu = menu_module.Menu(self)  # the setup menus (setup state only)
        self.settings = None  # the Settings in force (``keep_settings``, ``apply_settings``)
        self.sound = Sound()  # the buzzer at a flag and in the last 10 s
        self.battery_mark = None  # bAtt Lo while the clock stands (loaded when first shown)
        self.notices = None  # boot messages (firmware.notices), loaded only if there are any
        self.journal = None  # the game journal (firmware.journal): ``attach_journal``
        self.hall = None  # the link to the hall's broker (hal.hall_link): ``join_hall``
        self.waiting_key = -1  # a menu key whose press is not classified yet
        self.waiting_slot = 0  # its slot in the inputs' ring
        self.drawn = -1  # the clock's change count the times were drawn at (-1: draw them)
        self.redraw_at = None  # the tick they may change at (None: not while it stands)
        self.mark_at = None  # the tick the running mark turns at (None: not while it stands)
        self.screen_shown = False  # a menu's or arbiter's screen up, both displays took it
        self.deadlines = Deadlines(hardware.ticker)  # when it steps next (firmware.deadlines)
        # A board whose levers wait for an erase prepares the journal's ring before a game
        # may start (hal.journal_store): the blocks still to add (the ``PrEP`` screen), the
        # count last drawn, and the first step after the last block: a lever stamped at or
        # before it may have waited for that erase (its handler ran once the erase was
        # over, before the main loop's next step), so it starts no game (``_refused``).
        self.preparing = 0
        self.preparing_drawn = 0
        self.ready_at = None

    def apply_settings(self, settings):
        """Put ``settings`` in force: a new game with its controls and event rules
        on the same clock, claims and arbiter (the setup menus; the boot path may
        use it too). The event log goes on across games."""
        left, right = settings.controls()
        self.deadlines.at_once()
        self.claims.configure(settings.quickplay, settings.edition, settings.penalty_ms)
        self.clock.configure(left, right)
        self.arbiter.reset()
        self.settings = settings
        for display in self.hardware.displays:
            display.dim(settings.brightness)  # the displays' duty (docs/build.md)

    def keep_settings(self, settings):
        """Keep ``settings`` as the ones in force, the game as it is (boot, and the
        menus when they first need settings to edit)."""
        self.settings = settings

    def attach_journal(self, journal):
        """Journal the game through ``journal`` from the next step on (boot)."""
        self.journal = journal

    def join_hall(self, link):
        """The board joined a hall through ``link`` (boot; None: it works offline). The
        main loop gives the link its turns between steps (hal.runtime.loop)."""
        self.hall = link

    # --- the board's services the screens and the hall's message may use ------------

    def storage(self):
        """The board's flash: the settings, the user slots, the hall file."""
        return self.hardware.storage

    def has_network(self):
        """True on a board with a network (the menu shows the hall's board number)."""
        return self.hardware.network

    def battery(self):
        """The board's battery sense (``is_low``, ``next_reading``)."""
        return self.hardware.battery

    def renumber_hall(self, board, user):
        """The hall file's board number changed: the link, if any, joins under it."""
        if self.hall is not None:
            self.hall.renumber(board, user)

    def allow_rest(self, allowed):
        """Whether the app may rest over ticks that change nothing (``firmware.deadlines``);
        without it every tick is a step (the simulator's every-tick lane, the bench)."""
        self.deadlines.allow(allowed)

    def new_game(self):
        """A new game with the settings in force (after the game, or the arbiter's
        new-game sequence while paused: docs/menus.md)."""
        if self.settings is not None:
            self.apply_settings(self.settings)
        else:
            self.clock.new_game()
            self.claims.new_game()
            self.arbiter.reset()

    def step(self, now):
        """One pass of the main loop at tick ``now``.

        On a tick with nothing to do (no input, no screen up, the times on the
        displays still what they would show: ``times_hold``) no flag can fall
        and the running side is the same, so only the buzzer, the battery and
        the journal are stepped, and the running mark turned if it is due. A wake
        before the next full step's deadline is the mark's, the battery's or the
        displays' restore's (``_light_step``). A display that did not take its frame
        is drawn afresh on the next tick."""
        # Each function a wake runs keeps its frame within MicroPython's 11 words, so
        # none is put on the heap (tests/test_heap_frames.py): the step is in parts.
        if self.deadlines.light(now) and self._light_step(now):
            return
        self._take_inputs_come(now)
        steady = self.times_hold(now)
        if not steady:
            self.clock.update(now)  # a flag falls at zero, where the times are redrawn
        if self.waiting_key < 0 and (not steady or self.menu.screens is not None):
            self._act_until(now)  # (a message waits for the key held on it)
        self._step_parts(now, steady)
        if not (steady and self.notices is None and not self.hardware.battery.is_low()):
            self.refresh(now)
        else:
            self._turn_mark(now)
        if not self.hardware.display_restore.update(now):
            self.drawn = -1  # a display lost its frame: drawn afresh on the next tick
            self.deadlines.at_once()
            return
        self.deadlines.plan(now, self._full_deadline(now), self._light_deadline(now))

    def _take_inputs_come(self, now):
        """The inputs of a full step: the ring rearmed, the ring's preparation followed
        while the clock stands, the inputs stored acted on, and ``ready_at`` let go
        once every press stamped up to it has been taken."""
        inputs = self.hardware.inputs
        inputs.rearm(now)
        if self.journal is not None and self.clock.state != _RUNNING:
            self._watch_preparation(self.journal, now)
        if self.waiting_key >= 0 or inputs.pending():
            self.take_inputs(now)
        ready = self.ready_at
        if ready is not None and ticks_diff(now, ready) > 0 and self.waiting_key < 0:
            if not inputs.pending():
                self.ready_at = None

    def _step_parts(self, now, steady):
        """The parts a full step steps: the buzzer, the running side's LEDs (unless
        the times hold), the battery, the boot messages, the journal."""
        hardware = self.hardware
        self.sound.update(self.clock, self.settings, now, hardware.buzzer)
        if not steady:
            hardware.leds.show(self.clock.running())
        hardware.battery.update(now)
        notices = self.notices
        if notices is not None:
            notices.tick(now)
            if not notices.active and not notices.changed:
                self.notices = None  # all shown and the times drawn again
        if self.journal is not None:
            self.journal.tick(now)  # allocation-free while a clock runs

    def input_waits(self):
        """True if an input waits that a step would act on now: an edge in the ring,
        unless a menu key holds the later ones back until its press is classified
        (then the next tick's step classifies it: ``_full_deadline``)."""
        return self.waiting_key < 0 and self.hardware.inputs.pending()

    def _light_step(self, now):
        """At a step before the next full step's deadline with no input come and the
        times as drawn, take the battery's reading, turn the running mark and restore
        the displays if any is due, and rest again: the last full step found every
        other part quiet up to that deadline (``_full_deadline``), and only an input
        or a change of the clock (a flag falls at ``redraw_at``, itself a part) ends
        that. A reading that finds the pack low ends it too: the step goes on as a
        full one (False). A write that failed is sent again by a full step at the
        next tick."""
        if self.drawn != self.clock.changes or self.hardware.inputs.pending():
            return False
        battery = self.hardware.battery
        due = battery.next_reading()
        if due is not None and ticks_diff(now, due) >= 0:
            battery.update(now)
            if battery.is_low():
                return False
        self._turn_mark(now)
        if not self.hardware.display_restore.update(now):
            self.drawn = -1
        if self.drawn != self.clock.changes:  # a write failed: sent again on the next tick
            self.deadlines.at_once()
        else:
            self.deadlines.rest_light(now, self._light_deadline(now))
        return True

    def _light_deadline(self, now):
        """The deadline of the parts a light step serves: the running mark's turn
        (``mark_at``), the battery's next reading (None: no battery sense) and the
        displays' next restore (``hal.display_restore``)."""
        due = earlier(self.mark_at, self.hardware.battery.next_reading())
        return earlier(due, self.hardware.display_restore.next_due(now))

    def _watch_preparation(self, journal, now):
        """Follow the ring's preparation before a game may start (``preparing``): the
        times are drawn again when it ends, or the ``PrEP`` screen when it begins. The
        store adds blocks only while the clock stands (``Journal.tick``), so the
        count cannot change while it runs, and a running clock's steps leave it."""
        left = journal.start_wait()
        if left != self.preparing:
            if left == 0:
                self.ready_at = now
            self.preparing = left
            self.drawn = -1

    def _refused(self, index, tick):
        """Whether lever ``index``, closed at ``tick``, would start a game while the ring
        is prepared, or in an erase of it; if so it is refused on the displays."""
        if self.clock.state != engine.SETUP or index > LEVER_RIGHT:
            return False
        ready = self.ready_at
        if self.preparing or (ready is not None and ticks_diff(tick, ready) <= 0):
            self.arbiter.refuse("preparing", tick)
            return True
        return False

    def _full_deadline(self, now):
        """The first tick at which a full step may do something, the earliest of the
        parts' deadlines but the light step's (``_light_deadline``); ``now`` (the next
        tick) while a part is busy: a key is held or settling, a boot message is up,
        the buzzer sounds, the battery is low, or the times are not as drawn and no
        screen stands over them (one drawn and taken by both displays, the clock not
        running). What comes by itself is each part's own: a screen's (a menu's
        message or blink, an arbiter's message), the times' next change
        (``redraw_at``, a flag included), the journal's entry or ring block, the
        countdown of the warning beeps, a display's own (``deadline``). At most
        ``_FULL_MAX_MS`` ahead."""
        if self._busy():
            return now
        screen = self.menu.deadline(now)  # (screens kept while the times show: None)
        if not self.times_hold(now):
            if not self.screen_shown or self.clock.state == _RUNNING:
                return now
            screen = earlier(screen, self.arbiter.deadline())
        wait = _FULL_MAX_MS
        due = self.redraw_at
        if due is not None:
            wait = min(wait, ticks_diff(due, now))
        if self.journal is not None:
            wait = self.journal.quiet_ms(now, wait)
        wait = self.sound.quiet_ms(self.clock, self.settings, now, wait)
        due = earlier(ticks_add(now, wait) if wait > 0 else now, screen)
        screen = self.hardware.displays
        return earlier(earlier(due, screen[0].deadline()), screen[1].deadline())

    def _busy(self):
        """True while a part needs every tick: a key held or settling, a boot message
        up, the buzzer sounding, the battery low."""
        hardware = self.hardware
        inputs = hardware.inputs
        return (
            self.waiting_key >= 0
            or self.notices is not None
            or inputs.pending()
            or inputs.settling()
            or hardware.buzzer.busy()
            or hardware.battery.is_low()
        )

    def notice(self, text):
        """Queue a boot message (``firmware.notices``, loaded for them)."""
        self.deadlines.at_once()
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
        while self._key_classified(now):
            index = inputs.pop()
            if index < 0:
                return
            self._take_input(index, inputs.popped_tick())

    def _key_classified(self, now):
        """False while the menu key waited on is neither short nor long yet (the later
        inputs wait for it); else True, the key acted on if one waited."""
        key = self.waiting_key
        if key < 0:
            return True
        keys = self.hardware.keys
        kind = keys.classify(key, self.waiting_slot, now)
        if kind == PENDING:
            return False
        self.waiting_key = -1
        self.on_key(key, kind == SHORT, keys.classified_tick())
        return True

    def _take_input(self, index, tick):
        """Input ``index`` just taken from the ring, its contact closed at ``tick``."""
        self._act_until(tick)
        if index < _FIRST_KEY:
            self.on_input(index, tick)
        elif self.keys_act():
            if self.notices is not None:
                self.notices.dismiss()  # and the key does its job once classified
            self.waiting_key = index
            self.waiting_slot = self.hardware.inputs.popped_slot()

    def keys_act(self):
        """Whether ``set``, ``plus`` and ``minus`` can do anything now: not while the
        clock runs (unless a screen is up), so no key touched in play changes a thing."""
        return self.clock.state != engine.RUNNING or self.menu.active() or self.arbiter.active()

    def on_key(self, key, short, tick):
        """Act on a short or long press of a menu key, classified at ``tick``."""
        self.drawn = -1
        handler = self.key_handler()
        if short:
            handler.on_press(key, tick)
        else:
            handler.on_long_press(key, tick)
        if self.arbiter.new_game_wanted:
            self.new_game()

    def on_input(self, index, tick):
        """Act on lever or play ``index`` whose contact closed at ``tick``."""
        self.drawn = -1
        clock = self.clock
        if self.notices is not None:
            self.notices.dismiss()  # any press clears the boot messages
        if self.menu.active() and self.menu.on_press(index, tick):
            return
        if self.arbiter.on_press(index, tick):
            return
        if self._refused(index, tick):
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
        """Redraw both displays for ``now``: the first screen that is up over the times
        (``_screen_up``), only when it changed; else the times, unless they still hold
        (``times_hold``)."""
        displays = self.hardware.displays
        if not (displays[0].took_last() and displays[1].took_last()):
            # a display did not take its last frame (unplugged, say): whatever is up
            # is drawn again until both have it, so one that answers again shows it
            self._draw_again()
        if self._screen_up(now):
            self.drawn = -1  # the times are drawn afresh when it goes
            # a menu's or an arbiter's screen rests until its own deadline; PrEP steps at
            # every tick, so its end (``ready_at``) is seen within one
            self.screen_shown = (
                not self.preparing and displays[0].took_last() and displays[1].took_last()
            )
            return
        self.screen_shown = False
        if self.times_hold(now):
            self._turn_mark(now)
            return
        tenths = self.settings is not None and self.settings.tenths
        self._draw_side(0, now, tenths)
        self._draw_side(1, now, tenths)
        wait = frames.times_ms(self.clock, now, tenths)
        self.redraw_at = None if wait < 0 else ticks_add(now, wait)
        wait = frames.mark_ms(self.clock, now)
        self.mark_at = None if wait < 0 else ticks_add(now, wait)
        # A display that did not take its frame is tried again on the next tick.
        displays = self.hardware.displays
        taken = displays[0].took_last() and displays[1].took_last()
        self.drawn = self.clock.changes if taken else -1

    def _draw_side(self, index, now, tenths):
        """Draw side ``index``'s time and marks; the running side's frame is kept for
        the mark's turns (``_turn_mark``)."""
        frames.render_side(self.frame, self.clock, index, now, tenths)
        if self.claims.claimant == index:  # an open or postponed claim: digit 3's point
            self.frame[2] |= frames.DOT
        self.hardware.displays[index].show_frame(self.frame)
        if index == self.clock.mover:
            self._keep_mover_frame()

    def _keep_mover_frame(self):
        frame = self.frame
        kept = self.mover_frame
        byte = 0
        while byte < _FRAME_SIZE:
            kept[byte] = frame[byte]
            byte += 1

    def _draw_again(self):
        """Whatever may be up over the times is drawn again at this refresh."""
        self.menu.draw_again()
        self.arbiter.draw_again()
        self.preparing_drawn = 0
        if self.notices is not None:
            self.notices.draw_again()

    def _screen_up(self, now):
        """Show the first of what goes over the times that is up, if it changed since
        drawn: the boot messages, a menu, an arbiter's screen, the ring's preparation
        (``PrEP`` and its blocks), the low battery's mark (only while the clock stands).
        True if one is up; each one up covers those after it."""
        if self._notices_up() or self._menu_up(now) or self._arbiter_up():
            self.preparing_drawn = 0
            return True
        if self._preparing_up():
            return True
        self.preparing_drawn = 0
        return self._battery_up(now)

    def _show_both(self):
        displays = self.hardware.displays
        displays[0].show_frame(self.frame)
        displays[1].show_frame(self.frame)

    def _notices_up(self):
        notices = self.notices
        if notices is None:
            return False
        if notices.active:
            if notices.take_change():
                notices.draw(self.frame)
                self._show_both()
            return True
        if notices.take_change():
            self._draw_again()  # what the messages covered
        return False

    def _menu_up(self, now):
        menu = self.menu
        if not menu.active():
            return False
        if menu.take_change():
            displays = self.hardware.displays
            menu.draw(self.frame, 0, now)
            displays[0].show_frame(self.frame)
            menu.draw(self.frame, 1, now)
            displays[1].show_frame(self.frame)
        return True

    def _arbiter_up(self):
        arbiter = self.arbiter
        if not arbiter.active():
            return False
        if arbiter.take_change():
            displays = self.hardware.displays
            arbiter.draw(self.frame, 0)
            displays[0].show_frame(self.frame)
            arbiter.draw(self.frame, 1)
            displays[1].show_frame(self.frame)
        return True

    def _preparing_up(self):
        """``PrEP`` and the count of the ring's blocks still to prepare, while any is."""
        left = self.preparing
        if not left:
            return False
        if self.preparing_drawn != left:
            displays = self.hardware.displays
            frames.render_text(self.frame, "PrEP")
            displays[0].show_frame(self.frame)
            frames.render_number(self.frame, left)
            displays[1].show_frame(self.frame)
        self.preparing_drawn = left
        return True

    def _battery_up(self, now):
        """The low battery's mark, while the clock stands (never over a flag's display)."""
        mark = self.battery_mark
        standing = self._standing()
        low = self.hardware.battery.is_low()
        if mark is None and low and standing:  # first shown: loaded while nothing is timed
            from firmware.battery_mark import BatteryMark

            mark = self.battery_mark = BatteryMark()
        if mark is not None and mark.showing(standing, low, now):
            self._show_pair(mark.frames)
            return True
        return False

    def _standing(self):
        """Before the start or paused."""
        state = self.clock.state
        return state == engine.SETUP or state == engine.PAUSED

    def _show_pair(self, pair):
        displays = self.hardware.displays
        displays[0].show_frame(pair[0])
        displays[1].show_frame(pair[1])

    def _turn_mark(self, now):
        """The times holding (``times_hold``), turn the running mark if it is due: the
        running side's frame as drawn last, its mark as at ``now``."""
        due = self.mark_at
        # ticks_diff(now, due) < 0, without its call: this runs at every step
        if due is None or (now - due) & _TICKS_MAX >= _TICKS_HALF:
            return
        frame = self.mover_frame
        due = frames.turn_mark(frame, self.clock, now)
        self.mark_at = ticks_add(now, due)
        display = self.hardware.displays[self.clock.mover]
        display.show_frame(frame)
        if not display.took_last():
            self.drawn = -1  # drawn afresh, both sides, on the next tick

    def times_hold(self, now):
        """True if the times were the last thing drawn, both displays took them,
        and nothing they show can have changed since: no input acted (``on_input``
        and ``on_key`` forget the drawing), the clock has not changed since
        (``Clock.changes``: settings, corrections and a new game count there), and
        ``frames.times_ms`` has not run out at ``now``; the running mark turns by
        itself meanwhile (``mark_at``, ``_turn_mark``). Only inputs start, stop
        or switch the clock; by itself it changes only where a flag falls, at
        zero, where the times are drawn again."""
        due = self.redraw_at
        # ticks_diff(now, due) < 0, without its call: this runs at every step
        return self.drawn == self.clock.changes and (
            due is None or (now - due) & _TICKS_MAX >= _TICKS_HALF
        )
