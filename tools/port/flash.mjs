// The Pico's QSPI flash, a Winbond W25Q16JV, as the time its erase and program commands keep
// it busy (datasheet rev. H, 9.6 "AC Electrical Characteristics": tSE, tBE1, tBE2, tPP; tSE
// and tPP are the figures boards/chips/rp2040.py gives the project's model), and the RP2040
// bootrom's flash functions, which rp2040js does not carry out: its SSI drops every command,
// so a program or an erase through the bootrom changes nothing in its flash array. The lane
// puts a BKPT at the entry of the bootrom's flash_range_erase ('RE') and flash_range_program
// ('RP'), does the operation on the flash array as a NOR flash does it (an erase sets bits to
// 1, a program can only clear them), and holds the core for the chip's busy time, as the
// bootrom's own status polling holds it on the board.

export const W25Q16JV_MS = {
  typical: { sector4k: 45, block32k: 120, block64k: 150, page: 0.7 },
  maximum: { sector4k: 400, block32k: 1600, block64k: 2000, page: 3 },
};

const SECTOR = 4096;
const PAGE = 256;

/** The busy time, in ms, of the bootrom's flash_range_erase(offset, count, blockSize,
 *  blockCommand): 4 KiB sector erases, and the larger block erase wherever a whole aligned
 *  block of blockSize lies in the range (the bootrom's own choice). */
export function eraseMs(offset, count, blockSize, blockCommand, times) {
  let ms = 0;
  let at = offset;
  const end = offset + count;
  const block = blockCommand === 0xd8 ? 'block64k' : blockCommand === 0x52 ? 'block32k' : null;
  while (at < end) {
    if (block && blockSize > SECTOR && at % blockSize === 0 && at + blockSize <= end) {
      ms += times[block];
      at += blockSize;
    } else {
      ms += times.sector4k;
      at += SECTOR;
    }
  }
  return ms;
}

/** The busy time, in ms, of programming count bytes from offset: one page program per 256-byte
 *  page the range touches. */
export function programMs(offset, count, times) {
  if (count <= 0) return 0;
  const first = Math.floor(offset / PAGE);
  const last = Math.floor((offset + count - 1) / PAGE);
  return (last - first + 1) * times.page;
}

function romHalf(bootrom, address) {
  const word = bootrom[address >>> 2];
  return address & 2 ? word >>> 16 : word & 0xffff;
}

function setRomHalf(bootrom, address, value) {
  const index = address >>> 2;
  const word = bootrom[index];
  bootrom[index] = address & 2 ? ((word & 0xffff) | (value << 16)) >>> 0 : ((word & 0xffff0000) | value) >>> 0;
}

/** The bootrom's public function table: two-letter code -> entry address (thumb bit cleared). */
export function romFunctions(bootrom) {
  const table = romHalf(bootrom, 0x14);
  const found = new Map();
  for (let at = table; ; at += 4) {
    const code = romHalf(bootrom, at);
    if (code === 0) break;
    found.set(String.fromCharCode(code & 0xff, code >> 8), romHalf(bootrom, at + 2) & ~1);
  }
  return found;
}

const BKPT_ERASE = 0xbe00 | 0x45; // 'E'
const BKPT_PROGRAM = 0xbe00 | 0x50; // 'P'

/** The flash of one rp2040js RP2040, timed as a W25Q16JV at `times` (typical or maximum).
 *  `hold(ns)` is called with each operation's busy time: the machine keeps its core there. */
export class TimedFlash {
  constructor(mcu, times, hold) {
    this.mcu = mcu;
    this.times = times;
    this.hold = hold;
    this.erases = [];
    this.programs = [];
    const functions = romFunctions(mcu.bootrom);
    for (const code of ['RE', 'RP']) {
      if (!functions.has(code)) throw new Error(`the bootrom has no '${code}' function`);
    }
    setRomHalf(mcu.bootrom, functions.get('RE'), BKPT_ERASE);
    setRomHalf(mcu.bootrom, functions.get('RP'), BKPT_PROGRAM);
  }

  /** The BKPT handler: true if it was one of the flash functions' breakpoints. */
  onBreak(code) {
    const { core } = this.mcu;
    const r = core.registers;
    let ms;
    if ((0xbe00 | code) === BKPT_ERASE) {
      const [offset, count, blockSize, blockCommand] = [r[0] >>> 0, r[1] >>> 0, r[2] >>> 0, r[3] & 0xff];
      this.mcu.flash.fill(0xff, offset, offset + count);
      ms = eraseMs(offset, count, blockSize, blockCommand, this.times);
      this.erases.push({ offset, count, ms, atNs: this.mcu.clock.nanos });
    } else if ((0xbe00 | code) === BKPT_PROGRAM) {
      const [offset, data, count] = [r[0] >>> 0, r[1] >>> 0, r[2] >>> 0];
      for (let i = 0; i < count; i++) {
        this.mcu.flash[offset + i] &= this.mcu.readUint8(data + i);
      }
      ms = programMs(offset, count, this.times);
      this.programs.push({ offset, count, ms, atNs: this.mcu.clock.nanos });
    } else {
      return false;
    }
    core.PC = r[14] & ~1; // return to the caller, as the function's own `bx lr` would
    this.hold(Math.round(ms * 1e6));
    return true;
  }
}
