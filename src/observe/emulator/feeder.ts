// Fair feeding of many emulators. Each screen parses at most a slice at a time (screen.ts), and the
// screens with queued data take turns on the event loop (setImmediate, so I/O runs between turns).
// A turn also stops after TURN_MS, so reads and tmux replies never wait behind a flood for long
// (docs/benchmarks.md, history). Screens left over go first next turn.

/** Something with queued data to hand on when its turn comes. */
export interface Feedable {
  /** Handles one slice; true while more is queued. */
  pump(): boolean;
}

/** Longest run of parsing before I/O gets a turn (a slice may overrun it by one slice). */
export const TURN_MS = 8;
/** Output parsed at once as it arrives (a keystroke's echo), across all screens, per loop turn. */
export const AT_ONCE_BYTES = 4 * 1024;

let atOnceLeft = AT_ONCE_BYTES;
let atOnceRefill = false;

/**
 * Whether `bytes` of output may be parsed right away instead of in the next turn: a waiting reader
 * is then answered without a turn of the event loop. A flood spends the allowance at once and goes
 * through the turns like any other output.
 */
export function mayParseNow(bytes: number): boolean {
  if (bytes > atOnceLeft) return false;
  atOnceLeft -= bytes;
  if (!atOnceRefill) {
    atOnceRefill = true;
    setImmediate(() => {
      atOnceRefill = false;
      atOnceLeft = AT_ONCE_BYTES;
    });
  }
  return true;
}

const waiting = new Set<Feedable>();
let scheduled = false;

/** Asks for `feedable.pump()` on a coming turn of the event loop. */
export function wake(feedable: Feedable): void {
  waiting.add(feedable);
  if (!scheduled) {
    scheduled = true;
    setImmediate(turn);
  }
}

function turn(): void {
  scheduled = false;
  const due = [...waiting];
  waiting.clear();
  const start = performance.now();
  for (let i = 0; i < due.length; i++) {
    const feedable = due[i] as Feedable;
    if (performance.now() - start >= TURN_MS) {
      // Out of time: the rest keep their place at the head of the line.
      const rest = due.slice(i);
      const later = [...waiting];
      waiting.clear();
      for (const f of [...rest, ...later]) waiting.add(f);
      break;
    }
    if (feedable.pump()) waiting.add(feedable);
  }
  if (waiting.size > 0 && !scheduled) {
    scheduled = true;
    setImmediate(turn);
  }
}
