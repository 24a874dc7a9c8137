// The clock's face: both displays drawn from the HT16K33s' RAM, the running-side LEDs,
// the levers and keys (touch, mouse, keyboard), the buzzer's tone and what a screen
// reader hears. It draws what PageClock.frame() gives and hands each press to the
// clock with its event's own timeStamp (docs/web.md).

const SVG = "http://www.w3.org/2000/svg";
const PAD = 14; // the window around the digits, in geometry units (live/segments_view.py)
const ANNOUNCE_EVERY_MS = 10000; // a running clock's times, read out at most this often

// One display: an SVG element per segment, dot and colon lamp, recoloured from RAM.
class Display {
  constructor(svg, geometry) {
    this.geometry = geometry;
    svg.setAttribute("viewBox", `0 0 ${geometry.width + 2 * PAD} ${geometry.height + 2 * PAD}`);
    const window = document.createElementNS(SVG, "rect");
    window.setAttribute("width", geometry.width + 2 * PAD);
    window.setAttribute("height", geometry.height + 2 * PAD);
    window.setAttribute("rx", 6);
    window.setAttribute("fill", geometry.window);
    svg.appendChild(window);
    this.items = geometry.elements.map((element) => {
      let item;
      if (element.points) {
        item = document.createElementNS(SVG, "polygon");
        item.setAttribute("points", element.points.map(([x, y]) => `${x + PAD},${y + PAD}`).join(" "));
      } else {
        item = document.createElementNS(SVG, "circle");
        item.setAttribute("cx", element.centre[0] + PAD);
        item.setAttribute("cy", element.centre[1] + PAD);
        item.setAttribute("r", element.radius);
      }
      item.setAttribute("fill", geometry.dark);
      svg.appendChild(item);
      return { element, item, lit: false, colour: geometry.dark };
    });
  }

  show(ramHex, brightness) {
    const ram = [];
    for (let i = 0; i < 32; i += 2) ram.push(parseInt(ramHex.slice(i, i + 2), 16));
    const litColour = this.geometry.lit[brightness] || this.geometry.lit[15];
    for (const entry of this.items) {
      const lit = (ram[entry.element.byte] & entry.element.bit) !== 0;
      const colour = lit ? litColour : this.geometry.dark;
      if (colour !== entry.colour) {
        entry.item.setAttribute("fill", colour);
        entry.colour = colour;
      }
    }
  }
}

// The buzzer: a square wave at the PWM's frequency while it sounds (Web Audio).
class Buzzer {
  constructor() {
    this.context = null;
    this.tone = 0;
  }

  wake() {
    // browsers start sound only from a user's gesture: the first press
    if (this.context) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    this.context = new Context();
    this.oscillator = this.context.createOscillator();
    this.oscillator.type = "square";
    this.gain = this.context.createGain();
    this.gain.gain.value = 0;
    this.oscillator.connect(this.gain).connect(this.context.destination);
    this.oscillator.start();
  }

  sound(hz) {
    if (hz === this.tone) return;
    this.tone = hz;
    if (!this.context) return;
    const at = this.context.currentTime;
    if (hz > 0) this.oscillator.frequency.setValueAtTime(hz, at);
    this.gain.gain.setValueAtTime(hz > 0 ? 0.08 : 0, at);
  }
}

export class Face {
  // inputs: {controls: [{name, label, keys, hint}], power: [keys]} (live/controls.py)
  constructor(geometry, inputs, hands) {
    this.hands = hands; // {down(name, stamp), up(name, stamp), power(stamp)}
    this.displays = [
      new Display(document.getElementById("display_left"), geometry),
      new Display(document.getElementById("display_right"), geometry),
    ];
    this.leds = [document.getElementById("led_left"), document.getElementById("led_right")];
    this.times = document.getElementById("times");
    this.status = document.getElementById("status");
    this.buzzer = new Buzzer();
    this.keyOf = new Map();
    this.held = new Set();
    this.announced = { text: "", status: "", at: -Infinity };
    for (const control of inputs.controls) {
      for (const key of control.keys) this.keyOf.set(key, control.name);
      const button = document.getElementById(control.name);
      const kbd = button.querySelector("kbd");
      if (kbd) kbd.textContent = control.hint;
      button.setAttribute("aria-keyshortcuts", control.keys.join(" "));
      this.wireButton(button, control.name);
    }
    this.powerKeys = new Set(inputs.power);
    const power = document.getElementById("power");
    power.addEventListener("click", (event) => this.hands.power(Math.floor(event.timeStamp)));
    document.addEventListener("keydown", (event) => this.key(event, true));
    document.addEventListener("keyup", (event) => this.key(event, false));
    window.addEventListener("blur", () => this.releaseAll(Math.floor(performance.now())));
  }

