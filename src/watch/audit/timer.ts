// Audit, when: tmux is the ground truth, the emulator its replica. When a watched pane has been
// quiet for a moment after output (or after a resize), the replica is compared with tmux's screen
// (audit.ts, one audit) and healed where they differ. This timer decides when.
//
// Why at rest: nothing is queued for us then, so one capture without a pause shows exactly the
// bytes we have (a pause would discard what tmux had read but not sent: tmux 3.3a). Why
// rate-limited: a pane that prints a line every 200 ms must not cost a capture every 200 ms. A
// flood never rests, so it costs nothing. A heal that does not converge (the emulator cannot draw
// what tmux draws) is not repeated until the pane prints again.
//
// A resize under the alternate screen (a resized vim) reflows the normal screen out of sight, and
// tmux and xterm reflow it differently (tmux 3.2a–3.7c reflow it only on leaving, a line that
// wraps anew then pushes one more row into history): the resize's audit saw only the alternate
// screen, so the first rest back on the normal screen is audited at once too, not up to
// AUDIT_INTERVAL_MS later. A seed under the alternate screen is the same (tmux's saved screen).

export const QUIET_MS = 150;
/** At most one audit per pane this often, unless a resize asks for one. */
export const AUDIT_INTERVAL_MS = 2000;

export type AuditResult =
  /** The screens agree. */
  | "agree"
  /** They differed and tmux's screen was taken. */
  | "healed"
  /** Output arrived while we looked: the comparison proves nothing, look again at the next rest. */
  | "busy";

export interface AuditActions {
  /** Compare with tmux once, and heal if they differ. */
  audit(): Promise<AuditResult>;
  /** Whether the replica shows the alternate screen now (default: never). */
  alternate?(): boolean;
}

export interface AuditStats {
  /** Captures taken by audits. */
  audits: number;
  heals: number;
  /** Heals after which the screens still differed (the emulator draws that text differently). */
  unconverged: number;
}

/** The final audit's tries while output is still coming in, and the time between them (final). */
const FINAL_TRIES = 25;
const FINAL_RETRY_MS = 20;

export class AuditTimer {
  readonly stats: AuditStats = { audits: 0, heals: 0, unconverged: 0 };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastOutput = 0;
  private lastAudit = -Infinity;
  /** Output (or a resize) since the last audit that agreed: there is something to check. */
  private dirty = false;
  /** A resize is waiting for its audit: it does not wait for the interval. */
  private urgent = false;
  /** A resize or seed whose normal screen no audit has seen yet (the alternate screen hid it). */
  private unseenNormal = false;
  /** The last audit healed: one more look at rest checks that it converged. */
  private verify = false;
  private running = false;
  /** The audit under way, for final() to follow. */
  private current: Promise<unknown> | undefined;
  private disposed = false;

  constructor(
    private readonly actions: AuditActions,
    private readonly now: () => number = Date.now,
    private readonly intervalMs = AUDIT_INTERVAL_MS,
  ) {}

  /** The pane printed: an audit is due once it rests. Cheap: called for every output chunk. */
  onOutput(): void {
    this.lastOutput = this.now();
    this.verify = false;
    if (!this.dirty) {
      this.dirty = true;
      this.arm(QUIET_MS);
    }
  }

  /**
   * A reader saw the pane quiet and answers now: audit at once if output came since the last audit,
   * not at the interval, so that answer holds tmux's screen (and says healed) rather than the next.
   */
  async atRest(): Promise<void> {
    while (this.running) await this.current?.catch(() => undefined);
    if (this.disposed || !this.dirty) return;
    if (this.timer) clearTimeout(this.timer);
    this.urgent = true;
    await this.fire(true);
  }

  /** A seed under the alternate screen painted the normal one as tmux saved it, maybe at another size. */
  normalHidden(): void {
    this.unseenNormal = true;
  }

  /** A resize (reflows may differ): audit as soon as the pane rests. */
  schedule(): void {
    this.unseenNormal = true;
    this.dirty = true;
    this.urgent = true;
    this.arm(QUIET_MS);
  }

  /**
   * The pane ended (no output can follow): one audit now, after any under way, not at the next rest
   * (its reader is told `closed` only after this: the last output tmux did not send is taken from
   * its screen). Never rejects: a pane already gone cannot be captured, and that is its end.
   */
  async final(starting?: () => void): Promise<AuditResult | undefined> {
    if (this.disposed) return undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.current?.catch(() => undefined);
    if (this.disposed) return undefined;
    starting?.();
    let result: AuditResult | undefined;
    // Output still coming in (the replica behind tmux's screen, or bytes awaiting confirmation) makes
    // an audit "busy"; this is the last one, so it tries again until the output is in. Once it gave
    // up after one try, and the pane closed with a flood's last screen missing (a golden snapshot
    // after `seq 1 200000` showed an old screen, tmux 3.3a, 4 runs in 4).
    for (let tries = 1; ; tries++) {
      this.stats.audits++;
      result = await this.actions.audit().catch(() => undefined);
      if (result !== "busy" || tries >= FINAL_TRIES || this.disposed) break;
      await new Promise((resolve) => setTimeout(resolve, FINAL_RETRY_MS));
    }
    if (result === "healed") this.stats.heals++;
    this.dirty = false;
    return result;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private alternate(): boolean {
    return this.actions.alternate?.() ?? false;
  }

  /** The normal screen is shown again after a resize or seed that the alternate screen hid. */
  private normalBack(): boolean {
    return this.unseenNormal && !this.alternate();
  }

  private arm(ms: number): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fire(), Math.max(1, ms));
    this.timer.unref();
  }

  /** `atRest`: a reader made sure that everything written is in, so no QUIET_MS to wait out. */
  private async fire(atRest = false): Promise<void> {
    this.timer = undefined;
    if (this.disposed || !this.dirty) return;
    const now = this.now();
    const quietFor = now - this.lastOutput;
    if ((quietFor < QUIET_MS && !atRest) || this.running) {
      this.arm(QUIET_MS - Math.min(quietFor, QUIET_MS - 10));
      return;
    }
    const wait = this.urgent || this.verify || this.normalBack() ? 0 : this.lastAudit + this.intervalMs - now;
    if (wait > 0) {
      this.arm(wait);
      return;
    }
    this.running = true;
    this.urgent = false;
    this.lastAudit = now;
    const verifying = this.verify;
    this.verify = false;
    let result: AuditResult | undefined;
    try {
      this.stats.audits++;
      this.current = this.actions.audit();
      result = (await this.current) as AuditResult;
    } catch {
      // The pane or its client went away: the watch's own checks report that.
      result = undefined;
    } finally {
      this.running = false;
      this.current = undefined;
    }
    if (this.disposed) return;
    // With no output since, the replica shows the screen the audit compared.
    if (result !== undefined && result !== "busy" && this.lastOutput < now && !this.alternate()) this.unseenNormal = false;
    if (result === "busy" || this.lastOutput >= now) {
      this.arm(QUIET_MS);
      return;
    }
    if (result === "healed") {
      this.stats.heals++;
      if (verifying) {
        // Healed twice at rest with no output between: the emulator cannot draw it as tmux does.
        this.stats.unconverged++;
        this.dirty = false;
        return;
      }
      this.verify = true;
      this.arm(QUIET_MS);
      return;
    }
    this.dirty = false;
  }
}
