// A clock script's plan (script_plan.mjs) played on the booted image: from its start on the
// clock's tick grid, each press at its time, then, at the script's end, the clock's fields
// read over the REPL at that instant's tick (the loop stopped by Ctrl-C) and the displays.

import { pressEdges } from './inputs.mjs';
import { gridShiftMs } from './script_plan.mjs';

const MS = 1_000_000;
// The ring still being prepared at the start (an erase within this before it): the script
// would meet PrEP, which the simulator's ideal flash never shows; the start waits.
const PREPARED_QUIET_MS = 3000;
// How much later than planned a script may start, waiting for the ring, looked at this often.
const PREPARATION_LIMIT_MS = 240_000;
const PREPARED_STEP_MS = 100;
// After the end: the pass woken at the end's instant drawn within this, watched in slices.
const SETTLE_LIMIT_MS = 100;
const SETTLE_SLICE_NS = 10_000;
// A sleep at least this long ends a pass: the core's waits inside one (I2C, the flash) are
// shorter.
const PASS_GAP_NS = 1_000_000;
// The displays' last changes kept in the lane's document (a game of hours has thousands).
const SCREENS_KEPT = 200;

/** Every edge of the plan's presses, [ns, GPIO, high], in time order: presses that overlap
 *  (a key held while a lever is pressed) interleave their edges, each contact chattering
 *  for the plan's bounce at its press and its release. */
export function planEdges(plan, startNs, inputs) {
  const edges = [];
  for (const [timeMs, what, name, holdMs] of plan.steps) {
    if (what !== 'press') continue;
    for (const [ns, high] of pressEdges(startNs + timeMs * MS, holdMs, plan.bounceMs)) {
      edges.push([ns, inputs[name], high]);
    }
  }
  return edges.sort((a, b) => a[0] - b[0]); // stable: one contact's edges keep their order
}

/** The displays as they change, each [ms from `startNs`, the RAM of both as text]; each
 *  I2C transfer's end to them told to `onStop`. */
function watchScreens(machine, displays, startNs, onStop) {
  const screens = [];
  let last = '';
  for (const chip of displays) {
    const stop = chip.stop;
    chip.stop = () => {
      stop();
      onStop();
      const now = displays.map((c) => Array.from(c.ram.slice(0, 10)).join(',')).join('|');
      if (now !== last) {
        last = now;
        screens.push([Math.round((machine.clock.nanos - startNs) / 1000) / 1000, now]);
      }
    };
  }
  return screens;
}

/** Plays `plan` on the booted clock; its figures. `board` holds the lane's parts: machine,
 *  displays, flash, repl, inputs (the board's GPIO of each input), tickAt(nanos) (ticks_ms then),
 *  gridTick (a tick of the clock's grid). The script starts at plan.startMs from power-up,
 *  or once the ring is prepared if later, on the grid. */
export function playPlan(board, plan) {
  const { machine, displays, flash, repl, inputs, tickAt } = board;
  const { mcu } = machine;
  const result = {};
  if (machine.clock.nanos > plan.startMs * MS) {
    throw new Error(`the clock booted at ${machine.clock.nanos / MS} ms, after the script's start`);
  }
  machine.run(plan.startMs * MS - machine.clock.nanos);
  // A ring still being prepared then (a control of many hours): the start waits for it.
  const lastEraseNs = () => (flash.erases.length ? flash.erases.at(-1).atNs : -Infinity);
  const waitUntilNs = (plan.startMs + PREPARATION_LIMIT_MS) * MS;
  const preparing = () => machine.clock.nanos - lastEraseNs() < PREPARED_QUIET_MS * MS;
  while (preparing() && machine.clock.nanos < waitUntilNs) machine.run(PREPARED_STEP_MS * MS);
  const fromMs = Math.ceil(machine.clock.nanos / MS);
  const startMs = fromMs + gridShiftMs(tickAt(fromMs * MS), board.gridTick, plan.gridMs);
  const startNs = startMs * MS;
  machine.run(startNs - machine.clock.nanos);
  result.startMs = startMs;
  result.lastEraseBeforeStartMs = flash.erases.length ? (lastEraseNs() - startNs) / MS : null;
  result.preparedAtStart = startNs - lastEraseNs() >= PREPARED_QUIET_MS * MS;
  result.ticksAtStartMs = tickAt(startNs);
  const endNs = startNs + plan.endMs * MS;
  // The runner reads its board after a pass of the main loop at the script's last instant.
  // On the port a pass wakes at its tick of the grid and draws up to tens of ms later: the
  // displays read are as the frames of passes woken before the grid's next tick after the
  // end left them, watched for SETTLE_LIMIT_MS; frames of later passes are the board's
  // later time. The loop is stopped (Ctrl-C) once asleep after that, the end's pass done.
  const nextTickNs = endNs + plan.gridMs * MS;
  let wokeNs = -Infinity; // when the pass under way woke
  let atEnd = null; // the displays' RAM as the end's passes left them
  const screens = watchScreens(machine, displays, startNs, () => {
    if (machine.clock.nanos >= endNs && wokeNs < nextTickNs) {
      atEnd = displays.map((chip) => Array.from(chip.ram));
    }
  });
  for (const [ns, pin, high] of planEdges(plan, startNs, inputs)) {
    if (ns > machine.clock.nanos) machine.run(ns - machine.clock.nanos);
    machine.drive(pin, high);
  }
  if (endNs > machine.clock.nanos) machine.run(endNs - machine.clock.nanos);
  atEnd = displays.map((chip) => Array.from(chip.ram));
  wokeNs = mcu.core.waiting ? -Infinity : endNs - 1; // a pass under way woke before the end
  let asleepNs = 0;
  const limitNs = endNs + SETTLE_LIMIT_MS * MS;
  while (machine.clock.nanos < limitNs || !mcu.core.waiting) {
    const wasAsleep = mcu.core.waiting;
    machine.run(SETTLE_SLICE_NS);
    if (!mcu.core.waiting && wasAsleep && asleepNs >= PASS_GAP_NS) wokeNs = machine.clock.nanos;
    asleepNs = mcu.core.waiting ? asleepNs + SETTLE_SLICE_NS : 0;
    if (machine.clock.nanos > limitNs + SETTLE_LIMIT_MS * MS) break; // a pass that never ends
  }
  result.displays = atEnd;
  machine.type('\x03');
  machine.run(300 * MS);
  const fields = repl.exec(
    [
      'from firmware import engine',
      `c = app.clock; k = app.claims; t = ${tickAt(endNs)}`,
      's = engine.STATE_NAMES[c.state]',
      "if k.state == 'open' and c.state == engine.PAUSED: s = 'claim'",
      'f = c.sides',
      "print('STATE', repr((s, c.shown_ms(0, t), c.shown_ms(1, t), c.running(), c.white,",
      '    c.moves(), c.stage(0, t), c.stage(1, t), f[0].flagged, f[1].flagged, c.first_flag,',
      '    k.field(), k.result)))',
    ].join('\n'),
  );
  result.stateFields = fields.slice(fields.indexOf('STATE') + 6).trim();
  // The flash's erases during the script, from its start: what could hold a key back.
  result.erasesMs = flash.erases
    .filter((erase) => erase.atNs >= startNs && erase.atNs <= endNs)
    .map((erase) => [Math.round((erase.atNs - startNs) / 1000) / 1000, erase.ms]);
  result.screens = screens.slice(-SCREENS_KEPT);
  return result;
}
