"""The setup menus' screens: presets, custom controls, user slots, settings.

Made by ``firmware.menu_gate`` when a key first reaches the menus, and dropped
when a game starts (the module stays loaded).

Reachable only before the first lever press (``state=setup``); after a game
is over, a long press of ``set`` starts a new game with the same settings,
and the menus are open again. During a game the keys go to the arbiter's
procedures (``firmware.arbiter``), never here, so an accidental key never
changes a setting. Every screen and sequence: docs/menus.md.

In the setup state a short press of ``set`` opens the menu: the left display
names the item, the right one shows its value. ``plus``/``minus`` step
through the items, ``set`` opens one, ``play`` leaves. The menu always
opens on its first item (``PrE``), so a documented key sequence does the
same whatever was done on the menu before. Inside an item,
``plus``/``minus`` choose, ``set`` confirms, ``play`` goes back. Every change
is checked before it is made (``Settings.apply``: ``timecontrol.parse`` and
``claims.check_setting``); a refused one shows ``Err`` and why, and the
previous setting stays. A locked clock (item ``LoC``) opens no menu; hold
``minus`` 2 s, then ``plus`` 2 s, to unlock it.

The menu allocates (it builds text and writes files); it never runs during
a game.
"""

from micropython import const

from firmware import claims, engine, files, frames
from firmware import settings as settings_module
from firmware.input_codes import KEY_MINUS, KEY_PLAY, KEY_PLUS, KEY_SET, LEVER_LEFT, LEVER_RIGHT
from firmware.menu import items, presets
from firmware.screen import Screen
from firmware.tickmath import ticks_add, ticks_diff

MESSAGE_MS = const(3000)
UNLOCK_MS = const(5000)  # the long press of plus must follow that of minus within this

IDLE = const(0)
TOP = const(1)
CHOOSE = const(2)
BUILD = const(3)
MESSAGE = const(4)


