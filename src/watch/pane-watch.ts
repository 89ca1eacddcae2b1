// The bridge for one pane: routes a control client's events to a PaneObserver, seeds it race-free,
// re-seeds it when tmux dropped output (%pause), and follows its size and death.
import type { ControlClient } from "../tmux/client.js";
import type { ControlEvent } from "../tmux/events.js";
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

/** Where the pane's output goes: before our `%continue` it is inside the capture (dropped). */
type Mode = "dropping" | "holding" | "live";

export class PaneWatch {
  lastUsed = Date.now();
  private mode: Mode = "dropping";
  private held: Uint8Array[] = [];
  private observerRef: PaneObserver | undefined;
  private reseeding = false;
  private readonly unsubscribe: () => void;

  private constructor(
    private readonly client: ControlClient,
    readonly paneId: string,
    private readonly options: PaneWatchOptions,
  ) {
    this.unsubscribe = client.on((event) => this.onEvent(event));
  }

  get observer(): PaneObserver {
    if (!this.observerRef) throw new Error("PaneWatch used before it was seeded");
    return this.observerRef;
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
      return watch;
    } catch (error) {
      watch.unsubscribe();
      throw error;
    }
  }

  /** Asks tmux whether the pane is still alive and the same process; closes the observer if not. */
  async check(): Promise<"alive" | "closed" | "respawned"> {
    const observer = this.observer;
    if (observer.closed) return "closed";
    try {
      const probe = parseProbe(await this.client.commands(probeCommands(this.paneId), { timeoutMs: 5000 }));
      if (probe.panePid !== observer.identity.panePid) return "respawned";
      if (probe.dead) observer.markClosed();
    } catch {
      observer.markClosed(); // can't find pane, or the client ended: either way it is gone to us
    }
    return observer.closed ? "closed" : "alive";
  }

  dispose(): void {
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
        // A requested pause is our own seeding recipe (or pane text inside a reply): not a loss.
        if (event.paneId === this.paneId && this.mode === "live" && event.requested !== true && this.observerRef) void this.reseed("paused");
        return;
      case "layout-change":
        if (!this.observerRef) return;
        for (const pane of event.panes) if (pane.paneId === this.paneId) this.observerRef.resize(pane.cols, pane.rows);
        if (!event.panes.some((pane) => pane.paneId === this.paneId)) void this.check();
        return;
      case "window-close":
      case "unlinked-window-close":
        if (this.observerRef) void this.check();
        return;
      case "subscription-changed":
        if (event.paneId === this.paneId && event.value.startsWith("1")) this.observerRef?.markClosed();
        return;
      case "exit":
        this.observerRef?.markClosed();
        return;
      default:
        return;
    }
  }

  private async reseed(reason: MissedReason): Promise<void> {
    if (this.reseeding) return;
    this.reseeding = true;
    try {
      const probe = await this.capture();
      this.observer.reseed(probe.state, reason);
      if (probe.dead) this.observer.markClosed();
      this.goLive();
    } catch {
      this.mode = "live";
      await this.check();
    } finally {
      this.reseeding = false;
    }
  }
}
