// Seed, after a failure: how long to wait before taking tmux's screen again after the terminal
// emulator failed on a pane's output. The first failure is answered at once; one that comes back right after (a seed xterm
// cannot parse would fail again on every capture, and a program can repeat what xterm fails on)
// waits longer each time, so a pane never drives a loop of captures. FailurePause is pure (the
// clock is passed in); FailureRecovery runs it for one pane.
import { messageOf } from "../../errors.js";

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

/** Takes a pane's screen again after the emulator failed: at once the first time, then after growing pauses; one line each. */
export class FailureRecovery {
  private readonly pause = new FailurePause();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly paneId: string,
    private readonly log: (line: string) => void,
    private readonly retake: () => void,
  ) {}

  failed(error: unknown, now = performance.now()): void {
    const wait = this.pause.next(now);
    const what = `the terminal emulator failed on ${this.paneId}'s output (${messageOf(error)})`;
    this.log(wait === 0 ? `${what}: took tmux's screen` : `${what}, ${this.pause.run} times in a row: taking tmux's screen in ${wait} ms`);
    if (wait === 0) {
      this.retake();
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.retake();
    }, wait);
    this.timer.unref?.();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
