// The RP2040's 64-bit microsecond timer as the datasheet gives it: besides reading it, software
// can set it by writing TIMELW (bits 31:0, held) then TIMEHW (bits 63:32, which sets both).
// rp2040js's timer reads the emulator's clock and ignores those writes; this gives it them, so
// the lane can start the image's ticks where the simulator's runner starts its board's (a
// script's `ticks near-wrap`).

export const TIMER_BASE = 0x40054000;
export const TIMEHW = 0x00;
export const TIMELW = 0x04;
const TIMEHR = 0x08;
const TIMELR = 0x0c;
const ALARM0 = 0x10;
const ALARM3 = 0x1c;
const TIMERAWH = 0x24;
const TIMERAWL = 0x28;

/** Gives rp2040js's RPTimer `timer` (on `clock`) its TIMEHW/TIMELW writes: every read of the
 *  time, and every alarm's match, is then on the time written plus what elapsed since.
 *  Returns the time now (`nowUs()`) and at an instant of the clock (`usAt(nanos)`). */
export function writableTimer(timer, clock) {
  const read = timer.readUint32.bind(timer);
  const write = timer.writeUint32.bind(timer);
  let offsetUs = 0; // the time written less the emulator's clock, in microseconds
  let heldLow = 0; // TIMELW, until TIMEHW is written
  let latchedHigh = 0; // TIMEHR, latched by a read of TIMELR
  const at = (nanos) => Math.floor(nanos / 1000) + offsetUs;
  const now = () => at(clock.nanos);
  timer.readUint32 = (offset) => {
    switch (offset) {
      case TIMELR:
        latchedHigh = Math.floor(now() / 2 ** 32);
        return now() >>> 0;
      case TIMEHR:
        return latchedHigh;
      case TIMERAWL:
        return now() >>> 0;
      case TIMERAWH:
        return Math.floor(now() / 2 ** 32);
      default:
        return read(offset);
    }
  };
  timer.writeUint32 = (offset, value) => {
    if (offset === TIMELW) {
      heldLow = value >>> 0;
    } else if (offset === TIMEHW) {
      offsetUs = (value >>> 0) * 2 ** 32 + heldLow - Math.floor(clock.nanos / 1000);
    } else if (offset >= ALARM0 && offset <= ALARM3) {
      // rp2040js schedules an alarm by its distance from its own clock's low word: the
      // distance from the written time's instead, the target kept as written.
      write(offset, (value - offsetUs) >>> 0);
      timer.alarms[(offset - ALARM0) / 4].targetMicros = value >>> 0;
    } else {
      write(offset, value);
    }
  };
  return { nowUs: now, usAt: at };
}

/** Sets the timer of `mcu` to `micros` as software does: TIMELW, then TIMEHW. */
export function setTimer(mcu, micros) {
  mcu.writeUint32(TIMER_BASE + TIMELW, micros % 2 ** 32 >>> 0);
  mcu.writeUint32(TIMER_BASE + TIMEHW, Math.floor(micros / 2 ** 32));
}
