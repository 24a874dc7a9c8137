"""The setup menus as the app holds them: screens while the menus are in use.

The screens (``firmware.menu.screens.MenuScreens``, with the folder
``firmware/menu/``) are made when a key first reaches the menus, which
happens only in the setup state or after a game (``App.key_handler``), and
dropped when a game starts, so each use of the menus begins on fresh
screens, and the app knows the menus are in use (``screens``: it does not
rest then). Their modules stay loaded once imported (nothing is let go:
docs/architecture.md, "What the heap pays for"). Screens and sequences:
docs/menus.md.
"""

from firmware import engine


class Menu:
    """The menus as the app sees them: ``active()``, ``draw_again()``, ``take_change()``,
    keys, ``tick``, ``draw``."""

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
        """Drop the screens (a game has started): the next use of the menus begins on
        fresh ones. Allocates nothing."""
        self.screens = None

    def active(self):
        screens = self.screens
        return screens is not None and screens.screen != 0

    def draw_again(self):
        """Draw the menu's screen again at the next refresh, if the menus are in use."""
        if self.screens is not None:
            self.screens.draw_again()

    def take_change(self):
        """Whether the menu's screen changed since it was last drawn (now it counts as drawn)."""
        return self.screens is not None and self.screens.take_change()

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

    def deadline(self, now):
        """The tick the menus' screens next change by themselves at, or None."""
        screens = self.screens
        return None if screens is None else screens.deadline(now)

    def draw(self, frame, side, now):
        self.screens.draw(frame, side, now)
