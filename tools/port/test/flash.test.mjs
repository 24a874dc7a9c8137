import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eraseMs, programMs, romFunctions, W25Q16JV_MS } from '../flash.mjs';

const typ = W25Q16JV_MS.typical;
const max = W25Q16JV_MS.maximum;

test('the datasheet times of the W25Q16JV', () => {
  assert.deepEqual(typ, { sector4k: 45, block32k: 120, block64k: 150, page: 0.7 });
  assert.deepEqual(max, { sector4k: 400, block32k: 1600, block64k: 2000, page: 3 });
});

test('one sector erase is tSE, typical and maximum', () => {
  assert.equal(eraseMs(0x1000, 4096, 65536, 0xd8, typ), 45);
  assert.equal(eraseMs(0x1000, 4096, 65536, 0xd8, max), 400);
});

test('a whole aligned 64 KiB block takes one block erase, one sector more does not', () => {
  assert.equal(eraseMs(0x10000, 65536, 65536, 0xd8, typ), 150);
  assert.equal(eraseMs(0x10000, 65536 + 4096, 65536, 0xd8, typ), 195);
  // Not aligned: sixteen sector erases.
  assert.equal(eraseMs(0x11000, 65536, 65536, 0xd8, typ), 16 * 45);
});

test('a page program per 256-byte page touched', () => {
  assert.equal(programMs(0, 256, typ), 0.7);
  assert.equal(programMs(0, 257, typ), 1.4);
  assert.equal(programMs(255, 2, max), 6);
  assert.equal(programMs(0, 0, max), 0);
});

test('finds the flash functions in a bootrom function table', () => {
  // A made-up bootrom: the table pointer at 0x14 points at 0x40: 'RE' -> 0x101, 'RP' -> 0x201.
  const rom = new Uint32Array(0x100);
  rom[0x14 >> 2] = 0x40;
  rom[0x40 >> 2] = (0x101 << 16) | (0x45 << 8) | 0x52;
  rom[0x44 >> 2] = (0x201 << 16) | (0x50 << 8) | 0x52;
  const functions = romFunctions(rom);
  assert.equal(functions.get('RE'), 0x100);
  assert.equal(functions.get('RP'), 0x200);
  assert.equal(functions.size, 2);
});
