"""The clock in a desktop window (Tk): both displays, the levers and keys, the buzzer.

The displays and the running-side indicators are drawn to the board's scale
(``to_scale``): the 1.2" displays of ``pico_big`` twice the size of the
0.56" ones, the 10 mm indicators beside them as big as they are.

The displays are drawn from the simulated HT16K33 chips' display RAM, and
redrawn only when what the chips light changes. The levers and keys are
buttons and keyboard shortcuts (written on the buttons); pressing one with
the mouse or a key closes its contact, and it opens when the button or key
is let go, so a long press lasts as long as the hand holds. Virtual time
follows the wall clock in an ``after()`` loop that sleeps until the next
timer tick; nothing spins.
"""

import sys
import tkinter as tk

from live import controls
from live.segments_view import SegmentsView
from sim import segments_geometry

BACKGROUND = "#2f3136"
TEXT = "#d8d8d8"
BUZZER_ON = "#ffb000"
BUZZER_OFF = "#4a4c52"
LED_ON = "#30e040"
LED_OFF = "#20301f"
# The window draws the displays and the running-side indicators to one scale, so a
# board with bigger digits or LEDs looks bigger (boards/*.py: DIGIT_HEIGHT_MM,
# LED_DIAMETER_MM); a board without them gets the 0.56" digits and 3 mm LEDs.
PX_PER_MM = 5
DEFAULT_DIGIT_MM = 14
DEFAULT_LED_MM = 3
MARGIN = 20
GAP = 40
_AUTOREPEAT_MS = 40  # an X key release followed this soon by a press is autorepeat
_MAX_SLEEP_MS = 100


def to_scale(board):
    """The displays' scale (``SegmentsView``) and the indicator's diameter in pixels for
    ``board``, both at ``PX_PER_MM``: its ``DIGIT_HEIGHT_MM`` and ``LED_DIAMETER_MM``."""
    digit_mm = getattr(board, "DIGIT_HEIGHT_MM", DEFAULT_DIGIT_MM)
    led_mm = getattr(board, "LED_DIAMETER_MM", DEFAULT_LED_MM)
    return digit_mm * PX_PER_MM / segments_geometry.DIGIT_HEIGHT, led_mm * PX_PER_MM


def is_big(board):
    """True for a board with the 1.2" backpacks (``DISPLAY_KIND``), whose lamps differ."""
    return getattr(board, "DISPLAY_KIND", "0.56in") == "1.2in"


