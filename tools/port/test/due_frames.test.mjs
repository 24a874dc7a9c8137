import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dueFrames, longestLateMs, markLit } from '../due_frames.mjs';

const MS = 1_000_000;
const ram = (lit) => {
  const bytes = new Array(16).fill(0x3f);
  bytes[8] = lit ? 0xbf : 0x3f; // digit 4: a 0, its point lit or not
  return bytes;
};
const frame = (ms, chip, lit) => ({ ns: ms * MS, chip, ram: ram(lit) });

test('digit 4 point is RAM byte 8, bit 7', () => {
  assert.equal(markLit(ram(true)), true);
  assert.equal(markLit(ram(false)), false);
});

test('each half second of a turn is due on the running side with the mark as docs say', () => {
  // The press at 1000 ms; frames 12 ms after each due instant, the mark right.
  const frames = [frame(990, 1, true), frame(1012, 1, false), frame(1512, 1, true), frame(2012, 1, false)];
  const due = dueFrames(frames, { pressNs: 1000 * MS, chip: 1, endNs: 2400 * MS });
  assert.deepEqual(
    due.map((d) => [d.atMs, d.lateMs]),
    [
      [1000, 12],
      [1500, 12],
      [2000, 12],
    ],
  );
  assert.equal(longestLateMs(due, 2400 * MS), 12);
});

test('a frame on the other display, or with the mark wrong, does not show a turn', () => {
  const frames = [frame(1001, 1, false), frame(1505, 0, true), frame(1510, 1, false), frame(1560, 1, true)];
  const due = dueFrames(frames, { pressNs: 1000 * MS, chip: 1, endNs: 1900 * MS });
  assert.equal(due[1].lateMs, 60);
});

test('a press that changes nothing on the running display is shown already', () => {
  const due = dueFrames([frame(900, 1, false)], { pressNs: 1000 * MS, chip: 1, endNs: 1400 * MS });
  assert.deepEqual(due, [{ atMs: 1000, lateMs: 0 }]);
});

test('a due frame never shown is late until the window ends', () => {
  const due = dueFrames([frame(1003, 1, false)], { pressNs: 1000 * MS, chip: 1, endNs: 1800 * MS });
  assert.equal(due[1].lateMs, null);
  assert.equal(longestLateMs(due, 1800 * MS), 300);
});

test('a window that starts later in the turn judges only its own instants', () => {
  const frames = [frame(2502, 1, true)];
  const due = dueFrames(frames, { pressNs: 1000 * MS, chip: 1, fromNs: 2200 * MS, endNs: 2700 * MS });
  assert.deepEqual(due, [{ atMs: 2500, lateMs: 2 }]);
});
