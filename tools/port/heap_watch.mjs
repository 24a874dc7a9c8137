// The image's heap allocations, counted on the emulated core: each call of MicroPython's
// gc_alloc, and the function it was for. MicroPython (py/objfun.c) puts a bytecode
// function's frame on the heap when its state (locals, stack and 3 words per open `try`)
// needs more than 11 words; the frame is freed at the return, so the heap's net use does
// not show it, but the allocation scans the heap for a free run, which on a fragmented
// heap costs the core thousands of cycles each time. Frozen functions are named by the
// image's ELF: their bytecode is the array fun_data_<module>_<name> there.

import { execFileSync } from 'node:child_process';

/** Symbols of an ELF as [address, name] sorted by address (arm-none-eabi-nm). */
export function readSymbols(elf, nm = 'arm-none-eabi-nm') {
  const text = execFileSync(nm, ['-n', '--defined-only', elf], { maxBuffer: 64 << 20 }).toString();
  const symbols = [];
  for (const line of text.split('\n')) {
    const [address, , name] = line.split(' ');
    if (name) symbols.push([parseInt(address, 16), name]);
  }
  return symbols;
}

/** The symbol at or below an address, from readSymbols' list. */
export function symbolAt(symbols, address) {
  let low = 0;
  let high = symbols.length - 1;
  if (high < 0 || address < symbols[0][0]) return null;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (symbols[middle][0] <= address) low = middle;
    else high = middle - 1;
  }
  return symbols[low][1];
}

const BYTECODE_OFFSET = 12; // mp_obj_fun_bc_t: base, context, child_table, then bytecode

export class HeapWatch {
  /** Watches `mcu`'s core for calls of the image's gc_alloc; `symbols` from readSymbols.
   *  The calls of the frozen functions named in `counted` (as fun_data_ names less that
   *  prefix, e.g. hal_sleep_Sleep_wait) are counted too. */
  constructor(mcu, symbols, counted = []) {
    const address = (name) => {
      const found = symbols.find(([, symbol]) => symbol === name);
      if (!found) throw new Error(`the image's ELF has no ${name}`);
      return found[0] & ~1;
    };
    this.symbols = symbols;
    this.gcAlloc = address('gc_alloc');
    this.funBcCall = address('fun_bc_call');
    this.calls = 0;
    this.byFunction = new Map();
    this.counted = new Map(); // bytecode address -> its name, for the functions counted
    for (const name of counted) this.counted.set(address(`fun_data_${name}`), name);
    this.functionCalls = new Map();
    const { core } = mcu;
    const execute = core.executeInstruction.bind(core);
    let bytecode = 0; // the bytecode of the function fun_bc_call last entered
    core.executeInstruction = () => {
      const pc = core.PC & ~1;
      if (pc === this.funBcCall) {
        bytecode = mcu.readUint32(core.registers[0] + BYTECODE_OFFSET);
        const name = this.counted.get(bytecode);
        if (name) this.functionCalls.set(name, (this.functionCalls.get(name) || 0) + 1);
      } else if (pc === this.gcAlloc) {
        this.calls += 1;
        const caller = symbolAt(symbols, core.LR & ~1);
        const name =
          caller === 'm_malloc_maybe' ? this.functionName(bytecode) : `from ${caller}`;
        this.byFunction.set(name, (this.byFunction.get(name) || 0) + 1);
      }
      return execute();
    };
  }

  /** A frozen function's module and name, from its bytecode's symbol. */
  functionName(bytecode) {
    const symbol = symbolAt(this.symbols, bytecode) || '?';
    return symbol.startsWith('fun_data_') ? symbol.slice('fun_data_'.length) : symbol;
  }

  snapshot() {
    return {
      calls: this.calls,
      byFunction: new Map(this.byFunction),
      functionCalls: new Map(this.functionCalls),
    };
  }

  /** The allocations between two snapshots: their count and, per function, how many. */
  static between(a, b) {
    const byFunction = {};
    for (const [name, count] of b.byFunction) {
      const more = count - (a.byFunction.get(name) || 0);
      if (more > 0) byFunction[name] = more;
    }
    const functionCalls = {};
    for (const [name, count] of b.functionCalls) {
      functionCalls[name] = count - (a.functionCalls.get(name) || 0);
    }
    return { calls: b.calls - a.calls, byFunction, functionCalls };
  }
}
