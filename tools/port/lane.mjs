// The real-port lane (make port): boots the clock's RP2040 image on rp2040js with the board
// around it and measures it. Prints one JSON document on stdout; bench/port.py runs it.
//
//   node lane.mjs --uf2 firmware.uf2 --bootrom demo/bootrom.ts --board '{...}'
//       [--flash typical|maximum] [--dreq level|credit] [--seconds 10]
//       [--prompt-only | --presses-only | --plan plan.json] [--elf firmware.elf]
//       [--settings settings.json --scene last10|newGame [--press-after-ms N]]
//
// --elf names the image's ELF: the heap allocations of each state are counted, by function.
// --board is the board's data as bench/port.py reads it from boards/<name>.py: the I2C
// controller, the displays' addresses, the inputs' GPIOs, the board's name.
// --settings names a settings file to write before the clock boots ({settingsPath,
// settingsHex}, as a plan has them); --scene plays one of scenes.mjs's on the prepared clock.

import { parseArgs } from 'node:util';
import { afterTransfer, setRxDreq } from './dreq.mjs';
import { dueFrames, longestLateMs } from './due_frames.mjs';
import { TimedFlash, W25Q16JV_MS } from './flash.mjs';
import { HT16K33, attachI2C } from './ht16k33.mjs';
import { HeapWatch, readSymbols } from './heap_watch.mjs';
import { pressEdges } from './inputs.mjs';
import { Machine, Meter } from './machine.mjs';
import { playPlan } from './play_plan.mjs';
import { SCENES } from './scenes.mjs';
import { RawRepl } from './repl.mjs';
import {
  nearWrapAtPowerUpUs,
  readPlan,
  readSettings,
  settingsCode,
  TICKS_PERIOD,
} from './script_plan.mjs';
import { setTimer, TIMER_BASE, writableTimer } from './timer.mjs';

const MS = 1_000_000;
const startedAt = Date.now();
function progress(what) {
  const simulated = (machine.clock.nanos / 1e9).toFixed(2);
  const real = ((Date.now() - startedAt) / 1000).toFixed(0);
  process.stderr.write(`port lane: ${what} (simulated ${simulated} s, ${real} s real)\n`);
}

const { values: options } = parseArgs({
  options: {
    uf2: { type: 'string' },
    bootrom: { type: 'string' },
    board: { type: 'string' },
    flash: { type: 'string', default: 'typical' },
    dreq: { type: 'string', default: 'level' },
    seconds: { type: 'string', default: '10' },
    'prompt-only': { type: 'boolean', default: false },
    'presses-only': { type: 'boolean', default: false },
    'no-preparation-wait': { type: 'boolean', default: false },
    plan: { type: 'string' },
    elf: { type: 'string' },
    settings: { type: 'string' },
    scene: { type: 'string' },
    'press-after-ms': { type: 'string' },
  },
});
for (const name of ['uf2', 'bootrom', 'board']) {
  if (!options[name]) throw new Error(`--${name} is missing`);
}
const board = JSON.parse(options.board);
const times = W25Q16JV_MS[options.flash];
if (!times) throw new Error(`--flash ${options.flash}: typical or maximum`);
const windowNs = Number(options.seconds) * 1000 * MS;
if (options.scene && !(options.scene in SCENES)) {
  throw new Error(`--scene ${options.scene}: one of ${Object.keys(SCENES).join(', ')}`);
}

