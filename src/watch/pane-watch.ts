// The bridge for one pane: routes a control client's events to a PaneObserver, seeds it race-free,
// re-seeds it when tmux dropped output (%pause), and follows its size, death and respawn.
import { isPanescopeError } from "../errors.js";
import type { ControlClient } from "../tmux/client.js";
import type { ControlEvent } from "../tmux/events.js";
import { parseLayout } from "../tmux/layout.js";
import { PaneObserver, type PaneIdentity } from "../observe/pane.js";
import type { MissedReason } from "../observe/delta.js";
import { parseProbe, seedCommands, probeCommands, type PaneProbe } from "./probe.js";

export interface PaneWatchOptions {
  key: Uint8Array;
  instance: Uint8Array;
  scrollback?: number;
  ringBytes?: number;
  /** Continue numbering after an observer this one replaces, and name why its cursors are void. */
  after?: { offset: number; seq: number; reason: MissedReason };
}

/** What a check on read found: still the same process, gone/exited, or a new process in the pane. */
export type PaneState = "alive" | "closed" | "respawned";

/** Where the pane's output goes: before our `%continue` it is inside the capture (dropped). */
type Mode = "dropping" | "holding" | "live";

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
  private reseeding = false;
  /** tmux paused the pane again while a seed ran (or before the first one finished). */
  private reseedAgain = false;
  private disposed = false;
  private readonly unsubscribe: () => void;

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
      watch.observerRef = watch.createObserver(probe);
      watch.observerRef.seed(probe.state);
      if (probe.dead) watch.observerRef.markClosed();
      watch.goLive();
      if (watch.reseedAgain) void watch.reseed("paused");
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
    // Probed even when already closed: a dead pane (remain-on-exit) can be respawned.
    try {
      const probe = parseProbe(await this.client.commands(probeCommands(this.paneId), { timeoutMs: 5000 }));
      if (probe.panePid !== observer.identity.panePid) return this.markRespawned();
      if (probe.dead) observer.markClosed();
    } catch (error) {
      // Can't find the pane, or the client ended: either way it is gone to us. A slow reply (a
      // client far behind a flood) proves nothing: the pane stays open.
      if (!isPanescopeError(error, "timeout") && !isPanescopeError(error, "aborted")) observer.markClosed();
    }
    return observer.closed ? "closed" : "alive";
  }

  dispose(): void {
    this.disposed = true;
    this.unsubscribe();
    this.observerRef?.dispose();
  }

  private createObserver(probe: PaneProbe): PaneObserver {
    const { options } = this;
    const identity: PaneIdentity = {
      paneId: this.paneId,
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
      ...(options.after
        ? { startOffset: options.after.offset + 1, startSeq: options.after.seq + 1, predecessor: options.after.reason }
        : {}),
    });
  }

  /** pause → capture → state → continue, with output before `%continue` dropped and after it held. */
  private async capture(): Promise<PaneProbe> {
    this.mode = "dropping";
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
        if (this.mode === "live") this.observer.ingest(event.data);
        else if (this.mode === "holding") this.held.push(event.data);
        return;
      case "continue":
        if (event.paneId === this.paneId && this.mode === "dropping") this.mode = "holding";
        return;
      case "pause":
        // tmux dropped this pane's output for us: take its screen again, then resume the stream.
        // Our own pause (inside the seed's reply) is `requested`; tmux's can come at any moment,
        // also while a seed is running, and must never be left without a `continue`.
        if (event.paneId !== this.paneId || event.requested === true) return;
        if (this.observerRef) void this.reseed("paused");
        else this.reseedAgain = true;
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
    if (pane) this.observerRef.resize(pane.cols, pane.rows);
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
   * Re-seeds until a seed completes with no tmux pause after it. A seed that times out (a client far
   * behind a flood gets its replies late) is tried again: giving up would leave the pane paused in
   * tmux for good, its output never arriving again.
   */
  private async reseed(reason: MissedReason): Promise<void> {
    if (this.reseeding) {
      this.reseedAgain = true;
      return;
    }
    this.reseeding = true;
    try {
      for (let attempt = 1; !this.disposed; attempt++) {
        this.reseedAgain = false;
        try {
          const probe = await this.capture();
          if (this.disposed) return;
          this.observer.reseed(probe.state, reason);
          if (probe.dead) this.observer.markClosed();
          this.goLive();
          if (!this.reseedAgain) return;
        } catch (error) {
          this.mode = "live";
          if (this.client.closed || !isPanescopeError(error, "timeout") || attempt >= MAX_RESEEDS) {
            // Last resort: resume the stream (the gap is already flagged by a previous break or
            // will be by check) rather than leave the pane paused.
            this.client.command(["refresh-client", "-A", `${this.paneId}:continue`]).catch(() => undefined);
            this.observer.addBreak(reason, 0);
            await this.check();
            return;
          }
        }
      }
    } finally {
      this.reseeding = false;
    }
  }
}

const MAX_RESEEDS = 5;