class ClockWindow:
    """A Tk window on a ``LiveSession``; ``run()`` goes live and returns at quit."""

    def __init__(self, session, title="Chess clock (simulator)", note="", out=sys.stdout):
        self.session = session
        self.out = out
        self.root = tk.Tk()
        self.root.title(title)
        self.root.configure(background=BACKGROUND)
        self.root.protocol("WM_DELETE_WINDOW", self.quit)
        self.finished = False
        self.quit_requested = False
        self.announced = False
        self.loop_id = None
        self.buzzing = False
        self.leds_lit = None
        self.loop_command = self.root.register(self._loop)  # one Tcl command for every pass
        self.held_keys = {}  # X keycode -> control name, while the key is down
        self.releasing = {}  # X keycode -> after() id of a release that may be autorepeat
        self._build(note)
        self.root.bind("<Map>", self._on_map)
        self.root.bind_all("<KeyPress>", self._on_key_press)
        self.root.bind_all("<KeyRelease>", self._on_key_release)

    # --- layout ------------------------------------------------------------

    def _build(self, note):
        root = self.root
        canvas = tk.Canvas(root, background=BACKGROUND, highlightthickness=0)
        canvas.pack(side="top")
        self.canvas = canvas
        self.views = []
        self.leds = []
        scale, led = to_scale(self.session.board.board)
        band = max(18, led + 6)  # above the displays: the side's name and its indicator
        x = MARGIN
        for side in ("left", "right"):
            view = SegmentsView(canvas, x, MARGIN + band, scale, is_big(self.session.board.board))
            canvas.create_text(x, MARGIN + 8, text=side, anchor="w", fill=TEXT)
            right = x + view.width
            self.leds.append(
                canvas.create_oval(
                    right - led, MARGIN, right, MARGIN + led, fill=LED_OFF, outline=""
                )
            )
            self.views.append(view)
            x += view.width + GAP
        width = x - GAP + MARGIN
        height = MARGIN + band + self.views[0].height + 8
        centre = width // 2
        self.buzzer = canvas.create_oval(
            centre - 12, MARGIN + 2, centre + 12, MARGIN + 26, fill=BUZZER_OFF, outline=""
        )
        canvas.create_text(centre, MARGIN + 14, text="\u266a", fill=BACKGROUND)
        canvas.configure(width=width, height=height)

        keys = tk.Frame(root, background=BACKGROUND)
        keys.pack(side="top", fill="x", padx=MARGIN)
        self.buttons = {}
        for control in controls.CONTROLS:
            lever = control.name.startswith("lever")
            button = tk.Button(
                keys,
                text="%s\n[%s]" % (control.label, control.hint),
                width=14 if lever else 9,
                height=3 if lever else 2,
                takefocus=0,
            )
            button.pack(side="left", expand=lever, fill="x", padx=4, pady=4)
            button.bind("<ButtonPress-1>", self._mouse_down(control.name))
            button.bind("<ButtonRelease-1>", self._mouse_up(control.name))
            self.buttons[control.name] = button
        if self.session.can_cut_power():
            power = tk.Button(
                keys, text="power\n[O]", width=6, height=2, takefocus=0, command=self.power
            )
            power.pack(side="left", padx=4, pady=4)
            self.buttons["power"] = power

        self.status = tk.Label(root, background=BACKGROUND, foreground=TEXT, anchor="w")
        self.status.pack(side="top", fill="x", padx=MARGIN)
        help_text = "Hold a button or key down for a long press.   Q or Esc: quit."
        if note:
            help_text += "   " + note
        tk.Label(root, text=help_text, background=BACKGROUND, foreground=TEXT, anchor="w").pack(
            side="top", fill="x", padx=MARGIN, pady=(0, 8)
        )
        self.status_text = None

    # --- hands -------------------------------------------------------------

    def _mouse_down(self, name):
        return lambda event: self.press(name)

    def _mouse_up(self, name):
        return lambda event: self.release(name)

    def press(self, name):
        if self.finished:
            return
        self.session.down(name)
        self.buttons[name].configure(relief="sunken")
        self.refresh()

    def release(self, name):
        if self.finished:
            return
        self.session.up(name)
        self.buttons[name].configure(relief="raised")
        self.refresh()

    def power(self):
        """The power switch: off, or on again (the clock boots from its flash)."""
        if self.finished:
            return
        self.session.toggle_power()
        self.refresh()

    def _on_key_press(self, event):
        pending = self.releasing.pop(event.keycode, None)
        if pending is not None:  # autorepeat: the key never went up
            self.root.after_cancel(pending)
            return
        if event.keycode in self.held_keys:
            return
        if event.keysym in controls.QUIT_WINDOW_KEYS:
            self.quit()
            return
        if event.keysym in controls.POWER_WINDOW_KEYS and "power" in self.buttons:
            self.power()
            return
        control = controls.control_for_window_key(event.keysym)
        if control is not None:
            self.held_keys[event.keycode] = control.name
            self.press(control.name)

    def _on_key_release(self, event):
        if event.keycode not in self.held_keys or event.keycode in self.releasing:
            return
        self.releasing[event.keycode] = self.root.after(_AUTOREPEAT_MS, self._key_up, event.keycode)

    def _key_up(self, keycode):
        self.releasing.pop(keycode, None)
        name = self.held_keys.pop(keycode, None)
        if name is not None:
            self.release(name)

    # --- time and drawing ----------------------------------------------------

    def refresh(self):
        """Redraw what changed: the displays (from chip RAM), LEDs, buzzer, status line."""
        from sim import vclock

        session = self.session
        now = vclock.now_ms()
        for view, chip in zip(self.views, session.board.chips, strict=True):
            view.show(controls.shown_ram(chip, now), chip.brightness)
        leds = session.leds()
        if leds != self.leds_lit:
            self.leds_lit = leds
            for item, lit in zip(self.leds, leds, strict=True):
                self.canvas.itemconfigure(item, fill=LED_ON if lit else LED_OFF)
        buzzing = session.buzzer_sounding()
        if buzzing != self.buzzing:
            self.buzzing = buzzing
            self.canvas.itemconfigure(self.buzzer, fill=BUZZER_ON if buzzing else BUZZER_OFF)
            if buzzing:
                self.root.bell()
        text = session.status()
        if session.held:
            text += "   holding " + ", ".join(
                "%s %.1f s" % (name, (now - since) / 1000)
                for name, (since, _) in session.held.items()
            )
        if text != self.status_text:
            self.status_text = text
            self.status.configure(text=text)

    def step(self):
        """Advance virtual time to the wall clock and redraw; the ms to sleep until the next."""
        session = self.session
        session.advance()
        self.refresh()
        due = session.ms_to_next()
        if due is None:
            return _MAX_SLEEP_MS
        return max(1, min(_MAX_SLEEP_MS, int(due / session.speed) + 1))

    def _loop(self):
        if self.quit_requested:
            self.quit()
            return
        self.loop_id = self.root.tk.call("after", self.step(), self.loop_command)

    def request_quit(self, *signal_arguments):
        """Quit at the next pass of the loop (safe from a signal handler)."""
        self.quit_requested = True

    def _on_map(self, event):
        if not self.announced and event.widget is self.root:
            self.announced = True
            self.out.write("window open\n")
            self.out.flush()

    def start(self):
        """Go live and start the loop (``run`` also enters Tk's main loop)."""
        self.session.go_live()
        self.refresh()
        self._loop()

    def run(self):
        self.start()
        self.root.mainloop()

    def quit(self):
        if self.finished:
            return
        self.finished = True
        if self.loop_id is not None:
            self.root.after_cancel(self.loop_id)
        for pending in self.releasing.values():
            self.root.after_cancel(pending)
        self.root.destroy()
