// The HT16K33 LED driver as its datasheet (Holtek, rev. 1.10) describes it to an I2C master:
// 16 bytes of display RAM behind an address pointer that any write may set (0x00..0x0F) and
// that auto-increments, wrapping from 0x0F to 0x00; the system setup command (0x20 | S) that
// starts the oscillator (S=1) or puts the chip in standby (S=0); the display setup command
// (0x80 | B1 B0 D) with display on/off and blinking off, 2 Hz, 1 Hz or 0.5 Hz; the dimming
// command (0xE0 | P) for a duty of (P + 1)/16. A read returns the RAM from the pointer on.
// The display shows anything only with the oscillator running and the display on.

export const BLINK_HZ = [0, 2, 1, 0.5];

export class HT16K33 {
  constructor(address) {
    this.address = address;
    this.ram = new Uint8Array(16);
    this.pointer = 0;
    this.oscillator = false; // standby after power-on
    this.displayOn = false;
    this.blink = 0; // index into BLINK_HZ
    this.dimming = 15; // duty (15 + 1)/16 after power-on
    this.firstByte = true;
    this.writes = 0; // RAM frames written (one per transaction that wrote RAM)
    this.wroteRam = false;
  }

  /** A START addressed to this chip. */
  start() {
    this.firstByte = true;
    this.wroteRam = false;
  }

  /** One byte written by the master in the current transaction. */
  writeByte(value) {
    if (this.firstByte) {
      this.firstByte = false;
      this.command(value & 0xff);
      return;
    }
    this.ram[this.pointer] = value & 0xff;
    this.pointer = (this.pointer + 1) & 0x0f;
    this.wroteRam = true;
  }

  /** One byte read by the master: the RAM at the pointer, which then moves on. */
  readByte() {
    const value = this.ram[this.pointer];
    this.pointer = (this.pointer + 1) & 0x0f;
    return value;
  }

  stop() {
    if (this.wroteRam) this.writes += 1;
    this.wroteRam = false;
  }

  command(value) {
    const high = value & 0xf0;
    if (high === 0x00) {
      this.pointer = value & 0x0f;
    } else if (high === 0x20) {
      this.oscillator = (value & 1) === 1;
    } else if (high === 0x80) {
      this.displayOn = (value & 1) === 1;
      this.blink = (value >> 1) & 3;
    } else if (high === 0xe0) {
      this.dimming = value & 0x0f;
    }
    // 0xA0/0xA1 (ROW/INT) and 0x40.. (key data) leave the display as it is.
  }

  /** Whether the LEDs are lit at all: the oscillator runs and the display is on. */
  get lit() {
    return this.oscillator && this.displayOn;
  }

  /** The duty cycle as a fraction (1/16 .. 16/16). */
  get duty() {
    return (this.dimming + 1) / 16;
  }

  /** The four digits' segment bytes of an Adafruit 4-digit backpack (RAM 0, 2, 6, 8) and
   *  the colon (RAM 4), or null while nothing is lit. */
  frame() {
    if (!this.lit) return null;
    const r = this.ram;
    return [r[0], r[2], r[6], r[8], r[4]];
  }
}

/** Attaches chips to one of rp2040js's I2C controllers: each transaction goes to the chip at
 *  its address; an address with no chip is not acknowledged. */
export function attachI2C(controller, chips) {
  const byAddress = new Map(chips.map((chip) => [chip.address, chip]));
  let current = null;
  controller.onStart = () => controller.completeStart();
  controller.onConnect = (address) => {
    current = byAddress.get(address) || null;
    if (current) current.start();
    controller.completeConnect(current !== null);
  };
  controller.onWriteByte = (value) => {
    if (current) current.writeByte(value);
    controller.completeWrite(current !== null);
  };
  controller.onReadByte = () => controller.completeRead(current ? current.readByte() : 0xff);
  controller.onStop = () => {
    if (current) current.stop();
    current = null;
    controller.completeStop();
  };
}
