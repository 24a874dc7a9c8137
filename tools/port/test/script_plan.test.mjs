import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  gridShiftMs,
  NEAR_WRAP_US,
  nearWrapAtPowerUpUs,
  parsePlan,
  readSettings,
  settingsCode,
  TICKS_PERIOD,
  ticksDiff,
} from '../script_plan.mjs';

const INPUTS = { lever_left: 14, lever_right: 15, set: 17 };
const PLAN = {
  steps: [
    [0, 'press', 'lever_right', 80],
    [1500, 'press', 'set', 80],
    [9000, 'read', 'expect', 0],
  ],
  endMs: 9000,
  bounceMs: 3,
  startMs: 20000,
  gridMs: 20,
  nearWrap: false,
  settingsPath: '/settings.json',
  settingsHex: '7b7d',
};

const plan = (changes) => JSON.stringify({ ...PLAN, ...changes });

test('a plan as bench/port_script.py writes it is taken', () => {
  assert.deepEqual(parsePlan(plan({}), INPUTS), PLAN);
  assert.equal(parsePlan(plan({ settingsPath: null, settingsHex: null }), INPUTS).settingsHex, null);
});

test('a wrong plan is refused with the field it lacks', () => {
  assert.throws(() => parsePlan(plan({ startMs: undefined }), INPUTS), /startMs/);
  assert.throws(() => parsePlan(plan({ gridMs: 0 }), INPUTS), /gridMs/);
  assert.throws(() => parsePlan(plan({ settingsHex: '7b7' }), INPUTS), /settingsHex/);
  assert.throws(() => parsePlan(plan({ settingsPath: 'settings.json' }), INPUTS), /settingsPath/);
  assert.throws(() => parsePlan(plan({ settingsHex: null }), INPUTS), /go together/);
  assert.throws(() => parsePlan(plan({ steps: [[0, 'press', 'minus', 80]] }), INPUTS), /no input minus/);
  assert.throws(() => parsePlan(plan({ steps: [[0, 'unplug', 'left', 0]] }), INPUTS), /step/);
});

test('steps in time order within the script, its end included, not past it', () => {
  const late = [[9000, 'press', 'set', 80]];
  assert.equal(parsePlan(plan({ steps: late }), INPUTS).steps.length, 1);
  assert.throws(() => parsePlan(plan({ steps: [[9001, 'press', 'set', 80]] }), INPUTS), /past the end/);
  const back = [[5, 'press', 'set', 80], [4, 'press', 'set', 80]];
  assert.throws(() => parsePlan(plan({ steps: back }), INPUTS), /out of order/);
});

test('ticks_diff across the wrap', () => {
  assert.equal(ticksDiff(5, TICKS_PERIOD - 5), 10);
  assert.equal(ticksDiff(TICKS_PERIOD - 5, 5), -10);
  assert.equal(ticksDiff(7, 7), 0);
});

test('the start moves to the grid: none on it, up to a period less one just past it', () => {
  assert.equal(gridShiftMs(1000, 40, 20), 0);
  assert.equal(gridShiftMs(1001, 40, 20), 19);
  assert.equal(gridShiftMs(1019, 40, 20), 1);
  assert.equal(gridShiftMs(1000, 1020, 20), 0); // a grid tick after the start: the same grid
  // The period (2**30) is no multiple of 20: the grid follows ticks_diff across the wrap.
  assert.equal(gridShiftMs(3, TICKS_PERIOD - 17, 20), 0);
  assert.equal(gridShiftMs(4, TICKS_PERIOD - 17, 20), 19);
});

test('near the wrap: the ticks read 10 s before it at the start, in ms and in us', () => {
  const atPowerUp = nearWrapAtPowerUpUs(PLAN);
  const atStartUs = atPowerUp + PLAN.startMs * 1000;
  assert.equal(atStartUs, NEAR_WRAP_US);
  assert.equal(Math.floor(atStartUs / 1000) % TICKS_PERIOD, TICKS_PERIOD - 10_000);
  assert.equal(atStartUs % TICKS_PERIOD, TICKS_PERIOD - 10_000_000);
});

test("the settings' code writes the plan's bytes at its path and reads them back", () => {
  const code = settingsCode(PLAN);
  assert.match(code, /unhexlify\("7b7d"\)/);
  assert.match(code, /open\("\/settings.json", 'wb'\)/);
  assert.match(code, /open\("\/settings.json", 'rb'\)/);
});

test('a settings file for a scene has both fields, a path and bytes', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const folder = mkdtempSync(join(tmpdir(), 'settings-'));
  const write = (value) => {
    const path = join(folder, 'settings.json');
    writeFileSync(path, JSON.stringify(value));
    return path;
  };
  const good = { settingsPath: '/settings.json', settingsHex: '7b7d' };
  assert.deepEqual(readSettings(write(good)), good);
  assert.throws(() => readSettings(write({ settingsPath: '/settings.json' })), /settingsHex/);
  assert.throws(() => readSettings(write({ ...good, settingsHex: null })), /settingsHex/);
  assert.throws(() => readSettings(write({ ...good, settingsPath: 'settings.json' })), /settingsPath/);
  assert.throws(() => readSettings(write({ ...good, settingsHex: '7b7' })), /settingsHex/);
});
