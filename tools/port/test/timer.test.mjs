import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimer, TIMER_BASE, writableTimer } from '../timer.mjs';

// The real rp2040js timer, where `make port-setup` installed the emulator; skipped otherwise.
let rp2040js = null;
try {
  rp2040js = await import('rp2040js');
} catch {
  rp2040js = null;
}
const needs = { skip: rp2040js ? false : 'rp2040js is not installed (make port-setup)' };
const TIMERAWH = TIMER_BASE + 0x24;
const TIMERAWL = TIMER_BASE + 0x28;
const TIMEHR = TIMER_BASE + 0x08;
const TIMELR = TIMER_BASE + 0x0c;
const ALARM0 = TIMER_BASE + 0x10;
const INTR = TIMER_BASE + 0x34;
const INTE = TIMER_BASE + 0x38;
// The simulator's `ticks near-wrap`: ticks_ms and ticks_us both 10 s before their 2**30 wrap.
const NEAR_WRAP_US = 2 ** 30 * 1000 - 10_000_000;

function board() {
  const { clock, rp2040: mcu } = new rp2040js.Simulator();
  writableTimer(mcu.findPeripheral(TIMER_BASE), clock);
  return { clock, mcu };
}

const time = (mcu) => mcu.readUint32(TIMERAWH) * 2 ** 32 + mcu.readUint32(TIMERAWL);

test('TIMELW then TIMEHW set the time, which goes on from there', needs, () => {
  const { clock, mcu } = board();
  clock.tick(3_000_000); // 3 ms after power-up
  setTimer(mcu, NEAR_WRAP_US);
  assert.equal(time(mcu), NEAR_WRAP_US);
  clock.tick(1_500_000);
  assert.equal(time(mcu), NEAR_WRAP_US + 1500);
  // The latched pair reads the same time: TIMELR then TIMEHR.
  const low = mcu.readUint32(TIMELR);
  assert.equal(mcu.readUint32(TIMEHR) * 2 ** 32 + low, NEAR_WRAP_US + 1500);
  // ticks_ms and ticks_us (MicroPython's rp2: the time's us, and its us / 1000, mod 2**30)
  assert.equal(Math.floor(time(mcu) / 1000) % 2 ** 30, 2 ** 30 - 10_000 + 1);
  assert.equal(time(mcu) % 2 ** 30, 2 ** 30 - 10_000_000 + 1500);
});

test('TIMELW alone changes nothing until TIMEHW is written', needs, () => {
  const { clock, mcu } = board();
  clock.tick(2_000_000);
  mcu.writeUint32(TIMER_BASE + 0x04, 12345);
  assert.equal(time(mcu), 2000);
});

test('an alarm matches the written time, not the emulator clock', needs, () => {
  const { clock, mcu } = board();
  setTimer(mcu, NEAR_WRAP_US);
  mcu.writeUint32(INTE, 1);
  mcu.writeUint32(ALARM0, (NEAR_WRAP_US + 100) >>> 0);
  assert.equal(mcu.readUint32(ALARM0), (NEAR_WRAP_US + 100) >>> 0);
  clock.tick(99_000);
  assert.equal(mcu.readUint32(INTR) & 1, 0);
  clock.tick(1_000);
  assert.equal(mcu.readUint32(INTR) & 1, 1);
});