  wireButton(button, name) {
    button.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      try {
        button.setPointerCapture(event.pointerId); // the release comes here, wherever it is
      } catch {
        // a pointer the browser no longer tracks: its release comes to the button itself
      }
      this.press(name, Math.floor(event.timeStamp));
    });
    const release = (event) => this.release(name, Math.floor(event.timeStamp));
    button.addEventListener("pointerup", release);
    button.addEventListener("pointercancel", release);
    button.addEventListener("lostpointercapture", release);
    button.addEventListener("contextmenu", (event) => event.preventDefault());
    // Enter or space on a focused button is a tap of it (a screen reader's activation)
    button.addEventListener("click", (event) => {
      if (event.detail === 0 && !this.held.has(name)) {
        const stamp = Math.floor(event.timeStamp);
        this.press(name, stamp);
        this.release(name, stamp);
      }
    });
  }

  key(event, down) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target instanceof HTMLInputElement) return;
    const stamp = Math.floor(event.timeStamp);
    if (this.powerKeys.has(event.key)) {
      if (down && !event.repeat) this.hands.power(stamp);
      event.preventDefault();
      return;
    }
    const name = this.keyOf.get(event.key);
    if (!name) return;
    event.preventDefault();
    if (down) {
      if (!event.repeat) this.press(name, stamp);
    } else {
      this.release(name, stamp);
    }
  }

  press(name, stamp) {
    if (this.held.has(name)) return;
    this.buzzer.wake();
    this.held.add(name);
    document.getElementById(name).classList.add("down");
    this.hands.down(name, stamp);
  }

  release(name, stamp) {
    if (!this.held.has(name)) return;
    this.held.delete(name);
    document.getElementById(name).classList.remove("down");
    this.hands.up(name, stamp);
  }

  releaseAll(stamp) {
    for (const name of [...this.held]) this.release(name, stamp);
  }

  // frame: PageClock.frame()'s fields, tab-separated
  draw(frame, nowMs) {
    const [ramLeft, brightLeft, ramRight, brightRight, leds, tone, status, shown, times] =
      frame.split("\t");
    this.displays[0].show(ramLeft, Number(brightLeft));
    this.displays[1].show(ramRight, Number(brightRight));
    this.leds[0].classList.toggle("lit", leds[0] === "1");
    this.leds[1].classList.toggle("lit", leds[1] === "1");
    this.buzzer.sound(Number(tone));
    const [left, right] = shown.split("|");
    document.getElementById("display_left").setAttribute("aria-label", `left display ${left.trim()}`);
    document.getElementById("display_right").setAttribute("aria-label", `right display ${right.trim()}`);
    if (status !== this.status.textContent) this.status.textContent = status;
    this.announce(times, status, nowMs);
  }

  // a new clock: announced at once
  reset() {
    this.announced = { text: "", status: "", at: -Infinity };
  }

  // The times for a screen reader (aria-live polite): at once when the clock's state
  // changes, otherwise at most every ANNOUNCE_EVERY_MS while they change.
  announce(times, status, nowMs) {
    const last = this.announced;
    if (times === last.text && status === last.status) return;
    if (status === last.status && nowMs - last.at < ANNOUNCE_EVERY_MS) return;
    this.times.textContent = `${times}. ${status}`;
    this.announced = { text: times, status, at: nowMs };
  }
}
