// One RP2040 of rp2040js with the clock's board around it, run instruction by instruction on
// a simulated time base: the core's cycles at the clock the firmware set (clk_sys), the time
// it sleeps in WFI/WFE counted apart, each PIO state machine stepped at its own clock
// divider's rate, and the flash held busy for its erase and program times.

import { readFileSync } from 'node:fs';
import { ConsoleLogger, LogLevel, Simulator, USBCDC } from 'rp2040js';
import { holdOutTransfers } from './usb_host.mjs';

/** The RP2040's B1 bootrom as the 32-bit words of a source file that lists them as hex
 *  literals (rp2040js's demo/bootrom.ts, built from raspberrypi/pico-bootrom). */
export function readBootrom(path) {
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('[');
  const words = text.slice(start).match(/0x[0-9a-fA-F]{1,8}/g) || [];
  if (words.length !== 4096) {
    throw new Error(`${path}: ${words.length} words, a 16 KiB bootrom has 4096`);
  }
  return new Uint32Array(words.map((w) => parseInt(w, 16)));
}

/** The flash image of a UF2 file: its blocks' payloads at their flash addresses. */
export function loadUF2(mcu, path) {
  const data = readFileSync(path);
  let end = 0;
  for (let at = 0; at + 512 <= data.length; at += 512) {
    const magic0 = data.readUInt32LE(at);
    const magic1 = data.readUInt32LE(at + 4);
    if (magic0 !== 0x0a324655 || magic1 !== 0x9e5d5157) throw new Error(`${path}: not a UF2 file`);
    const address = data.readUInt32LE(at + 12);
    const size = data.readUInt32LE(at + 16);
    const offset = address - 0x10000000;
    mcu.flash.set(data.subarray(at + 32, at + 32 + size), offset);
    end = Math.max(end, offset + size);
  }
  return end;
}

/** Time spent, per window: awake and asleep core time and the wake-ups. */
export class Meter {
  constructor() {
    this.awakeNs = 0;
    this.asleepNs = 0;
    this.wakes = 0;
    this.cycles = 0;
    this.wakesBy = new Map(); // per interrupt (its IRQ number) that ended a sleep
  }
  snapshot() {
    const { awakeNs, asleepNs, wakes, cycles } = this;
    return { awakeNs, asleepNs, wakes, cycles, wakesBy: new Map(this.wakesBy) };
  }
  /** A sleep ended by the interrupts pending and enabled in `irqs` (a bit each). */
  woke(irqs) {
    this.wakes += 1;
    for (let irq = 0; irq < 32; irq++) {
      if (irqs & (1 << irq)) this.wakesBy.set(irq, (this.wakesBy.get(irq) || 0) + 1);
    }
  }
  /** CPU fraction and wake-ups a second between two snapshots. */
  static between(a, b) {
    const awake = b.awakeNs - a.awakeNs;
    const elapsed = awake + (b.asleepNs - a.asleepNs);
    const seconds = elapsed / 1e9;
    const wakesByIrq = {};
    for (const [irq, count] of b.wakesBy) {
      const more = count - (a.wakesBy.get(irq) || 0);
      if (more > 0) wakesByIrq[irq] = more;
    }
    return {
      seconds,
      cpu: elapsed ? awake / elapsed : 0,
      wakesPerS: seconds ? (b.wakes - a.wakes) / seconds : 0,
      cycles: b.cycles - a.cycles,
      wakesByIrq,
    };
  }
}

// The PIO is stepped after at most this many system cycles of the core (a third of a
// microsecond at 48 MHz), each machine as many steps as its divider gives for them.
const PIO_BATCH_CYCLES = 16;
// rp2040js's WaitType: Pin 1, rxFIFO 2, txFIFO 3 (IRQ 4 and Out 5 are stepped through).
const STILL_WAITS = new Set([1, 2, 3]);

