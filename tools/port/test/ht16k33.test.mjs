import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HT16K33 } from '../ht16k33.mjs';

function write(chip, ...bytes) {
  chip.start();
  for (const b of bytes) chip.writeByte(b);
  chip.stop();
}

test('starts in standby with the display off', () => {
  const chip = new HT16K33(0x70);
  assert.equal(chip.lit, false);
  assert.equal(chip.frame(), null);
  assert.equal(chip.duty, 1);
});

test('lights only with the oscillator on and the display on', () => {
  const chip = new HT16K33(0x70);
  write(chip, 0x81);
  assert.equal(chip.lit, false);
  write(chip, 0x21);
  assert.equal(chip.lit, true);
  write(chip, 0x20);
  assert.equal(chip.lit, false);
});

test('writes RAM from any start address and wraps from 0x0F to 0x00', () => {
  const chip = new HT16K33(0x70);
  write(chip, 0x0e, 1, 2, 3);
  assert.deepEqual([chip.ram[14], chip.ram[15], chip.ram[0]], [1, 2, 3]);
  write(chip, 0x0f, 9);
  assert.equal(chip.ram[15], 9);
  assert.equal(chip.writes, 2);
});

test('a command byte alone leaves the RAM and counts no frame', () => {
  const chip = new HT16K33(0x70);
  write(chip, 0x00, 0x3f);
  write(chip, 0x05);
  assert.equal(chip.ram[0], 0x3f);
  assert.equal(chip.writes, 1);
});

test('reads the RAM from the pointer on', () => {
  const chip = new HT16K33(0x70);
  write(chip, 0x02, 0x06, 0x5b);
  write(chip, 0x02);
  chip.start();
  assert.equal(chip.readByte(), 0x06);
  assert.equal(chip.readByte(), 0x5b);
});

test('blink rate and dimming at their limits', () => {
  const chip = new HT16K33(0x70);
  write(chip, 0x87);
  assert.equal(chip.blink, 3);
  assert.equal(chip.displayOn, true);
  write(chip, 0x80);
  assert.equal(chip.blink, 0);
  assert.equal(chip.displayOn, false);
  write(chip, 0xe0);
  assert.equal(chip.duty, 1 / 16);
  write(chip, 0xef);
  assert.equal(chip.duty, 1);
});
