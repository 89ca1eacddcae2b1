// Seed: taking a pane's screen from tmux without losing or doubling a byte of its stream, the first
// time (seed), after tmux dropped output (re-seed, flagged) and after a resize or an emulator
// failure (resync, nothing lost). The capture runs inside one atomic command line (probe.ts) that
// pauses the pane and resumes it; where each %output goes depends on when it arrives relative to
// that:
//
//   dropping  before our `%continue`, its effect is inside the capture: dropped (seed, re-seed)
//   recording the same, but kept as raw only (resync: nothing was lost)
//   holding   after `%continue`, held until the captured screen is in place
//   live      handed on to be confirmed (confirm/)
import { isPanescopeError } from "../../errors.js";
import type { MissedReason } from "../../observe/read/delta.js";
import type { PaneObserver } from "../../observe/pane/observer.js";
import type { ControlClient } from "../../tmux/client.js";
import { parseProbe, seedCommands, type PaneProbe } from "./probe.js";

export type SeedMode = "dropping" | "recording" | "holding" | "live";

/** The commands a seed sends (a seam: tests answer with recorded replies). */
export type SeedClient = Pick<ControlClient, "closed" | "command" | "commands">;

/** What a seed acts on (PaneWatch). */
export interface SeedTarget {
  readonly paneId: string;
  /** The client watching the pane now (a move changes it). */
  client(): SeedClient;
  /** Lines of history the replica keeps: a capture takes that many. */
  readonly history: number;
  /** The observer once the first seed made it. */
  observer(): PaneObserver | undefined;
  /** Output received and not yet confirmed: a capture is about to cover it. */
  takeUnconfirmed(): Uint8Array[];
  /** Live output, to be confirmed before the observer sees it. */
  confirm(data: Uint8Array): void;
  /** What a capture found about the pane itself (size, window, death). */
  took(probe: PaneProbe): void;
  /** A capture found another process in the pane. */
  respawned(): void;
  /** Gave up re-taking the screen (the stream resumed, a break flagged): ask tmux how the pane is. */
  check(): Promise<unknown>;
  /** The watch ended: no further capture. */
  disposed(): boolean;
}

/** Captures that time out in a row before a re-take gives up (a client far behind a flood). */
export const MAX_RESEEDS = 5;

export class Seeder {
  private modeNow: SeedMode = "dropping";
  private held: Uint8Array[] = [];
  private retaking = false;
  /** Another capture is due after the running one: with a reason (output lost) or none (resync). */
  private queued: { reason?: MissedReason } | undefined;

  constructor(private readonly target: SeedTarget) {}

  get mode(): SeedMode {
    return this.modeNow;
  }

  /** Live and not re-taking: the replica can be compared with tmux's (the audit). */
  get settledLive(): boolean {
    return this.modeNow === "live" && !this.retaking;
  }

  /** A %output of the pane. */
  output(data: Uint8Array): void {
    if (this.modeNow === "live") this.target.confirm(data);
    else if (this.modeNow === "holding") this.held.push(data);
    else if (this.modeNow === "recording") this.target.observer()?.appendRaw(data);
  }

  /** Our `%continue` for the pane: what follows is after the capture. */
  continued(): void {
    if (this.modeNow === "dropping" || this.modeNow === "recording") this.modeNow = "holding";
  }

  /**
   * tmux paused the pane for us (we fell behind; not the seed's own pause): take its screen again,
   * then resume. It can come at any moment, also during the first seed: then it waits for it.
   */
  paused(): void {
    if (this.target.observer()) void this.retake("paused");
    else this.queued = { reason: "paused" };
  }

  /**
   * The watch now listens to another client (PaneWatch.moveTo), whose re-take waits behind a capture
   * still out on the old one: until that re-take, what the new client sends is inside it (dropped),
   * never held or recorded as if it followed the old client's capture (a client the pane came back
   * to sends old bytes first: PaneWatch.stayed).
   */
  clientChanged(): void {
    if (!this.retaking) return;
    this.modeNow = "dropping";
    this.held = [];
  }

  /** The first seed: pause, capture, resume; output after the capture is held. */
  first(): Promise<PaneProbe> {
    return this.capture("dropping");
  }

  /** The captured screen is in place: hand on what was held, and what arrives from now on. */
  goLive(): void {
    const held = this.held;
    this.held = [];
    this.modeNow = "live";
    for (const data of held) this.target.confirm(data);
  }

  /** After the first seed: a pause that came meanwhile is answered now. */
  afterFirst(): void {
    if (this.queued) void this.retake(this.queued.reason);
  }

  /**
   * Takes tmux's screen again, until no further capture is due: `reason` when output was lost
   * (re-seed, flagged), none after a resize (resync, nothing lost). A capture that times out (a
   * client far behind a flood gets its replies late) is tried again: giving up would leave the pane
   * paused in tmux for good, its output never arriving again.
   */
  async retake(reason: MissedReason | undefined): Promise<void> {
    if (this.retaking) {
      // A loss outranks a resync: the next capture is flagged if any request behind it was.
      const flagged = this.queued?.reason ?? reason;
      this.queued = flagged ? { reason: flagged } : {};
      return;
    }
    const target = this.target;
    const observer = target.observer();
    if (!observer) return;
    this.retaking = true;
    let current: { reason?: MissedReason } | undefined = reason ? { reason } : {};
    try {
      for (let attempt = 1; current && !target.disposed(); ) {
        const job: { reason?: MissedReason } = current;
        this.queued = undefined;
        try {
          const probe = await this.capture(job.reason ? "dropping" : "recording");
          if (target.disposed()) return;
          if (probe.panePid !== observer.identity.panePid) {
            // Another process runs in the pane: what was kept while capturing may be its output.
            this.modeNow = "live";
            this.held = [];
            target.respawned();
            return;
          }
          if (job.reason) observer.reseed(probe.state, job.reason);
          else observer.resync(probe.state);
          target.took(probe);
          this.goLive();
          current = this.queued;
          attempt = 1;
        } catch (error) {
          this.modeNow = "live";
          if (target.client().closed || !isPanescopeError(error, "timeout") || attempt++ >= MAX_RESEEDS) {
            // Last resort: resume the stream rather than leave the pane paused, and say so.
            target.client().command(["refresh-client", "-A", `${target.paneId}:continue`]).catch(() => undefined);
            observer.addBreak(job.reason ?? "paused", 0);
            await target.check();
            return;
          }
        }
      }
    } finally {
      this.retaking = false;
    }
  }

  /** pause → capture → state → continue; output before `%continue` dropped or recorded, after it held. */
  private async capture(before: "dropping" | "recording"): Promise<PaneProbe> {
    // Output not yet confirmed is inside the capture: dropped, or kept as raw only (resync); the
    // capture's own pane_pid is checked against the observer's (retake).
    const early = this.target.takeUnconfirmed();
    const observer = this.target.observer();
    if (before === "recording" && observer) for (const data of early) observer.appendRaw(data);
    this.modeNow = before;
    this.held = [];
    const replies = await this.target.client().commands(seedCommands(this.target.paneId, this.target.history));
    return parseProbe(replies.slice(1, 4));
  }
}
