// The page: loads MicroPython's WebAssembly port and the clock's modules, then either
// plays the clock script of the address's #script= (virtual time, as python -m sim run)
// or runs the live clock of the `browser` board (docs/web.md).
import { loadMicroPython } from "./micropython.mjs";
import { Face } from "./face.js";
import { Practice } from "./practice.js";

// The interpreter's heap: a script's, as the simulator's (sim/__main__.py: collections
// cost little); the live clock's smaller, so that a collection, which runs between two
// calls from the page, is short beside a display refresh.
const SCRIPT_HEAP_BYTES = 8 * 1024 * 1024;
const LIVE_HEAP_BYTES = 2 * 1024 * 1024;
const FLASH_KEY = "chess-clock.flash"; // the board's flash in the browser's storage
const SAVE_EVERY_MS = 1000; // the flash kept, and a hidden tab's clock run, this often
const LATENESS_KEPT = 1000;
const $ = (id) => document.getElementById(id);
const pageMs = () => Math.floor(performance.now());

// The percent-encoded bytes of a fragment, as hex (they need not be UTF-8).
function fragmentHex(text) {
  const encoder = new TextEncoder();
  let hex = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "%" && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      hex += text.slice(i + 1, i + 3).toLowerCase();
      i += 2;
    } else {
      for (const byte of encoder.encode(text[i])) hex += byte.toString(16).padStart(2, "0");
    }
  }
  return hex;
}

async function loadFirmware(heapsize) {
  const [mp, listing, packed, shapes] = await Promise.all([
    loadMicroPython({ heapsize, stdout: (l) => console.log(l), stderr: (l) => console.error(l) }),
    fetch("files.json").then((r) => r.json()),
    fetch("clock.bin").then((r) => r.arrayBuffer()),
    fetch("geometry.json").then((r) => r.json()),
  ]);
  const bytes = new Uint8Array(packed);
  let at = 0;
  for (const [path, size] of listing) {
    mp.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    mp.FS.writeFile(path, bytes.subarray(at, at + size));
    at += size;
  }
  mp.FS.mkdirTree("/tmp");
  mp.runPython('import sys\nsys.path.insert(0, "/app")');
  return { mp, shapes };
}

// #script=: the script played, every printed line in #output, the last in #state
// (the simulator's state line after "script: end: "); data-status: the exit status.
function playScript(mp, hex) {
  $("clock").hidden = true;
  $("script-run").hidden = false;
  const state = $("state");
  delete document.body.dataset.status;
  state.textContent = "";
  const started = performance.now();
  const [status, lines] = JSON.parse(mp.pyimport("web.page_script").play_hex(hex));
  const last = lines.length ? lines[lines.length - 1] : "";
  const end = "script: end: ";
  $("output").textContent = lines.join("\n");
  state.textContent = last.startsWith(end) ? last.slice(end.length) : last;
  document.body.dataset.playedMs = String(Math.round(performance.now() - started));
  document.body.dataset.status = String(status);
}

class LiveClock {
  constructor(mp, shapes) {
    this.module = mp.pyimport("web.page_clock");
    this.lag = this.module.LAG_MS;
    this.clock = null;
    this.face = new Face(shapes.display, shapes.inputs, this);
    this.nextChange = 0; // the page's ms before which nothing shown can change
    this.lateness = []; // the last LATENESS_KEPT frames' lateness (bench/web.py)
    this.drawn = 0;
    this.looping = false;
    this.timer = null;
  }

  // a new clock: from a time control (null: the default), or from a clock script
  // played in virtual time first (an exercise's setup); then on the kept flash
  start(control, flash, script = null) {
    if (this.clock) this.clock.close();
    this.clock = this.module.PageClock(pageMs(), control || null, script);
    if (flash) this.clock.restore(flash, pageMs());
    this.face.reset();
    this.save();
    this.frame();
  }

  // the board run up to the page's clock less the lag, and drawn if anything changed
  frame() {
    const now = pageMs();
    const answer = this.clock.advance_frame(now - this.lag);
    const tab = answer.indexOf("\t");
    this.nextChange = Number(answer.slice(0, tab));
    const frame = answer.slice(tab + 1);
    if (frame) {
      this.face.draw(frame, now);
      if (!document.body.dataset.drawnMs) {
        document.body.dataset.drawnMs = String(Math.round(performance.now()));
      }
    }
    this.schedule();
  }