export class Machine {
  constructor({ bootrom, uf2 }) {
    // rp2040js's Simulator only for its RP2040 on a simulated clock: this loop runs it.
    const { clock, rp2040: mcu } = new Simulator();
    this.clock = clock;
    mcu.logger = new ConsoleLogger(LogLevel.Error, false);
    mcu.loadBootrom(readBootrom(bootrom));
    this.imageBytes = loadUF2(mcu, uf2);
    this.mcu = mcu;
    this.meter = new Meter();
    this.holdNs = 0;
    this.breakHandlers = [];
    mcu.onBreak = (code) => {
      for (const handler of this.breakHandlers) if (handler(code)) return;
      throw new Error(`the core stopped at BKPT ${code} (PC ${mcu.core.PC.toString(16)})`);
    };
    this.inputsChanged = 0;
    this.pioCycles = 0; // cycles run since the PIO was last stepped
    this.pioPhase = [];
    for (const pio of mcu.pio) {
      pio.run = () => {}; // stepped by this machine's loop instead, at the dividers' rates
      for (const sm of pio.machines) this.pioPhase.push({ pio, sm, acc: 0, seen: -1 });
    }
    this.cdc = new USBCDC(mcu.usbCtrl);
    this.cdcConnected = false;
    this.cdc.onDeviceConnected = () => {
      this.cdcConnected = true;
    };
    this.flushUsbOut = holdOutTransfers(this.cdc);
    this.console = '';
    this.cdc.onSerialData = (bytes) => {
      this.console += Buffer.from(bytes).toString('latin1');
    };
    mcu.core.PC = 0x10000000;
  }

  /** The core does nothing else for ns: a flash operation's busy time. */
  hold(ns) {
    this.holdNs += ns;
  }

  /** A GPIO's level as the outside world drives it. */
  drive(pin, high) {
    this.stepPio(this.pioCycles); // the PIO sees the edge after the cycles already run
    this.pioCycles = 0;
    this.mcu.gpio[pin].setInputValue(high);
    this.inputsChanged += 1;
  }

  stepPio(cycles) {
    for (const phase of this.pioPhase) {
      const { pio, sm } = phase;
      if (!sm.enabled) continue;
      const divider = ((sm.clockDivInt || 65536) << 8) + sm.clockDivFrac;
      phase.acc += cycles << 8;
      if (sm.waiting && STILL_WAITS.has(sm.waitType) && phase.seen === this.inputsChanged) {
        // Waiting on a pin that has not changed since it last looked, or on a FIFO (which
        // rp2040js wakes itself when the CPU or the DMA moves a word): each step would find
        // the same, so the steps are skipped, not their time.
        phase.acc %= divider;
        continue;
      }
      while (phase.acc >= divider) {
        phase.acc -= divider;
        sm.step();
        if (sm.waiting && STILL_WAITS.has(sm.waitType)) {
          phase.seen = this.inputsChanged;
          phase.acc %= divider;
          break;
        }
      }
      pio.checkChangedPins();
    }
  }

  /** Runs for ns of simulated time. */
  run(ns) {
    const { mcu, clock, meter } = this;
    const end = clock.nanos + ns;
    while (clock.nanos < end) {
      const nsPerCycle = 1e9 / mcu.clkSys;
      if (this.holdNs > 0) {
        const step = Math.min(this.holdNs, 10_000, end - clock.nanos);
        this.holdNs -= step;
        clock.tick(step);
        meter.awakeNs += step;
        meter.cycles += step / nsPerCycle;
        this.stepPio(Math.round(step / nsPerCycle));
        continue;
      }
      if (mcu.core.waiting) {
        let step = clock.nanosToNextAlarm;
        if (step <= 0 || step > end - clock.nanos) step = end - clock.nanos;
        clock.tick(step);
        meter.asleepNs += step;
        this.stepPio(Math.round(step / nsPerCycle));
        if (!mcu.core.waiting) meter.woke(mcu.core.pendingInterrupts & mcu.core.enabledInterrupts);
        continue;
      }
      const cycles = mcu.core.executeInstruction();
      clock.tick(cycles * nsPerCycle);
      meter.awakeNs += cycles * nsPerCycle;
      meter.cycles += cycles;
      this.pioCycles += cycles;
      if (this.pioCycles >= PIO_BATCH_CYCLES) {
        this.stepPio(this.pioCycles);
        this.pioCycles = 0;
      }
    }
  }

  /** Runs until the console ends with `text` or `limitNs` of simulated time passed. */
  runUntil(text, limitNs, slice = 1_000_000) {
    const end = this.clock.nanos + limitNs;
    while (this.clock.nanos < end) {
      this.run(slice);
      const at = this.console.indexOf(text);
      if (at >= 0) return at;
    }
    return -1;
  }

  type(text) {
    for (const byte of Buffer.from(text, 'latin1')) this.cdc.sendSerialByte(byte);
    this.flushUsbOut();
  }
}
