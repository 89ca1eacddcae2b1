// How long to wait before taking tmux's screen again after the terminal emulator failed on a pane's
// output. The first failure is answered at once; one that comes back right after (a seed xterm
// cannot parse would fail again on every capture, and a program can repeat what xterm fails on)
// waits longer each time, so a pane never drives a loop of captures. Pure: the clock is passed in.

/** Failures this close together count as one run. */
export const FAILURE_WINDOW_MS = 5_000;
/** The second failure of a run waits this long, each later one twice as long as the one before. */
export const FIRST_PAUSE_MS = 50;
/** Longest wait: meanwhile the pane's reads hold at the failed write (nothing is lost). */
export const MAX_PAUSE_MS = 2_000;

export class FailurePause {
  private count = 0;
  private last = -Infinity;

  /** A failure at `now` (ms): how long to wait before the screen is taken again. */
  next(now: number): number {
    this.count = now - this.last < FAILURE_WINDOW_MS ? this.count + 1 : 1;
    this.last = now;
    if (this.count === 1) return 0;
    return Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (this.count - 2));
  }

  /** Failures in the current run (1 for a first one). */
  get run(): number {
    return this.count;
  }
}
