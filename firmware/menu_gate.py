"""The setup menus' gate: the part of the menus the app holds at all times.

The screens themselves (the folder ``firmware/menu/``: ``screens``,
``items``, ``control`` and ``presets``, about 19 KB of heap as ``.mpy``) are
loaded when a key first reaches the menus, which happens only in the setup
state or after a game (``App.key_handler``): they take no heap at boot.
When a game starts they are let go (dropped from ``sys.modules``, without
allocating) for a garbage collection to reclaim. While they are not loaded,
nothing here allocates. Screens and sequences: docs/menus.md.
"""

import firmware
from firmware import engine, lifetime


class Menu:
    """The menus as the app sees them: ``active()``, ``changed``, keys, ``tick``, ``draw``."""

    def __init__(self, app):
        self.app = app
        self.screens = None  # a MenuScreens while loaded

    def _load(self):
        screens = self.screens
        if screens is None:
            from firmware.menu.screens import MenuScreens

            screens = MenuScreens(self.app)
            self.screens = screens
        return screens

    def release(self):
        """Let the screens go (a game has started); their modules are freed at the
        next garbage collection. Allocates nothing."""
        self.screens = None
        lifetime.let_go(firmware, "menu")
        lifetime.let_go(firmware, "control_parser")
        lifetime.let_go(firmware, "settings_file")
        lifetime.let_go(firmware, "strict_json")

    def active(self):
        screens = self.screens
        return screens is not None and screens.screen != 0

    @property
    def changed(self):
        return self.screens is not None and self.screens.changed

    @changed.setter
    def changed(self, value):
        if self.screens is not None:
            self.screens.changed = value

    @property
    def error(self):
        """The full text of the last refusal, or None."""
        return self.screens.error if self.screens is not None else None

    def on_press(self, key, now):
        return self._load().on_press(key, now)

    def on_long_press(self, key, now):
        self._load().on_long_press(key, now)

    def tick(self, now):
        screens = self.screens
        if screens is None:
            return
        if self.app.clock.state == engine.RUNNING and screens.screen == 0:
            self.release()
            return
        screens.tick(now)

    def draw(self, frame, side, now):
        self.screens.draw(frame, side, now)
