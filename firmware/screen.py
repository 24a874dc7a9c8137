"""What a screen drawn over the times tells the app: whether it changed since drawn.

The app draws such a screen only when it changed (``App._screen_up``): the screen
marks itself ``changed`` wherever what it shows changes, and the app asks
``take_change()``, or ``draw_again()`` when what covered it went away.
"""


class Screen:
    """A screen over the times; ``changed`` until it is drawn."""

    def draw_again(self):
        """Draw the screen again at the next refresh (what covered it went away)."""
        self.changed = True

    def take_change(self):
        """Whether the screen changed since it was last drawn; it counts as drawn now."""
        changed = self.changed
        self.changed = False
        return changed
