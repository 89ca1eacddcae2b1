// The bridge for one pane: routes a control client's events to a PaneObserver, seeds it race-free,
// re-seeds it when tmux dropped output (%pause), and follows its size, death and respawn.
import { isPanescopeError } from "../errors.js";
import type { ControlClient } from "../tmux/client.js";
import type { ControlEvent } from "../tmux/events.js";
import { parseLayout } from "../tmux/layout.js";
import { PaneObserver, type PaneIdentity } from "../observe/pane.js";
import type { MissedReason } from "../observe/delta.js";
import type { WidthPolicy } from "../observe/width-policy.js";
import { livenessCommand, parseLiveness, parseProbe, seedCommands, probeCommands, type PaneProbe } from "./probe.js";
import { ReflowCheck } from "./reflow.js";

export interface PaneWatchOptions {
  key: Uint8Array;
  instance: Uint8Array;
  scrollback?: number;
  ringBytes?: number;
  /** Continue numbering after an observer this one replaces, and name why its cursors are void. */
  after?: { offset: number; seq: number; reason: MissedReason };
  /** Character widths of the tmux in use (watch/widths.ts). */
  widths?: WidthPolicy;
}

/** What a check on read found: still the same process, gone/exited, or a new process in the pane. */
export type PaneState = "alive" | "closed" | "respawned";

/**
 * Where the pane's output goes while we take tmux's screen: before our `%continue` its effect is
 * inside the capture, so it is dropped (first watch, or already lost: re-seed) or kept as raw only
 * (resync: nothing was lost); after `%continue` it is held until the captured screen is in place.
 */
type Mode = "dropping" | "recording" | "holding" | "live";

/**
 * One subscription per control client, over every pane of its session. tmux 3.3a never reports a
 * dead pane through a single-pane subscription (`name:%1:#{pane_dead}` stays at 0 after the process
 * exits with remain-on-exit on), but the all-panes form `name:%*:…` does, within about a second.
 */
export const PANES_SUBSCRIPTION = "panescope_panes";
const SUBSCRIBE = ["refresh-client", "-B", `${PANES_SUBSCRIPTION}:%*:#{pane_dead} #{pane_pid}`];

export class PaneWatch {
  lastUsed = Date.now();
  /** Set when tmux reports a different process in the pane: the hub replaces this watch. */
  respawned = false;
  private mode: Mode = "dropping";
  private held: Uint8Array[] = [];
  private observerRef: PaneObserver | undefined;
  private retaking = false;
  /** Another capture is due after the running one: with a reason (output lost) or none (resync). */
  private queued: { reason?: MissedReason } | undefined;
  /** The pane size tmux last reported. */
  private size = { cols: 0, rows: 0 };
  private disposed = false;
  private readonly unsubscribe: () => void;
  private readonly reflow = new ReflowCheck({ matches: () => this.matchesTmux(), resync: () => this.retake(undefined) });

  private constructor(
    private readonly client: ControlClient,
    readonly paneId: string,
    private readonly options: PaneWatchOptions,
  ) {
    this.unsubscribe = client.on((event) => this.onEvent(event));
    // The process may end without a %exit line (server killed): the pane is gone to us either way.
    void client.exited.then(() => {
      if (!this.disposed) this.observerRef?.markClosed();
    });
  }

  get observer(): PaneObserver {
    if (!this.observerRef) throw new Error("PaneWatch used before it was seeded");
    return this.observerRef;
  }

  /** True while the control client behind this watch is usable. */
  get connected(): boolean {
    return !this.client.closed;
  }

  /** Starts watching: subscribe first, then seed in one atomic command line (design.md). */
  static async start(client: ControlClient, paneId: string, options: PaneWatchOptions): Promise<PaneWatch> {
    const watch = new PaneWatch(client, paneId, options);
    try {
      const probe = await watch.capture();
      watch.observerRef = observerFor(paneId, probe, options);
      watch.observerRef.seed(probe.state);
      watch.size = { cols: probe.state.cols, rows: probe.state.rows };
      if (probe.dead) watch.observerRef.markClosed();
      watch.goLive();
      if (watch.queued) void watch.retake(watch.queued.reason);
      // Best effort: without it a dead pane under remain-on-exit is still found by check() on read.
      client.command(SUBSCRIBE).catch(() => undefined);
      return watch;
    } catch (error) {
      watch.dispose();
      throw error;
    }
  }

