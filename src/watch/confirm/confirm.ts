// Confirm, one pane's side: its output waits in a gate (gate.ts) until tmux confirms that the pane
// still runs the observer's process, on the quiet client (quiet-client.ts) or, without one, through
// the watching client (ask.ts). Then it goes on to the observer; a new process means respawned; a
// dead pane is closed only once its last output is in (no reader hears `closed` before the last
// words). Where /proc shows the pane's process (pane-process.ts), a look there confirms output at
// once, with no question; the first look that cannot vouch for it hands the pane back to tmux's
// answers.
import type { PaneExit } from "../../observe/read/delta.js";
import { OutputGate } from "./gate.js";
import type { Asker, PaneLife, QuietClient } from "./quiet-client.js";

/** Least time between two looks at /proc while output keeps coming (a look: 25 µs warm, 160 after idle). */
const LOOK_INTERVAL_MS = 2;
/**
 * Most time between two looks while a flood goes on that no reader waits for: the looks drift
 * apart to it, doubling. A look every 2 ms was a fifth of a `seq` flood's CPU (figure 1a′: 15–17
 * → 13 ms per MB; docs/benchmarks.md); a reader waiting on the pane keeps the interval at the least.
 */
const LOOK_INTERVAL_MAX_MS = 16;
/**
 * Output quiet this long while a look waits for its interval is looked at then: a flood's last
 * bytes are not held for the rest of a 16 ms interval (figure 1 measured 5–15 ms of its end there).
 */
const QUIET_MS = 2;

/** Says, without asking tmux, whether the pane still runs the watched process (PaneProcess). */
export interface Witness {
  same(): boolean;
  close(): void;
}

/** What the confirmations act on (PaneWatch). */
export interface ConfirmTarget {
  readonly paneId: string;
  /** The process the observer watches; undefined before the first seed. */
  panePid(): number | undefined;
  /** A session the watching client is attached to (for the quiet client). */
  session(): string | undefined;
  /**
   * Asks through the watching client: the reply comes after every byte tmux queued for us before
   * it, so it covers all received. Resolves when it has been answered (via `settle`) or given up.
   */
  askHere(): Promise<void>;
  /** A reader waits for the pane's news now: its output is confirmed at the least interval. */
  awaited(): boolean;
  /** Confirmed output, in order. */
  deliver(data: Uint8Array): void;
  /** Another process runs in the pane. */
  respawned(): void;
  /** tmux does not list the pane: the owner finds it (moved) or closes it. */
  gone(): void;
  /** The pane ended, its output all delivered. */
  close(exit: PaneExit | undefined): void;
}

export class Confirmer implements Asker {
  private readonly gate = new OutputGate();
  private askingHere = false;
  private witness: Witness | undefined;
  private looking = false;
  /** The waiting look's timer (lookAt), cleared when a caller's wait makes it look at once. */
  private lookTimer: ReturnType<typeof setTimeout> | undefined;
  /** Output came since the waiting look's timer was last set (the flood goes on). */
  private heard = false;
  private lastLook = -Infinity;
  /** Looks in a row asked for within two intervals of the one before (at most 4), and the interval now. */
  private repeats = 0;
  private gap = LOOK_INTERVAL_MS;
  /** The pane ended: close once the output received before `at` is delivered. */
  private closing: { at: number; exit: PaneExit | undefined } | undefined;
  private stopped = false;
  /** Callers waiting until the output received before they asked is confirmed. */
  private waiters: Array<{ upTo: number; resolve: () => void }> = [];

  constructor(
    private readonly target: ConfirmTarget,
    private readonly quiet: QuietClient | undefined,
  ) {}

  get paneId(): string {
    return this.target.paneId;
  }

  get session(): string | undefined {
    return this.target.session();
  }

  /** From now on, output is confirmed by `witness` while it vouches for the process. */
  useWitness(witness: Witness | undefined): void {
    this.witness?.close();
    this.witness = witness;
  }

  /** Still confirming: not stopped (the watch goes on). */
  get active(): boolean {
    return !this.stopped;
  }

  /** Bytes received (confirmed or not): an answer asked for now covers up to here. */
  get received(): number {
    return this.gate.received;
  }

  /** Bytes received and not yet confirmed. */
  get held(): number {
    return this.gate.held;
  }

