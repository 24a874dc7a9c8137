import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planEdges } from '../play_plan.mjs';

const MS = 1_000_000;
const INPUTS = { set: 17, play: 16 };

test('a press made while a key is held lands inside the hold, not after it', () => {
  // timing/order-key-from-a-running-clock: set held from 10 s to 13 s, play at 10.5 s.
  const plan = {
    bounceMs: 0,
    steps: [
      [10_000, 'press', 'set', 3000],
      [10_500, 'press', 'play', 80],
      [12_000, 'read', 'expect', 0],
    ],
  };
  assert.deepEqual(planEdges(plan, 0, INPUTS), [
    [10_000 * MS, 17, false],
    [10_500 * MS, 16, false],
    [10_580 * MS, 16, true],
    [13_000 * MS, 17, true],
  ]);
});

test("each contact's bounce keeps its order, from the plan's start", () => {
  const plan = { bounceMs: 1, steps: [[0, 'press', 'play', 80]] };
  const edges = planEdges(plan, 5 * MS, INPUTS);
  assert.deepEqual(
    edges.map(([ns, , high]) => [ns / MS, high]),
    // inputs.mjs: a bounce every 0.5 ms, the old level for its second half, then settled
    [
      [5, false],
      [5.25, true],
      [5.5, false],
      [5.75, true],
      [6, false],
      [85, true],
      [85.25, false],
      [85.5, true],
      [85.75, false],
      [86, true],
    ],
  );
});