  /** Asks tmux whether the pane is still alive and the same process; closes the observer if not. */
  async check(): Promise<PaneState> {
    const observer = this.observer;
    if (this.respawned) return "respawned";
    if (this.client.closed) {
      observer.markClosed();
      return "closed";
    }
    // Probed even when already closed: a dead pane (remain-on-exit) can be respawned. A short
    // question, not the full probe: under a flood its reply waits behind the pane's output.
    try {
      const live = parseLiveness(this.paneId, await this.client.command(livenessCommand(this.paneId), { timeoutMs: 5000 }));
      if (!live.exists) observer.markClosed();
      else if (live.panePid !== observer.identity.panePid) return this.markRespawned();
      else if (live.dead) observer.markClosed();
    } catch (error) {
      // Can't find the pane, or the client ended: either way it is gone to us. A slow reply (a
      // client far behind a flood) proves nothing: the pane stays open.
      if (!isPanescopeError(error, "timeout") && !isPanescopeError(error, "aborted")) observer.markClosed();
    }
    return observer.closed ? "closed" : "alive";
  }

  dispose(): void {
    this.disposed = true;
    this.reflow.dispose();
    this.unsubscribe();
    this.observerRef?.dispose();
  }

  /** Our rows, cursor and size against tmux's, probed atomically without pausing the pane. */
  private async matchesTmux(): Promise<boolean> {
    const probe = parseProbe(await this.client.commands(probeCommands(this.paneId), { timeoutMs: 5000 }));
    const ours = await this.observer.screenText();
    const state = probe.state.alternate
      ? { lines: probe.state.alternate.lines, cursorX: probe.state.cursorX, cursorY: probe.state.cursorY }
      : probe.state;
    // capture-pane -e: drop SGR sequences and trailing blanks to compare text as rows show it.
    const theirs = state.lines.slice(-probe.state.rows).map((line) => line.replace(/\x1b\[[0-9;:]*m/g, "").replace(/ +$/, ""));
    return (
      ours.screen.cols === probe.state.cols &&
      ours.screen.rows === probe.state.rows &&
      ours.screen.cursorX === state.cursorX &&
      ours.screen.cursorY === state.cursorY &&
      ours.screen.alternate === (probe.state.alternate !== undefined) &&
      JSON.stringify(ours.rows) === JSON.stringify(theirs)
    );
  }

  /** pause → capture → state → continue; output before `%continue` dropped or recorded, after it held. */
  private async capture(before: "dropping" | "recording" = "dropping"): Promise<PaneProbe> {
    this.mode = before;
    this.held = [];
    const replies = await this.client.commands(seedCommands(this.paneId));
    return parseProbe(replies.slice(1, 4));
  }

  private goLive(): void {
    const held = this.held;
    this.held = [];
    this.mode = "live";
    for (const data of held) this.observer.ingest(data);
  }

  /** A different process now runs in the pane: wake readers with the break; the hub replaces us. */
  private markRespawned(): "respawned" {
    if (!this.respawned) {
      this.respawned = true;
      this.observerRef?.addBreak("respawned", 0);
    }
    return "respawned";
  }

  private onEvent(event: ControlEvent): void {
    switch (event.type) {
      case "output":
        if (event.paneId !== this.paneId) return;
        this.reflow.onOutput();
        if (this.mode === "live") this.observer.ingest(event.data);
        else if (this.mode === "holding") this.held.push(event.data);
        else if (this.mode === "recording") this.observer.appendRaw(event.data);
        return;
      case "continue":
        if (event.paneId === this.paneId && (this.mode === "dropping" || this.mode === "recording")) this.mode = "holding";
        return;
      case "pause":
        // tmux dropped this pane's output for us: take its screen again, then resume the stream.
        // Our own pause (inside the seed's reply) is `requested`; tmux's can come at any moment,
        // also while a seed is running, and must never be left without a `continue`.
        if (event.paneId !== this.paneId || event.requested === true) return;
        if (this.observerRef) void this.retake("paused");
        else this.queued = { reason: "paused" };
        return;
      case "layout-change":
        this.onLayout(event);
        return;
      case "window-close":
      case "unlinked-window-close":
        if (this.observerRef) void this.check();
        return;
      case "subscription-changed":
        this.onSubscription(event);
        return;
      case "exit":
        this.observerRef?.markClosed();
        return;
      default:
        return;
    }
  }

  private onLayout(event: Extract<ControlEvent, { type: "layout-change" }>): void {
    if (!this.observerRef) return;
    // A zoomed pane's size is in the visible layout (tmux 3.3a `resize-pane -Z`: flags `*Z`, the
    // full layout keeps the unzoomed split); without zoom both layouts are the same.
    const visible = event.visibleLayout === undefined ? null : parseLayout(event.visibleLayout);
    const pane = (visible ?? event.panes).find((p) => p.paneId === this.paneId) ?? event.panes.find((p) => p.paneId === this.paneId);
    if (pane && (pane.cols !== this.size.cols || pane.rows !== this.size.rows)) {
      this.size = { cols: pane.cols, rows: pane.rows };
      // Follow at once (in stream order); once quiet, make sure the reflow agrees with tmux's.
      this.observerRef.resize(pane.cols, pane.rows);
      this.reflow.schedule();
    } else if (pane) return;
    else if (!event.panes.some((p) => p.paneId === this.paneId)) void this.check();
  }

  private onSubscription(event: Extract<ControlEvent, { type: "subscription-changed" }>): void {
    const observer = this.observerRef;
    if (!observer || event.paneId !== this.paneId) return;
    if (event.name !== PANES_SUBSCRIPTION) return;
    const [dead, pid] = event.value.split(" ");
    if (pid !== undefined && pid !== "" && Number(pid) !== observer.identity.panePid) this.markRespawned();
    else if (dead === "1") observer.markClosed();
  }

  /**
   * Takes tmux's screen again, until no further capture is due: `reason` when output was lost
   * (re-seed, flagged), none after a resize (resync, nothing lost). A capture that times out (a
   * client far behind a flood gets its replies late) is tried again: giving up would leave the pane
   * paused in tmux for good, its output never arriving again.
   */
  private async retake(reason: MissedReason | undefined): Promise<void> {
    if (this.retaking) {
      // A loss outranks a resync: the next capture is flagged if any request behind it was.
      const flagged = this.queued?.reason ?? reason;
      this.queued = flagged ? { reason: flagged } : {};
      return;
    }
    this.retaking = true;
    let current: { reason?: MissedReason } | undefined = reason ? { reason } : {};
    try {
      for (let attempt = 1; current && !this.disposed; ) {
        const job: { reason?: MissedReason } = current;
        this.queued = undefined;
        try {
          const probe = await this.capture(job.reason ? "dropping" : "recording");
          if (this.disposed) return;
          if (job.reason) this.observer.reseed(probe.state, job.reason);
          else this.observer.resync(probe.state);
          this.size = { cols: probe.state.cols, rows: probe.state.rows };
          if (probe.dead) this.observer.markClosed();
          this.goLive();
          current = this.queued;
          attempt = 1;
        } catch (error) {
          this.mode = "live";
          if (this.client.closed || !isPanescopeError(error, "timeout") || attempt++ >= MAX_RESEEDS) {
            // Last resort: resume the stream rather than leave the pane paused, and say so.
            this.client.command(["refresh-client", "-A", `${this.paneId}:continue`]).catch(() => undefined);
            this.observer.addBreak(job.reason ?? "paused", 0);
            await this.check();
            return;
          }
        }
      }
    } finally {
      this.retaking = false;
    }
  }
}

const MAX_RESEEDS = 5;

/** A new observer for what a probe found; continues after a predecessor's offsets when given. */
export function observerFor(paneId: string, probe: PaneProbe, options: PaneWatchOptions): PaneObserver {
  const identity: PaneIdentity = {
    paneId,
    panePid: probe.panePid,
    serverPid: probe.serverPid,
    serverStart: probe.serverStart,
    instance: options.instance,
  };
  return new PaneObserver({
    identity,
    cols: probe.state.cols,
    rows: probe.state.rows,
    key: options.key,
    ...(options.scrollback === undefined ? {} : { scrollback: options.scrollback }),
    ...(options.ringBytes === undefined ? {} : { ringBytes: options.ringBytes }),
    ...(options.widths === undefined ? {} : { widths: options.widths }),
    ...(options.after
      ? { startOffset: options.after.offset + 1, startSeq: options.after.seq + 1, predecessor: options.after.reason }
      : {}),
  });
}
