// Wakes a control client that tmux has stopped writing to. Measured on tmux 3.3a (and the same code
// in 3.2a–3.7c control.c): when tmux pauses panes from inside its own write callback (the client fell
// pause-after seconds behind) and the pause notifications have to queue behind another pane's data,
// the callback ends with an empty buffer and turns its write event off, and the `%pause` lines wait
// until something else makes tmux write to the client. If nothing does, the client hears nothing
// again: its panes stay paused and no reply ever comes. Any command we send wakes it, so after
// activity is followed by quiet, the client sends one cheap command.

/** Calls `nudge` once `quietMs` after the last activity; again only after new activity. */
export class Nudger {
  private lastActivity = 0;
  private armed = false;
  private due = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    private readonly quietMs: number,
    private readonly nudge: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Something arrived from tmux or was sent to it. Cheap: at most one timer is armed at a time. */
  activity(): void {
    if (this.disposed) return;
    this.lastActivity = this.now();
    this.due = true;
    if (!this.armed) this.arm(this.quietMs);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.armed = true;
    this.timer = setTimeout(() => this.fire(), ms);
    this.timer.unref();
  }

  private fire(): void {
    this.armed = false;
    this.timer = undefined;
    if (this.disposed || !this.due) return;
    const quietFor = this.now() - this.lastActivity;
    if (quietFor < this.quietMs) {
      this.arm(this.quietMs - quietFor);
      return;
    }
    this.due = false;
    this.nudge();
  }
}
