// A clock script as the lane plays it (--plan FILE, written by bench/port_script.py): the
// settings file the simulator's runner gives its board before boot, the instant the script
// starts (simulated ms from power-up, the same for every script so that its ticks are known
// before the boot), whether the timer starts near its wrap, and the contacts' presses.

import { readFileSync } from 'node:fs';

// The simulator's `ticks near-wrap` (sim/vclock.py): ticks_ms 10 s before its 2**30 wrap
// and ticks_us 10 s before its own. On the rp2 both come from the timer's microseconds
// (ticks_us its low 30 bits, ticks_ms its thousandths'), so one time gives both.
export const TICKS_PERIOD = 2 ** 30;
export const NEAR_WRAP_MS = 10_000;
export const NEAR_WRAP_US = TICKS_PERIOD * 1000 - NEAR_WRAP_MS * 1000;

const FIELDS = {
  steps: Array.isArray,
  endMs: Number.isInteger,
  bounceMs: Number.isInteger,
  startMs: Number.isInteger,
  gridMs: (value) => Number.isInteger(value) && value > 0,
  nearWrap: (value) => typeof value === 'boolean',
  settingsPath: (value) => value === null || (typeof value === 'string' && value.startsWith('/')),
  settingsHex: (value) => value === null || /^([0-9a-f]{2})+$/.test(value),
};

/** The plan in `text`, checked: each field present and of its kind, each step
 *  `[ms, 'press', input, holdMs]` or `[ms, 'read', what, 0]` in time order within the script. */
export function parsePlan(text, inputs) {
  const plan = JSON.parse(text);
  for (const [name, valid] of Object.entries(FIELDS)) {
    if (!(name in plan) || !valid(plan[name])) throw new Error(`plan: ${name} is missing or wrong`);
  }
  if ((plan.settingsPath === null) !== (plan.settingsHex === null)) {
    throw new Error('plan: settingsPath and settingsHex go together');
  }
  let last = 0;
  for (const step of plan.steps) {
    const [ms, what, name] = step;
    if (!Number.isInteger(ms) || ms < last || ms > plan.endMs) {
      throw new Error(`plan: step ${JSON.stringify(step)} is out of order or past the end`);
    }
    if (what === 'press' && !(name in inputs)) throw new Error(`plan: no input ${name}`);
    if (what !== 'press' && what !== 'read') throw new Error(`plan: step ${JSON.stringify(step)}`);
    last = ms;
  }
  return plan;
}

export function readPlan(path, inputs) {
  return parsePlan(readFileSync(path, 'utf8'), inputs);
}

/** ticks_diff(a, b) of MicroPython: a - b in the ticks' period, signed. */
export function ticksDiff(a, b) {
  const half = TICKS_PERIOD / 2;
  return ((((a - b + half) % TICKS_PERIOD) + TICKS_PERIOD) % TICKS_PERIOD) - half;
}

/** The ms from tick `tick` to the first tick of the grid (every `gridMs`, through `gridTick`)
 *  at or after it. */
export function gridShiftMs(tick, gridTick, gridMs) {
  return (((-ticksDiff(tick, gridTick)) % gridMs) + gridMs) % gridMs;
}

/** The timer's time at power-up that makes it read NEAR_WRAP_US at the script's start. */
export function nearWrapAtPowerUpUs(plan) {
  return NEAR_WRAP_US - plan.startMs * 1000;
}

/** MicroPython code for the raw REPL that writes the plan's settings file (its bytes as the
 *  host made them) and prints its length read back. */
export function settingsCode(plan) {
  return [
    'import binascii',
    `data = binascii.unhexlify(${JSON.stringify(plan.settingsHex)})`,
    `with open(${JSON.stringify(plan.settingsPath)}, 'wb') as f: f.write(data)`,
    `with open(${JSON.stringify(plan.settingsPath)}, 'rb') as f: back = f.read()`,
    "print('SETTINGS', back == data, len(back))",
  ].join('\n');
}

/** A settings file to write before the clock boots (--settings): `{settingsPath,
 *  settingsHex}`, checked as a plan's. */
export function readSettings(path) {
  const settings = JSON.parse(readFileSync(path, 'utf8'));
  for (const name of ['settingsPath', 'settingsHex']) {
    if (!(name in settings) || !FIELDS[name](settings[name]) || settings[name] === null) {
      throw new Error(`settings: ${name} is missing or wrong`);
    }
  }
  return settings;
}
