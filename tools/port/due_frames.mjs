// How late the displays showed what was due, judged from outside the image: the frames the
// HT16K33s took (their RAM at each write) against the instants docs/display.md gives.
//
// A lever press starts a side's turn at `pressNs`. The running side's point after digit 4
// (RAM byte 8, bit 7: the 7-segment code's point) is dark for the first half of every
// second of the turn and lit for the second half ("running side" in docs/display.md's
// table of marks): so at pressNs + 500 ms * k the running side's display is due to show
// the mark dark (k even, the press itself included) or lit (k odd). A due instant's
// lateness is 0 if that display already shows the mark so (its last frame before the
// instant), else the time to the first frame written to it that does.

const MS = 1_000_000;
const HALF_SECOND_NS = 500 * MS;
const MARK_BYTE = 8; // digit 4 is RAM row 4: bytes 8 (its segments) and 9
const MARK_BIT = 0x80;

/** Whether a frame's RAM shows digit 4's point lit. */
export function markLit(ram) {
  return (ram[MARK_BYTE] & MARK_BIT) !== 0;
}

/**
 * The due instants of a turn begun at `pressNs` on display `chip` up to `endNs`, each
 * with its lateness in ms (null: no frame showed it before `endNs`), judged against
 * `frames` ({ ns, chip, ram } in time order, those before the window too) from `fromNs`
 * on (instants before it are not judged: a window that starts later in the turn).
 */
export function dueFrames(frames, { pressNs, chip, fromNs = pressNs, endNs }) {
  const due = [];
  for (let k = 0; pressNs + k * HALF_SECOND_NS < endNs; k++) {
    const atNs = pressNs + k * HALF_SECOND_NS;
    if (atNs < fromNs) continue;
    const wantLit = k % 2 === 1;
    const mine = frames.filter((frame) => frame.chip === chip && frame.ns < endNs);
    const before = mine.filter((frame) => frame.ns < atNs).at(-1);
    if (before && markLit(before.ram) === wantLit) {
      due.push({ atMs: atNs / MS, lateMs: 0 });
      continue;
    }
    const shown = mine.find((frame) => frame.ns >= atNs && markLit(frame.ram) === wantLit);
    due.push({ atMs: atNs / MS, lateMs: shown ? (shown.ns - atNs) / MS : null });
  }
  return due;
}

/** The longest lateness of `due` (dueFrames' list) in ms; a due frame never shown counts
 *  as late until the window's end. */
export function longestLateMs(due, endNs) {
  let longest = 0;
  for (const { atMs, lateMs } of due) {
    const late = lateMs === null ? endNs / MS - atMs : lateMs;
    if (late > longest) longest = late;
  }
  return longest;
}