const machine = new Machine({ bootrom: options.bootrom, uf2: options.uf2 });
const { mcu } = machine;
// A script's plan (--plan): the timer set at power-up as the runner's board starts its ticks.
const plan = options.plan ? readPlan(options.plan, board.inputs) : null;
const timer = plan ? writableTimer(mcu.findPeripheral(TIMER_BASE), machine.clock) : null;
if (plan && plan.nearWrap) setTimer(mcu, nearWrapAtPowerUpUs(plan));
// The main loop's sleeps (hal.sleep's wait: one a pass that found nothing to do) and its
// steps, counted on the port to set against the core's wake-ups.
const COUNTED = ['hal_sleep_Sleep_wait', 'firmware_app_App_step'];
const heap = options.elf ? new HeapWatch(mcu, readSymbols(options.elf), COUNTED) : null;
const flash = new TimedFlash(mcu, times, (ns) => machine.hold(ns));
machine.breakHandlers.push((code) => flash.onBreak(code));
setRxDreq(mcu, options.dreq);
// The DMA's transfers paced by a PIO's RX DREQ: the lever capture's stamps (one per press
// is right; more is a channel firing again on a FIFO nobody drained).
const rxDreqs = new Set(mcu.pio.flatMap((pio) => pio.machines.map((sm) => sm.dreqRx)));
let captureTransfers = 0;
// A channel that re-fires on a standing request does so at one instant: rp2040js's clock
// cannot move on until its count runs out (2**30 transfers). Past this many the lane ends
// the channel's count and says so.
const STORM_TRANSFERS = 100_000;
const storms = [];
for (const channel of mcu.dma.channels) {
  let burst = 0;
  let burstAt = -1;
  afterTransfer(channel, () => {
    if (!rxDreqs.has(channel.treq)) return;
    captureTransfers += 1;
    if (machine.clock.nanos !== burstAt) {
      burstAt = machine.clock.nanos;
      burst = 0;
    }
    burst += 1;
    if (burst === STORM_TRANSFERS) {
      storms.push({ channel: channel.index, dreq: channel.treq, atMs: burstAt / MS });
      // Inside a transfer, an abort would be undone by the transfer's own rescheduling:
      // the channel is let run out instead, this transfer its last.
      channel.transCount = 1;
    }
  });
}
const displays = board.displays.map((address) => new HT16K33(address));
const frames = [];
displays.forEach((chip, index) => {
  const stop = chip.stop.bind(chip);
  chip.stop = () => {
    if (chip.wroteRam) frames.push({ ns: machine.clock.nanos, chip: index, ram: Array.from(chip.ram) });
    stop();
  };
});
attachI2C(mcu.i2c[board.i2c], displays);
for (const pin of Object.values(board.inputs)) machine.drive(pin, true); // open contacts

function press(name, holdMs = 80, bounceMs = 3) {
  const pin = board.inputs[name];
  const start = machine.clock.nanos;
  for (const [ns, high] of pressEdges(start, holdMs, bounceMs)) {
    if (ns > machine.clock.nanos) machine.run(ns - machine.clock.nanos);
    machine.drive(pin, high);
  }
}

/** CPU fraction, wake-ups a second and the longest gap between display frames over ns;
 *  with `turn` ({ pressNs, chip }: a turn begun by a lever press, its running display),
 *  how late each frame due in the window came (due_frames.mjs). */
function measure(ns, name, act = null, turn = null) {
  progress(name);
  const before = machine.meter.snapshot();
  const start = machine.clock.nanos;
  const [erases, programs] = [flash.erases.length, flash.programs.length];
  const firstFrame = frames.length;
  const heapBefore = heap && heap.snapshot();
  if (act) act(); // a press inside the window: its frames are counted from the edge on
  machine.run(Math.max(0, start + ns - machine.clock.nanos));
  const figures = Meter.between(before, machine.meter.snapshot());
  const windowFrames = frames.slice(firstFrame);
  const written = windowFrames.map((frame) => frame.ns);
  const times = [start, ...written, machine.clock.nanos];
  const gaps = [];
  for (let i = 1; i < times.length; i++) gaps.push((times[i] - times[i - 1]) / MS);
  figures.frames = written.length;
  figures.longestFrameGapMs = Math.max(...gaps);
  figures.frameTimesMs = written.map((ns) => Math.round((ns - start) / 1000) / 1000);
  if (turn) {
    const endNs = machine.clock.nanos;
    const due = dueFrames(frames, { ...turn, fromNs: start, endNs });
    figures.dueFrames = due.length;
    figures.dueFrameLatestMs = longestLateMs(due, endNs);
    figures.dueFramesNeverShown = due.filter((d) => d.lateMs === null).length;
  }
  if (heap) {
    const allocations = HeapWatch.between(heapBefore, heap.snapshot());
    figures.heapAllocations = allocations.calls;
    figures.heapAllocationsByFunction = allocations.byFunction;
    figures.sleeps = allocations.functionCalls.hal_sleep_Sleep_wait;
    figures.steps = allocations.functionCalls.firmware_app_App_step;
  }
  figures.erases = flash.erases.length - erases;
  figures.pagePrograms = flash.programs
    .slice(programs)
    .reduce((pages, p) => pages + Math.ceil(p.count / 256), 0);
  return figures;
}