class MenuScreens(Screen):
    """The menu's state: the screen shown and what it holds."""

    def __init__(self, app):
        self.app = app
        self.screen = IDLE
        self.item = 0  # index in self.items
        self.items = items.HALL_ITEMS if app.has_network() else items.ITEMS
        self.choice = 0  # the value being chosen inside an item
        self.side = engine.NOBODY  # a control for one side only, or both
        self.builder = None
        self.texts = ("", "")
        self.back_to = IDLE  # where a message returns
        self.until = 0
        self.since = 0  # tick of the last key: the cursor blinks from there
        self.unlock_from = None  # tick of the long press of minus on a locked clock
        self.error = None  # the full text of the last refusal
        self.blink_phase = 0
        self.changed = True

    def active(self):
        return self.screen != IDLE

    def _show(self, screen):
        self.screen = screen
        self.changed = True

    def message(self, left, right, now, back_to=IDLE):
        self.texts = (left, right)
        self.until = ticks_add(now, MESSAGE_MS)
        self.back_to = back_to
        self._show(MESSAGE)

    def _settings(self):
        settings = self.app.settings
        if settings is None:
            settings = settings_module.Settings()
            self.app.keep_settings(settings)
        return settings

    # --- keys ------------------------------------------------------------

    def on_long_press(self, key, now):
        """A long press in the setup state or after the game (on a message too: the
        key clears it and does its job)."""
        self.since = now
        if self.screen == MESSAGE:
            self._show(self.back_to)
        state = self.app.clock.state
        if state == engine.OVER:
            if key == KEY_SET:
                self.app.new_game()  # same settings, back to the setup state
                self._show(IDLE)
            return
        if self.screen == BUILD:
            self.builder.on_long_press(key)
            if self.builder.cancelled:
                self._show(TOP)
            return
        if self.screen == CHOOSE and self.items[self.item] == "PrE" and key != KEY_SET:
            self._jump_group(1 if key == KEY_PLUS else -1)
            return
        if self.screen != IDLE or not self._settings().locked:
            return
        if key == KEY_MINUS:
            self.unlock_from = now
        elif key == KEY_PLUS and self.unlock_from is not None:
            if ticks_diff(now, self.unlock_from) <= UNLOCK_MS:
                self._commit({"locked": False}, now, "LoC", "oFF")
            self.unlock_from = None

    def on_press(self, key, now):
        """A short press of set/plus/minus, or a lever or play while a screen is up;
        True if the menu used it (the app then does nothing else with it)."""
        self.since = now
        screen = self.screen
        if screen == IDLE:
            if key != KEY_SET or self.app.clock.state != engine.SETUP:
                return False
            if self._settings().locked:
                self.message("LoC", "on", now)
            else:
                self.item = 0  # always on PrE: every documented sequence starts here
                self._show(TOP)
            return True
        self.changed = True
        if screen == MESSAGE:
            self._show(self.back_to)
            # a lever or play that ends a message back in the setup state acts as usual
            return key >= KEY_SET or self.back_to != IDLE
        if screen == TOP:
            self._top_key(key, now)
        elif screen == CHOOSE:
            self._choose_key(key, now)
        elif screen == BUILD:
            builder = self.builder
            builder.on_key(key)
            if builder.done:
                self._finish_build(now)
        return True

    def _top_key(self, key, now):
        if key == KEY_PLUS:
            self.item = (self.item + 1) % len(self.items)
        elif key == KEY_MINUS:
            self.item = (self.item - 1) % len(self.items)
        elif key == KEY_PLAY:
            self._show(IDLE)
        elif key == KEY_SET or key == LEVER_LEFT or key == LEVER_RIGHT:
            self._open(self.items[self.item], key, now)

    def _open(self, name, key, now):
        settings = self._settings()
        if name in items.BUILDERS:
            self.side = key if key != KEY_SET else engine.NOBODY
            self.builder = items.BUILDERS[name]()
            self._show(BUILD)
            return
        if key != KEY_SET:
            return  # a lever chooses a side only for a control
        if name == items.BOARD_ITEM:
            number = self._board_number()
            if number is None:
                self.message(name, "nonE", now, TOP)  # no hall file on this clock
                return
            self.choice = number
            self._show(CHOOSE)
            return
        if name == "CAt":
            self.message(
                items.class_text(settings.control_left, settings.edition),
                items.class_text(settings.control_right, settings.edition),
                now,
                TOP,
            )
            return
        if name == "PrE":
            self.choice = items.preset_of(settings) or 1
        elif name == "LoAd" or name == "SAvE":
            self.choice = 1
        elif name == "APPG":
            self.choice = claims.QUICKPLAY.index(settings.quickplay)
        elif name == "Ed":
            self.choice = claims.EDITIONS.index(settings.edition)
        elif name == "PEn":
            self.choice = max(items.penalty_choice(settings), 0)
        elif name == "brIt":
            self.choice = settings.brightness
        else:
            self.choice = 1 if getattr(settings, items.SWITCHES[name]) else 0
        self._show(CHOOSE)

    def _choose_key(self, key, now):
        name = self.items[self.item]
        count, first = items.choices(name)
        if key == KEY_PLUS:
            self.choice = (self.choice - first + 1) % count + first
        elif key == KEY_MINUS:
            self.choice = (self.choice - first - 1) % count + first
        elif key == KEY_PLAY:
            self._show(TOP)
        elif key == KEY_SET:
            self._confirm(name, now)
        elif name == "PrE":  # a lever: the next group to the right, the one before to the left
            self._jump_group(1 if key == LEVER_RIGHT else -1)

    def _jump_group(self, direction):
        number = self.choice
        groups = items.PRESET_GROUPS
        if direction > 0:
            later = [start for start in groups if start > number]
            self.choice = later[0] if later else groups[0]
        else:
            earlier = [start for start in groups if start < number]
            self.choice = earlier[-1] if earlier else groups[-1]
        self.changed = True

    # --- changes ---------------------------------------------------------

    def _confirm(self, name, now):
        choice = self.choice
        if name == "PrE":
            _, label, left, right = presets.get(choice)
            self._commit(
                {"control_left": left, "control_right": right},
                now,
                items.class_text(left, self._settings().edition),
                label,
            )
        elif name == "LoAd":
            slot = self._slots().get(str(choice))
            if slot is None:
                self.message("Ld %d" % choice, "nonE", now, CHOOSE)
                return
            self._commit(
                slot,
                now,
                items.class_text(slot["control_left"], self._settings().edition),
                "Ld %d" % choice,
            )
        elif name == "SAvE":
            self._save_slot(choice, now)
        elif name == items.BOARD_ITEM:
            self._save_board_number(choice, now)
        elif name == "APPG":
            self._commit({"quickplay": claims.QUICKPLAY[choice]}, now, "APPG", "SEt")
        elif name == "Ed":
            self._commit({"edition": claims.EDITIONS[choice]}, now, "Ed", "SEt")
        elif name == "PEn":
            text = items.penalty_text(items.PENALTY_CHOICES[choice], self._settings().edition)
            self._commit({"penalty_s": items.penalty_file(choice)}, now, "PEn", text)
        elif name == "brIt":
            self._commit({"brightness": choice}, now, name, "%4d" % choice)
        else:
            on = choice == 1
            self._commit({items.SWITCHES[name]: on}, now, name, "on" if on else "oFF")

    def _commit(self, changes, now, left, right, back_to=IDLE):
        """Apply ``changes`` to the settings in force, all or nothing, and store them."""
        current = self._settings()
        data = current.to_dict()
        for name in changes:
            data[name] = changes[name]
        fresh = settings_module.Settings()
        try:
            fresh.apply(data)
        except ValueError as error:
            self.error = str(error)
            self.message(
                "Err", items.error_code(self.error), now, back_to if back_to != IDLE else TOP
            )
            return False
        self.error = None
        self.app.apply_settings(fresh)
        try:
            self.app.storage().write_json(files.SETTINGS, fresh.to_dict())
        except OSError as error:
            self.error = "settings not stored: %s" % error
            self.message("Err", "FLSH", now)
            return True
        self.message(left, right, now)
        return True

    def _finish_build(self, now):
        text = self.builder.text()
        settings = self._settings()
        if self.side == engine.NOBODY:
            changes = {"control_left": text, "control_right": text}
        elif self.side == LEVER_LEFT:
            changes = {"control_left": text, "control_right": settings.control_right}
        else:
            changes = {"control_left": settings.control_left, "control_right": text}
        self.builder.done = False
        self.builder.index = 0
        self._commit(changes, now, items.class_text(text, settings.edition), "SEt", BUILD)

    # --- user slots ------------------------------------------------------

    def _slots(self):
        slots, error = items.read_slots(self.app.storage())
        if error is not None:
            self.error = error
        return slots

    def _board_number(self):
        """The hall file's board number, or None without a usable hall file."""
        try:
            data = self.app.storage().read_json(files.HALL)
            number = data["board"]
        except Exception:
            return None
        return number if isinstance(number, int) and not isinstance(number, bool) else None

    def _save_board_number(self, number, now):
        """The hall file's board number (docs/hall.md); the link joins under it at once."""
        from firmware import hall_settings

        try:
            hall = hall_settings.save_board(self.app.storage(), number)
        except (OSError, ValueError, KeyError, TypeError):
            self.message(items.BOARD_ITEM, "Err", now, TOP)
            return
        self.app.renumber_hall(hall.board, hall.user)
        self.message(items.BOARD_ITEM, "%4d" % number, now)

    def _save_slot(self, number, now):
        try:
            items.write_slot(self.app.storage(), number, self._settings())
        except OSError as error:
            self.error = "slot not stored: %s" % error
            self.message("Err", "FLSH", now)
            return
        self.message("Sv %d" % number, "donE", now)

    # --- time and drawing ------------------------------------------------

    def tick(self, now):
        """Let a message time out, and the cursor blink."""
        screen = self.screen
        if screen == MESSAGE and ticks_diff(now, self.until) >= 0:
            self._show(self.back_to)
        elif screen == BUILD:
            phase = ticks_diff(now, self.since) // 500 % 2
            if phase != self.blink_phase:
                self.blink_phase = phase
                self.changed = True
        if self.unlock_from is not None and ticks_diff(now, self.unlock_from) > UNLOCK_MS:
            self.unlock_from = None

    def deadline(self, now):
        """The tick at which ``tick`` next changes something by itself, or None: a
        message's end, the cursor's next blink (every 500 ms from the last key), the
        end of the unlock's window."""
        screen = self.screen
        due = None
        if screen == MESSAGE:
            due = self.until
        elif screen == BUILD:
            due = ticks_add(self.since, (ticks_diff(now, self.since) // 500 + 1) * 500)
        unlock = self.unlock_from
        if unlock is not None:
            end = ticks_add(unlock, UNLOCK_MS + 1)
            if due is None or ticks_diff(end, due) < 0:
                due = end
        return due

    def draw(self, frame, side, now):
        """Draw side ``side`` (0 left, 1 right) of the current screen into ``frame``."""
        screen = self.screen
        if screen == MESSAGE:
            frames.render_text(frame, self.texts[side])
        elif screen == TOP:
            name = self.items[self.item]
            if side == 1 and name == items.BOARD_ITEM:
                number = self._board_number()
                frames.render_text(frame, "----" if number is None else "%4d" % number)
                return
            frames.render_text(
                frame, name if side == 0 else items.value_text(self._settings(), name)
            )
        elif screen == CHOOSE:
            self._draw_choice(frame, side)
        elif screen == BUILD:
            if side == 0 and self.side != engine.NOBODY:
                frames.render_text(frame, self.builder.field().label)
                frame[3 if self.side == LEVER_RIGHT else 0] |= frames.DOT  # the side built
                return
            self.builder.draw(frame, side, ticks_diff(now, self.since))

    def _draw_choice(self, frame, side):
        name = self.items[self.item]
        slots = self._slots() if name == "LoAd" or name == "SAvE" else None
        edition = self._settings().edition
        frames.render_text(frame, items.choice_text(name, self.choice, side, slots, edition))
