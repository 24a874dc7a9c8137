// The lane's scenes on a clock booted with a control of their own (--settings, --scene):
//
// - last10: the last 10 s of a side's time, tenths on the display and the warning beeps on
//   (the settings bench/port.py writes: 30 s, no increment). The right lever starts left's
//   30 s; the window runs from 20 s after the press (10 s left) to 29.5 s (0.5 s left).
// - newGame: a new game's wait to a start. Four moves a second apart, the game paused with
//   play, a new game asked as an arbiter does (docs/menus.md: hold set, hold set, set, keyed
//   as tests/scenarios/speed/new-game-*.clock keys it); the ring is prepared again for the
//   new game, PrEP on the display. Without `pressAfterMs` the scene watches until the ring
//   is prepared (no erase for PREPARED_QUIET_MS) and gives every frame from the confirming
//   set's press (bench/port.py reads them for the first that shows the new game ready);
//   with it, the right lever is pressed that long after the confirming set and the clock's
//   state read back. The emulator is deterministic: the same boot, the same frames.

const MS = 1_000_000;
export const LAST10_FROM_MS = 20_000;
export const LAST10_TO_MS = 29_500;
const MOVE_GAP_MS = 1000;
const LONG_PRESS_MS = 2100; // a long press of set (the menus take 2 s)
const KEY_GAP_MS = 70; // from a key's release to the next press, as the scripts key them
const WAIT_LIMIT_MS = 60_000; // a preparation longer than this: the scene says so
const PREPARED_QUIET_MS = 1000; // no erase for this long: the ring is prepared

export function last10({ machine, press, measure }) {
  const pressNs = machine.clock.nanos;
  press('lever_right');
  machine.run(pressNs + LAST10_FROM_MS * MS - machine.clock.nanos);
  return { last10s: measure((LAST10_TO_MS - LAST10_FROM_MS) * MS, 'the last 10 s') };
}

/** The clock's state and running side, read over the REPL (the loop stopped by Ctrl-C). */
function readState(machine, repl) {
  machine.type('\x03');
  machine.run(300 * MS);
  const said = repl.exec(
    "from firmware import engine\nprint('STATE', engine.STATE_NAMES[app.clock.state], app.clock.running())",
  );
  const [state, running] = said.slice(said.indexOf('STATE') + 6).trim().split(/\s+/);
  return { state, running: Number(running) };
}

export function newGame({ machine, press, flash, frames, repl, pressAfterMs }) {
  const wait = (ms) => machine.run(ms * MS);
  for (const lever of ['lever_right', 'lever_left', 'lever_right', 'lever_left']) {
    press(lever);
    wait(MOVE_GAP_MS);
  }
  press('play'); // paused
  wait(MOVE_GAP_MS);
  press('set', LONG_PRESS_MS);
  wait(KEY_GAP_MS);
  press('set', LONG_PRESS_MS); // nEU GAnE asked
  wait(KEY_GAP_MS);
  const setupNs = machine.clock.nanos;
  const erasesBefore = flash.erases.length;
  const firstFrame = frames.length;
  press('set'); // confirmed: the new game is set up, its ring prepared again
  const sinceSetup = (ns) => Math.round((ns - setupNs) / 1000) / 1000;
  if (pressAfterMs === null) {
    const limitNs = setupNs + WAIT_LIMIT_MS * MS;
    const lastErase = () => (flash.erases.length > erasesBefore ? flash.erases.at(-1).atNs : setupNs);
    while (machine.clock.nanos - lastErase() < PREPARED_QUIET_MS * MS && machine.clock.nanos < limitNs) {
      wait(100);
    }
    return {
      newGame: {
        erases: flash.erases.length - erasesBefore,
        erasesMs: flash.erases.slice(erasesBefore).map((e) => [sinceSetup(e.atNs), e.ms]),
        frames: frames.slice(firstFrame).map((f) => [sinceSetup(f.ns), f.chip, f.ram]),
      },
    };
  }
  machine.run(setupNs + pressAfterMs * MS - machine.clock.nanos);
  press('lever_right');
  wait(1000);
  return { newGame: { pressAfterMs, ...readState(machine, repl) } };
}

export const SCENES = { last10, newGame };