/** MicroPython's ticks_ms at an instant of the emulator's clock: the timer's us / 1000. */
function tickAt(nanos) {
  return Math.floor(timer.usAt(nanos) / 1000) % TICKS_PERIOD;
}

const repl = new RawRepl(machine);
const result = { board: board.name, flash: options.flash, dreq: options.dreq };
result.bootToPromptMs = repl.waitPrompt() / MS;
result.imageBytes = machine.imageBytes;
const [heapTotal, heapAtPrompt] = repl
  .exec('import gc\ngc.collect()\nprint(gc.mem_free() + gc.mem_alloc(), gc.mem_alloc())')
  .trim()
  .split(/\s+/)
  .map(Number);
result.heapTotalBytes = heapTotal;
result.heapInUseAtPromptBytes = heapAtPrompt;
if (options['prompt-only']) {
  // The image at MicroPython's prompt, the clock not started: its heap and what the boot
  // wrote (the filesystem's format).
  result.flashAtBoot = { erases: flash.erases.length, programs: flash.programs.length };
  process.stdout.write(JSON.stringify(result, null, 1) + '\n');
  process.exit(0);
}

const settings = plan ?? (options.settings ? readSettings(options.settings) : null);
if (settings && settings.settingsHex !== null) {
  // The script's (or the scene's) settings file, the host's bytes, written before the clock boots.
  const said = repl.exec(settingsCode(settings)).trim().split(/\s+/);
  const bytes = settings.settingsHex.length / 2;
  if (said[0] !== 'SETTINGS' || said[1] !== 'True' || Number(said[2]) !== bytes) {
    throw new Error(`the settings file was not written: ${said.join(' ')}`);
  }
}
// The clock's own boot (hal.boot.run's two steps), with the heap it takes between them.
repl.launch(
  [
    'import gc, machine',
    'gc.collect()',
    'before = gc.mem_alloc()',
    'from hal import boot',
    `app = boot.start(${JSON.stringify(board.name)})`,
    'gc.collect()',
    "print('BOOTED', gc.mem_alloc() - before, gc.mem_alloc(), machine.freq(),",
    '    app.hardware.ticker.next_step())',
    'from hal.runtime import loop',
    'loop(app, app.hardware, app.hall)',
  ].join('\n'),
);
progress('the clock boots');
if (machine.runUntil('BOOTED', 30_000 * MS) < 0) {
  throw new Error(`the clock did not boot; the console said:\n${machine.console}`);
}
machine.run(100 * MS);
const booted = machine.console.slice(machine.console.indexOf('BOOTED')).split('\n')[0];
const [, bootHeap, inUse, freq, gridTick] = booted.trim().split(/\s+/).map(Number);
result.heapTakenByBootBytes = bootHeap;
result.heapInUseAfterBootBytes = inUse;
result.cpuHz = freq;
result.erasesAtBoot = flash.erases.length;