  /**
   * Resolves once every byte received so far is confirmed (handed on), or the watch stopped. A look
   * waiting for its interval is made now: its caller wants these bytes, and a look costs 25 µs (a
   * flood's end reached the caller 2–4 ms later for the quiet wait: figure 1, 2026-12-05).
   */
  confirmed(): Promise<void> {
    const upTo = this.gate.received;
    if (this.stopped || this.resolved >= upTo) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.waiters.push({ upTo, resolve }));
    if (this.lookTimer !== undefined) this.look();
    return done;
  }

  /** Live output: held until tmux confirms who wrote it. */
  hold(data: Uint8Array): void {
    this.gate.hold(data);
    this.heard = true;
    if (this.gate.held > 0) this.ask();
  }

  /** Everything held, to be resolved by the caller (a capture is about to cover it). */
  takeAll(): Uint8Array[] {
    const all = this.gate.takeAll();
    this.wakeWaiters();
    return all;
  }

  /** The quiet client's answer, asked once `upTo` bytes had arrived. */
  answer(life: PaneLife | undefined, upTo: number): void {
    this.settle(life, upTo, false);
  }

  /**
   * tmux's word on the pane, covering output up to `upTo`. `ordered`: it came through the watching
   * client, after every byte queued before it; from the quiet client, a dead pane's last output may
   * still be on its way, so the watching client is asked once more before closing.
   */
  settle(life: PaneLife | undefined, upTo: number, ordered: boolean): void {
    if (this.stopped) return;
    if (life !== undefined && life.panePid !== this.target.panePid()) {
      this.stop();
      this.target.respawned();
      return;
    }
    this.gate.release(upTo, (data) => this.target.deliver(data));
    this.wakeWaiters();
    if (life === undefined) this.target.gone();
    else if (life.dead && ordered) this.endWhenReceived(life.exit);
    else if (life.dead) this.askElsewhere();
    this.closeIfDone();
    if (this.gate.held > 0) this.ask();
  }

  /** No quiet client (or a dead pane to make sure of): ask through the watching client. */
  askElsewhere(): void {
    if (this.askingHere || this.stopped) return;
    this.askingHere = true;
    void this.target.askHere().finally(() => {
      this.askingHere = false;
      if (this.gate.held > 0) this.ask();
    });
  }

  /**
   * The pane is gone or its program ended (a follow, a subscription, a probe): close once every
   * byte received so far is delivered.
   */
  ended(exit?: PaneExit): void {
    if (this.stopped) return;
    this.endWhenReceived(exit);
    this.closeIfDone();
    if (this.closing) this.ask();
  }

  /** No more confirmations: the watch was replaced or disposed. Held output is dropped. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.lookTimer);
    this.closing = undefined;
    this.gate.takeAll();
    this.wakeWaiters();
    this.useWitness(undefined);
    this.quiet?.forget(this);
  }

  private get resolved(): number {
    return this.gate.received - this.gate.held;
  }

  private wakeWaiters(): void {
    if (this.waiters.length === 0) return;
    const resolved = this.resolved;
    const due = this.waiters.filter((w) => this.stopped || w.upTo <= resolved);
    this.waiters = this.waiters.filter((w) => !due.includes(w));
    for (const waiter of due) waiter.resolve();
  }

  private ask(): void {
    if (this.stopped) return;
    if (this.witness) {
      // One look covers every %output before it: the first after a pause at once (a keystroke's
      // echo), then at most one per interval while output keeps coming (a flood: see interval).
      if (!this.looking) {
        this.looking = true;
        const now = performance.now();
        const due = this.lastLook + this.interval(now);
        if (due > now) this.lookAt(due);
        // A resolved promise, not queueMicrotask: that wraps each callback in an AsyncResource (≈10 µs).
        else void Promise.resolve().then(() => this.look());
      }
    } else if (this.quiet?.available) this.quiet.ask(this);
    else this.askElsewhere();
  }

  /**
   * The interval before the next look: the least after a pause or while a reader waits; while
   * output keeps coming with nobody waiting, 2, 4, 8, then 16 ms (the first look after a pause is
   * at once and the next 2 ms later, as a keystroke's echo and the prompt after it need).
   */
  private interval(now: number): number {
    this.repeats = now - this.lastLook < 2 * this.gap ? Math.min(this.repeats + 1, 4) : 0;
    if (this.target.awaited()) this.repeats = Math.min(this.repeats, 1);
    this.gap = Math.min(LOOK_INTERVAL_MS * 2 ** Math.max(0, this.repeats - 1), LOOK_INTERVAL_MAX_MS);
    return this.gap;
  }

  /**
   * A look at `due`, or sooner once no output came for QUIET_MS. Output left unread while the
   * loop was busy is not heard, and costs a look sooner than needed, never output held longer.
   */
  private lookAt(due: number): void {
    this.heard = false;
    const wait = due - performance.now();
    if (wait <= QUIET_MS) this.lookTimer = setTimeout(() => this.look(), wait);
    else this.lookTimer = setTimeout(() => (this.heard ? this.lookAt(due) : this.look()), QUIET_MS);
  }

  /** The local look: covers what was received before it, as an ordered answer from tmux would. */
  private look(): void {
    clearTimeout(this.lookTimer);
    this.lookTimer = undefined;
    this.looking = false;
    if (this.stopped) return;
    this.lastLook = performance.now();
    const upTo = this.gate.received;
    const panePid = this.target.panePid();
    if (panePid !== undefined && this.witness?.same()) {
      this.settle({ panePid, dead: false }, upTo, true);
      return;
    }
    // Gone, ended, respawned, or no longer readable: that does not come back; tmux tells which.
    this.useWitness(undefined);
    this.ask();
  }

  private endWhenReceived(exit: PaneExit | undefined): void {
    this.closing = { at: Math.max(this.closing?.at ?? 0, this.gate.received), exit: exit ?? this.closing?.exit };
  }

  private closeIfDone(): void {
    const closing = this.closing;
    if (!closing || this.gate.received - this.gate.held < closing.at) return;
    this.closing = undefined;
    this.target.close(closing.exit);
  }
}
