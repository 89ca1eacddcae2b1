// After a resize, tmux and xterm may reflow the same lines differently (tmux keeps the cursor row,
// xterm the top row: golden/streams/shell-resize). Once the pane is quiet, compare our screen with
// tmux's and, only if they differ, take tmux's screen again (a resync).
//
// Why wait for quiet: the resync uses the pause → capture → continue recipe, and tmux 3.3a discards
// output it had read but not yet sent to us when a pane is paused. That is harmless for a first
// watch (the capture holds its effect) but would silently cut the raw stream here. A pane that has
// printed nothing for QUIET_MS has nothing queued for us, so nothing can be cut.

export const QUIET_MS = 150;
/** Give up after this many busy periods: a pane that keeps printing redraws or scrolls the
 *  reflowed lines away itself, and the next resize schedules a new check. */
const MAX_WAITS = 40;

export interface ReflowActions {
  /** True when our rendered screen equals tmux's now (one atomic probe, no pause). */
  matches(): Promise<boolean>;
  /** Take tmux's screen (paused capture; output before the continue kept as raw). */
  resync(): Promise<void>;
}

export class ReflowCheck {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastOutput = 0;
  private waits = 0;
  private running = false;

  constructor(private readonly actions: ReflowActions) {}

  /** A resize happened: check once the pane has been quiet. */
  schedule(): void {
    this.waits = 0;
    this.arm(QUIET_MS);
  }

  /** The pane printed: the check waits for quiet again. */
  onOutput(): void {
    this.lastOutput = Date.now();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fire(), ms);
    this.timer.unref();
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    const quietFor = Date.now() - this.lastOutput;
    if (quietFor < QUIET_MS || this.running) {
      if (++this.waits <= MAX_WAITS) this.arm(QUIET_MS - Math.min(quietFor, QUIET_MS - 10));
      return;
    }
    this.running = true;
    try {
      if (!(await this.actions.matches())) await this.actions.resync();
    } catch {
      // The pane or its client went away: the watch's own checks report that.
    } finally {
      this.running = false;
    }
  }
}
