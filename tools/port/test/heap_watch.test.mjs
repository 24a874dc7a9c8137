import assert from 'node:assert/strict';
import { test } from 'node:test';
import { symbolAt } from '../heap_watch.mjs';

const symbols = [
  [0x1000, 'gc_alloc'],
  [0x1040, 'm_malloc_maybe'],
  [0x2000, 'fun_data_hal_ticker_Ticker_ms_left'],
];

test('an address is named by the symbol at or below it', () => {
  assert.equal(symbolAt(symbols, 0x1000), 'gc_alloc');
  assert.equal(symbolAt(symbols, 0x103f), 'gc_alloc');
  assert.equal(symbolAt(symbols, 0x1040), 'm_malloc_maybe');
  assert.equal(symbolAt(symbols, 0x2005), 'fun_data_hal_ticker_Ticker_ms_left');
});

test('an address below every symbol, or no symbols, has no name', () => {
  assert.equal(symbolAt(symbols, 0xfff), null);
  assert.equal(symbolAt([], 0x1000), null);
});
