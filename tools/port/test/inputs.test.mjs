import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contactEdges, pressEdges } from '../inputs.mjs';

test('a clean contact (no bounce) is one edge to low', () => {
  assert.deepEqual(contactEdges(1000, true, 0), [[1000, false]]);
  assert.deepEqual(contactEdges(1000, false, 0), [[1000, true]]);
});

test('3 ms of bounce: six bounces, then the line settles at the new level', () => {
  const edges = contactEdges(0, true, 3);
  assert.equal(edges.length, 13);
  assert.deepEqual(edges.at(-1), [3_000_000, false]);
  // It first goes low at the press itself, then back up half a period later.
  assert.deepEqual(edges.slice(0, 2), [
    [0, false],
    [250_000, true],
  ]);
  for (let i = 1; i < edges.length; i++) assert.ok(edges[i][0] > edges[i - 1][0]);
});

test('a press opens holdMs after it closed, and ends high', () => {
  const edges = pressEdges(0, 100, 1);
  assert.deepEqual(edges.at(-1), [101_000_000, true]);
  assert.deepEqual(edges.find(([ns]) => ns === 100_000_000), [100_000_000, true]);
});
