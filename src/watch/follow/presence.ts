// Whether a watched pane is still in its client's session, where tmux may not say (3.2a–3.6a).
//
// Some moves send a control client nothing at all: `swap-window` of the pane's window with another
// session's window (3.2a–3.7c). 3.7+ is told through a subscription to the session's pane list
// (subscriptions.ts); on 3.2a–3.6a every session-wide subscription can crash tmux
// (tmux/subscriptions.ts), and a window subscription is about the very window that left, which tmux
// then no longer evaluates for our session. So there tmux is asked, through the watching client,
// only when someone looks at a quiet pane: a read (follower.ts, before each read), or a wait in
// progress, at most once a second per pane. Output heard since the last look proves the pane is
// there (tmux sends a control client output only for panes of its session): a pane that prints is
// never asked about. A look lists every session's panes, so it counts for every pane it listed (roster.ts).

/** At most one look per pane this often: what a 3.7 subscription costs in latency (its timer ticks each second). */
export const PRESENCE_INTERVAL_MS = 1000;
/** How often a wait in progress is considered (the look itself is rate-limited above). */
const TICK_MS = PRESENCE_INTERVAL_MS / 2;

export interface PresenceOptions {
  /** Asks tmux whether the pane is in the client's session (and hands the pane on when not). */
  look(): Promise<boolean>;
  /** Whether a reader waits for news of the pane now. */
  waiting(): boolean;
  /** When a look made for another pane last listed this one in its client's session (roster.ts), in `now`'s clock. */
  listedAt?(): number | undefined;
  now?: () => number;
}

/**
 * The presences whose waits are considered, on one ticker for all: a ticker per pane woke a process
 * holding 500 quiet panes a thousand times a second for nothing (0.7% of a core; docs/benchmarks.md,
 * figure 14b).
 */
const ticking = new Set<Presence>();
let ticker: ReturnType<typeof setInterval> | undefined;

function tick(): void {
  for (const presence of ticking) presence.tick();
}

export class Presence {
  /** When the pane was last known to be there: a look, or the watch's own capture (its start). */
  private last: number;
  private heardSince = false;
  private looking: Promise<boolean> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: PresenceOptions) {
    this.now = options.now ?? (() => performance.now());
    this.last = this.now();
    ticking.add(this);
    ticker ??= setInterval(tick, TICK_MS).unref();
  }

  /** The shared ticker's turn: looks (rate-limited by check) while a reader waits. */
  tick(): void {
    if (this.options.waiting()) void this.check();
  }

  /** The pane printed, so it is in the session. Cheap: called for every output chunk. */
  heard(): void {
    this.heardSince = true;
  }

  /**
   * Looks if the pane has been quiet since the last look and that was a second ago (else answers
   * at once). False when the look found the pane gone from the session; true when it is there, the
   * look failed (the watch's own checks report a client that ended) or nothing was asked.
   */
  check(): Promise<boolean> {
    if (this.looking) return this.looking;
    const now = this.now();
    if (this.heardSince) {
      this.heardSince = false;
      this.last = now;
    }
    const listed = this.options.listedAt?.();
    if (listed !== undefined && listed > this.last) this.last = listed;
    if (now - this.last < PRESENCE_INTERVAL_MS) return Promise.resolve(true);
    this.last = now;
    const looking = this.options
      .look()
      .catch(() => true)
      .finally(() => {
        if (this.looking === looking) this.looking = undefined;
      });
    this.looking = looking;
    return looking;
  }

  /** Until when (this clock) `check` would answer true at once, asking nothing; 0 while a look is out. */
  freshUntil(): number {
    if (this.looking) return 0;
    const listed = this.options.listedAt?.();
    const last = this.heardSince ? this.now() : Math.max(this.last, listed ?? -Infinity);
    return last + PRESENCE_INTERVAL_MS;
  }

  dispose(): void {
    ticking.delete(this);
    if (ticking.size > 0) return;
    clearInterval(ticker);
    ticker = undefined;
  }
}
