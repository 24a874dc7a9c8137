import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DreqCredits } from '../dreq.mjs';

test('a credit per push: two pushes give exactly two transfers', () => {
  const credits = new DreqCredits();
  credits.push(4);
  credits.push(4);
  assert.equal(credits.take(4), true);
  assert.equal(credits.take(4), false);
  assert.equal(credits.standing(4), false);
});

test('no push, no transfer; a take without credit stays at zero', () => {
  const credits = new DreqCredits();
  assert.equal(credits.standing(4), false);
  assert.equal(credits.take(4), false);
  credits.push(4);
  assert.equal(credits.standing(4), true);
});

test('the DREQs count apart', () => {
  const credits = new DreqCredits();
  credits.push(4);
  assert.equal(credits.standing(5), false);
  assert.equal(credits.take(5), false);
  assert.equal(credits.standing(4), true);
});

test('the hook follows the transfer function the channel picks at each CTRL write', async () => {
  const { afterTransfer } = await import('../dreq.mjs');
  const calls = [];
  const channel = { transferFn: () => calls.push('first') };
  afterTransfer(channel, () => calls.push('after'));
  channel.transferFn();
  channel.transferFn = () => calls.push('second'); // as a CTRL write does
  channel.transferFn();
  assert.deepEqual(calls, ['first', 'after', 'second', 'after']);
});

test('two hooks on one channel both run, also after a CTRL write', async () => {
  const { afterTransfer } = await import('../dreq.mjs');
  const calls = [];
  const channel = { transferFn: () => calls.push('transfer') };
  afterTransfer(channel, () => calls.push('credit'));
  afterTransfer(channel, () => calls.push('count'));
  channel.transferFn = () => calls.push('transfer');
  channel.transferFn();
  assert.deepEqual(calls, ['transfer', 'credit', 'count']);
});