const states = {};
machine.run(500 * MS); // the boot's last steps settle
if (plan) {
  // A clock script (bench/port_script.py), started on the clock's tick grid (hal.ticker,
  // started at its boot) as the runner's board, which boots at the script's 0, steps on a
  // grid through it.
  const lane = { machine, displays, flash, repl, inputs: board.inputs, tickAt, gridTick };
  Object.assign(result, playPlan(lane, plan));
  // Past a pipe's 64 KiB the write completes later: the lane ends once it has.
  process.stdout.write(JSON.stringify(result, null, 1) + '\n', () => process.exit(0));
  await new Promise(() => {});
}
if (options['presses-only']) {
  // The capture under this DREQ semantics: two lever presses while the clock stands, the DMA's
  // transfers they caused, counted (the ring's preparation not waited for).
  const pressesAt = [];
  for (const lever of ['lever_right', 'lever_left']) {
    const before = captureTransfers;
    pressesAt.push(machine.clock.nanos / MS);
    progress(`${lever} pressed`);
    press(lever);
    machine.run(300 * MS);
    result[`captureTransfers_${lever}`] = captureTransfers - before;
  }
  result.pressesAtMs = pressesAt;
  result.dmaStorms = storms;
  result.consoleTail = machine.console.slice(-400);
  process.stdout.write(JSON.stringify(result, null, 1) + '\n');
  process.exit(0);
}
const erasesAtStart = flash.erases.length;
if (!options.scene) states.preparing = measure(windowNs, 'standing, the ring being prepared');
// The ring's preparation: done when no erase came for PREPARED_QUIET_NS (at most
// PREPARATION_LIMIT_NS of simulated time).
const PREPARED_QUIET_NS = 3000 * MS;
const PREPARATION_LIMIT_NS = 240_000 * MS;
progress('waiting for the ring to be prepared');
while (!options['no-preparation-wait'] && machine.clock.nanos < PREPARATION_LIMIT_NS) {
  const last = flash.erases.length ? flash.erases.at(-1).atNs : 0;
  if (machine.clock.nanos - last >= PREPARED_QUIET_NS) break;
  machine.run(500 * MS);
}
const prepErases = flash.erases.slice(erasesAtStart);
const gaps = prepErases.slice(1).map((e, i) => (e.atNs - prepErases[i].atNs) / MS);
gaps.sort((a, b) => a - b);
result.preparation = {
  erases: prepErases.length,
  medianMsBetweenErases: gaps.length ? gaps[Math.floor(gaps.length / 2)] : null,
  firstToLastMs: prepErases.length ? (prepErases.at(-1).atNs - prepErases[0].atNs) / MS : 0,
  doneAtMs: prepErases.length ? prepErases.at(-1).atNs / MS : null,
};
if (options.scene) {
  // A scene on the prepared clock (scenes.mjs), its figures beside the boot's.
  const pressAfterMs = options['press-after-ms'] ? Number(options['press-after-ms']) : null;
  const scene = { machine, press, measure, flash, frames, repl, pressAfterMs };
  Object.assign(result, SCENES[options.scene](scene));
  result.consoleTail = machine.console.slice(-400);
  process.stdout.write(JSON.stringify(result, null, 1) + '\n');
  process.exit(0);
}
states.standing = measure(windowNs, 'standing');
const erasesBefore = flash.erases.length;
const programsBefore = flash.programs.length;
// Right ends its turn: the game starts with left's clock running (display 0).
let turnStart = machine.clock.nanos;
states.firstMove = measure(2000 * MS, 'firstMove', () => press('lever_right'), {
  pressNs: turnStart,
  chip: 0,
});
// Left moves (right's clock runs, display 1): the move's own window, then the clock running
// with nothing pressed, from a second after the press.
turnStart = machine.clock.nanos;
states.move = measure(1000 * MS, 'move', () => press('lever_left'), { pressNs: turnStart, chip: 1 });
states.running = measure(windowNs, 'running', null, { pressNs: turnStart, chip: 1 });
states.paused = measure(windowNs, 'paused', () => press('play'));
states.menus = measure(windowNs, 'menus', () => press('set'));
result.states = states;
result.captureTransfers = captureTransfers;
result.dmaStorms = storms;
result.flashAfterStart = {
  erases: flash.erases.length - erasesBefore,
  programs: flash.programs.length - programsBefore,
  busyMs:
    flash.erases.slice(erasesBefore).reduce((t, e) => t + e.ms, 0) +
    flash.programs.slice(programsBefore).reduce((t, p) => t + p.ms, 0),
};
result.displays = displays.map((chip) => ({
  address: chip.address,
  lit: chip.lit,
  duty: chip.duty,
  blinkHz: [0, 2, 1, 0.5][chip.blink],
  ram: Array.from(chip.ram.slice(0, 10)),
}));
result.consoleTail = machine.console.slice(-400);
process.stdout.write(JSON.stringify(result, null, 1) + '\n');