  // the next look at the board, at its next possible change: a press or a new clock
  // that brings the change nearer asks again at once (frame calls this)
  schedule() {
    if (!this.looping) return;
    clearTimeout(this.timer);
    const wait = this.nextChange + this.lag - pageMs();
    this.timer = setTimeout(() => this.step(), Math.max(1, Math.min(wait, SAVE_EVERY_MS)));
  }

  step() {
    const late = pageMs() - this.lag - this.nextChange;
    if (late >= 0) {
      // how long after the board's instant of a possible change it was drawn (ms)
      this.lateness[this.drawn++ % LATENESS_KEPT] = late;
      this.frame();
    } else {
      this.schedule();
    }
  }

  loop() {
    // the board is asked again only when something shown may change (PageClock's
    // next_change): a clock at rest between two changes of its displays costs the tab
    // nothing; the change is drawn as soon as the board has made it
    this.looping = true;
    this.step();
    // a hidden tab's timers are slowed: the clock still runs (its flag falls at its
    // instant, its journal is written) and its flash is kept
    setInterval(() => {
      if (document.hidden) this.frame();
      this.save();
    }, SAVE_EVERY_MS);
    document.addEventListener("visibilitychange", () => {
      this.frame();
      this.save();
    });
    window.addEventListener("pagehide", () => this.save());
  }

  save() {
    const text = this.clock.flash_files();
    if (!text) return;
    try {
      localStorage.setItem(FLASH_KEY, text);
    } catch (error) {
      $("status").textContent = `The flash could not be kept in this browser: ${error.message}`;
    }
  }

  down(name, stamp) {
    this.clock.down(name, stamp);
    this.frame();
  }

  up(name, stamp) {
    this.clock.up(name, stamp);
    this.frame();
  }

  power(stamp) {
    this.clock.power(stamp);
    this.frame();
    this.save();
  }
}

function wireTools(live) {
  $("control").addEventListener("input", () => $("control").setCustomValidity(""));
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    const control = $("control").value.trim();
    // a control the clock cannot play is refused before the clock in use is given up
    const problem = live.module.control_problem(control);
    $("control").setCustomValidity(problem);
    if (problem) {
      $("control").reportValidity();
      $("status").textContent = `Not a time control: ${problem}`;
      return;
    }
    live.start(control, null);
  });
  const show = (text) => {
    const out = $("share-out");
    out.hidden = false;
    out.textContent = text;
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
  };
  $("share").addEventListener("click", () => {
    const base = location.href.split("#")[0];
    show(`${base}#state=${encodeURIComponent(live.clock.flash_text())}`);
  });
  $("record").addEventListener("click", () => show(live.clock.script_text()));
}

function registerOffline() {
  if (!("serviceWorker" in navigator) || location.protocol === "file:") return;
  fetch("offline.json", { cache: "no-cache" })
    .then((r) => r.json())
    .then((offline) => navigator.serviceWorker.register(`sw.js?v=${offline.version}`))
    .catch(() => {}); // offline already, or no service worker: the page runs as it is
}

async function main() {
  const hash = location.hash;
  const scripted = hash.startsWith("#script=");
  const { mp, shapes } = await loadFirmware(scripted ? SCRIPT_HEAP_BYTES : LIVE_HEAP_BYTES);
  $("loading").hidden = true;
  if (scripted) {
    playScript(mp, fragmentHex(hash.slice("#script=".length)));
    window.addEventListener("hashchange", () => {
      if (location.hash.startsWith("#script=")) {
        playScript(mp, fragmentHex(location.hash.slice("#script=".length)));
      }
    });
    return;
  }
  $("clock").hidden = false;
  const live = new LiveClock(mp, shapes);
  let flash = localStorage.getItem(FLASH_KEY);
  if (hash.startsWith("#state=")) {
    flash = decodeURIComponent(hash.slice("#state=".length));
    history.replaceState(null, "", location.pathname + location.search);
  }
  try {
    live.start(null, flash);
  } catch (error) {
    $("status").textContent = `The kept state could not be read (${error.message}): a new clock.`;
    live.start(null, null);
  }
  wireTools(live);
  live.loop();
  window.clockPage = live; // for the tests and the figures (tests/test_web.py, bench/web.py)
  new Practice($("practice"), live, mp.pyimport("web.exercises"));
  registerOffline();
}

main().catch((error) => {
  $("loading").hidden = false;
  $("loading").textContent = `The clock could not start: ${error.message}`;
  document.body.dataset.error = error.message;
});
