// MicroPython's raw REPL over the image's USB CDC console: code in, its printed output and
// any error out, all on the emulator's simulated time.

const MS = 1_000_000;

export class RawRepl {
  constructor(machine) {
    this.machine = machine;
  }

  /** Waits for the friendly prompt after boot; returns the simulated ns it took, or throws. */
  waitPrompt(limitMs = 10_000) {
    const { machine } = this;
    const start = machine.clock.nanos;
    let kicked = false;
    const end = start + limitMs * MS;
    while (machine.clock.nanos < end) {
      machine.run(5 * MS);
      if (machine.console.includes('>>> ')) return machine.clock.nanos - start;
      if (machine.cdcConnected && !kicked) {
        machine.type('\r\n');
        kicked = true;
      }
    }
    throw new Error(`no MicroPython prompt within ${limitMs} ms; the console said:\n${machine.console}`);
  }

  enter(limitMs = 2000) {
    const { machine } = this;
    machine.console = '';
    machine.type('\r\x03\x03\x01');
    if (machine.runUntil('raw REPL; CTRL-B to exit\r\n>', limitMs * MS) < 0) {
      throw new Error(`the raw REPL did not answer; the console said:\n${machine.console}`);
    }
  }

  /** Sends code to run without waiting for it to end (the clock's loop never does). */
  launch(code) {
    this.enter();
    this.machine.console = '';
    this.machine.type(code + '\x04');
    if (this.machine.runUntil('OK', 1000 * MS) < 0) throw new Error('the raw REPL did not take the code');
  }

  /** Runs code to its end and returns what it printed; throws with its error. */
  exec(code, limitMs = 20_000) {
    this.launch(code);
    const { machine } = this;
    if (machine.runUntil('\x04>', limitMs * MS) < 0) {
      throw new Error(`code did not end within ${limitMs} ms: ${code}\n${machine.console}`);
    }
    const text = machine.console.slice(machine.console.indexOf('OK') + 2);
    const [out, err] = text.split('\x04');
    if (err) throw new Error(`the board raised: ${err}`);
    return out;
  }
}
