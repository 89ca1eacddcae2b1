// The bridge for one pane: routes a control client's events to a PaneObserver, seeds it race-free,
// re-seeds it when tmux dropped output (%pause), follows its size, death and respawn, hands output
// on once tmux confirmed the same process wrote it (gate.ts, liveness.ts), audits the replica at
// rest, and says when the pane may have left its client's session (the hub follows it).
import { isPanescopeError, messageOf } from "../errors.js";
import type { ControlClient } from "../tmux/client.js";
import { STATUS_OPTION } from "../tmux/server.js";
import type { ControlEvent } from "../tmux/events.js";
import { parseLayout } from "../tmux/layout.js";
import { paneSubscription, sessionSubscription, subscribedPane, subscriptionName } from "../tmux/subscriptions.js";
import type { TmuxVersion } from "../tmux/version.js";
import { PaneObserver, type PaneIdentity, type PaneObserverOptions } from "../observe/pane/observer.js";
import { DEFAULT_SCROLLBACK } from "../observe/emulator/screen.js";
import type { MissedReason, PaneExit } from "../observe/read/delta.js";
import { Auditor } from "./audit.js";
import { Confirmer } from "./confirm.js";
import { FailurePause } from "./failure-pause.js";
import type { Liveness } from "./liveness.js";
import { auditPane } from "./replica-check.js";
import { openedPane } from "./opened-pane.js";
import { PaneProcess } from "./pane-process.js";
import { Presence } from "./presence.js";
import { livenessCommand, parseLiveness, parseProbe, seedCommands, type PaneProbe } from "./probe.js";
import type { WidthPolicy } from "../observe/widths/policy.js";
import { PROBE_TIMEOUT_MS } from "../tmux/timeouts.js";

export interface PaneWatchOptions {
  key: Uint8Array;
  instance: Uint8Array;
  scrollback?: number;
  ringBytes?: number;
  /** Continue numbering after an observer this one replaces, and name why its cursors are void. */
  after?: { offset: number; seq: number; reason: MissedReason };
  /**
   * The pane may have left the session this watch's client is attached to (moved, its window
   * unlinked, the client switched), or the client ended: the owner finds where the pane is now and
   * moves the watch there, or closes it. Without an owner the watch closes.
   */
  onDisplaced?: (watch: PaneWatch) => void;
  /** Heals and other notable replica events, one line each. */
  log?: (line: string) => void;
  /** Character widths of the tmux in use (watch/widths.ts). */
  widths?: WidthPolicy;
  /** The tmux in use: which subscription form is safe (tmux/subscriptions.ts). Unknown: the safe one. */
  version?: TmuxVersion;
  /** Where output is confirmed (the hub's quiet client); without it the watching client is asked. */
  liveness?: Liveness;
  /** Confirm output from /proc where it shows the pane's process (pane-process.ts). Default true. */
  localLiveness?: boolean;
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
 * What a subscription reports of the watched pane. tmux 3.3a never reports a dead pane through a
 * single-pane subscription (`name:%1:#{pane_dead}` stays at 0 after the process exits with
 * remain-on-exit on), but the all-panes form `name:%*:…` does, within about a second; that form
 * crashes tmux 3.2a–3.6a when the client loses its session, so there it is a window subscription
 * picking the pane out (tmux/subscriptions.ts). pane_dead_signal is empty on 3.2a (no such
 * format). A pane panescope opened keeps running after its program ends (mcp/pane-command.ts) and
 * sets STATUS_OPTION: a hint to read the end from the pane's process (opened-pane.ts), never the
 * end itself (any program can set it, at any scope).
 */
export const PANES_SUBSCRIPTION = "panescope_panes";
let watches = 0;
const PANE_FORMAT = `#{pane_dead} #{pane_pid} #{pane_dead_status} #{pane_dead_signal} #{${STATUS_OPTION}}`;
/**
 * Every pane of the client's session, checked by tmux once a second. Some moves out of the session
 * send a control client nothing at all (`swap-window` with another session's window, 3.2a–3.7c),
 * and an event can name a window the watch did not know yet (a pane broken out into a new window of
 * the same session, then moved on): when our pane is missing from this list it has left, and is
 * followed. A session subscription: only asked of tmux 3.7+ (tmux/subscriptions.ts); on 3.2a–3.6a
 * a quiet pane someone reads is looked for instead (presence.ts).
 */
export const MEMBERS_SUBSCRIPTION = "panescope_members";
const MEMBERS_FORMAT = "#{W:#{P:#{pane_id} }}";

export class PaneWatch {
  lastUsed = Date.now();
  /** Set when tmux reports a different process in the pane: the hub replaces this watch. */
  respawned = false;
  private client: ControlClient;
  private mode: Mode = "dropping";
  private held: Uint8Array[] = [];
  private observerRef: PaneObserver | undefined;
  private retaking = false;
  /** Another capture is due after the running one: with a reason (output lost) or none (resync). */
  private queued: { reason?: MissedReason } | undefined;
  /** The pane size tmux last reported, and the window it is in. */
  private size = { cols: 0, rows: 0 };
  private windowId = "";
  /** The subscription last asked of tmux through this watch's client ("" before start, after a move). */
  private subscribed = "";
  /** Tells this watch's per-pane subscription from another watch's of the same pane (a respawn's). */
  private readonly tag = String(++watches);
  private disposed = false;
  private readonly failures = new FailurePause();
  private failureTimer: NodeJS.Timeout | undefined;
  private unbind: () => void = () => undefined;
  /** Live output waits here until tmux confirms the pane still runs the observer's process. */
  private readonly confirmer: Confirmer;
  /** Where tmux cannot be asked to report the session's panes (3.2a–3.6a): looks on read (presence.ts). */
  private readonly presence: Presence | undefined;
  readonly auditor = new Auditor({
    audit: () =>
      auditPane({
        client: this.client,
        paneId: this.paneId,
        observer: this.observer,
        history: this.history,
        received: () => this.confirmer.received,
        // A pane beyond the emulator's cap differs from tmux's by design (its answers say so).
        ready: () => this.mode === "live" && !this.retaking && !this.observer.capped,
        settled: () => this.confirmer.held === 0,
        present: () => this.present(),
        healed: (_state, rows) => this.options.log?.(`healed ${this.paneId}: ${rows.length > 0 ? `rows ${rows.join(",")}` : "the cursor"} differed from tmux's screen`),
      }),
  });

  private constructor(
    client: ControlClient,
    readonly paneId: string,
    private readonly options: PaneWatchOptions,
  ) {
    this.client = client;
    this.confirmer = new Confirmer(
      {
        paneId,
        panePid: () => this.observerRef?.identity.panePid,
        session: () => this.session,
        askHere: async () => void (await this.check()),
        deliver: (data) => this.observer.ingest(data),
        respawned: () => this.markRespawned(),
        gone: () => this.displaced(),
        close: (exit) => this.closeObserver(exit),
      },
      options.liveness,
    );
    if (sessionSubscription(options.version, MEMBERS_SUBSCRIPTION, MEMBERS_FORMAT) === undefined) {
      this.presence = new Presence({ look: () => this.present(), waiting: () => (this.observerRef?.waiting ?? 0) > 0 && !this.observerRef?.closed });
    }
    this.bind(client);
  }

  get observer(): PaneObserver {
    if (!this.observerRef) throw new Error("PaneWatch used before it was seeded");
    return this.observerRef;
  }

  /** True while the control client behind this watch is usable. */
  get connected(): boolean {
    return !this.client.closed;
  }

  /** The session (id) the client behind this watch is attached to now, when tmux has said. */
  get currentSession(): string | undefined {
    return this.client.currentSession;
  }

  /** Bytes received and not yet confirmed (held back from the observer). */
  get unconfirmed(): number {
    return this.confirmer.held;
  }

  /** Resolves once the output received so far is confirmed (or the watch was replaced). */
  confirmed(): Promise<void> {
    return this.confirmer.confirmed();
  }

  /** A session this watch's client is attached to (the quiet client attaches there). */
  get session(): string | undefined {
    return this.client.currentSession ?? this.client.session;
  }

  /** Starts watching: subscribe first, then seed in one atomic command line (design.md). */
  static async start(client: ControlClient, paneId: string, options: PaneWatchOptions): Promise<PaneWatch> {
    const watch = new PaneWatch(client, paneId, options);
    try {
      const probe = await watch.capture();
      // An emulator that cannot keep up drops its queue, one that fails on the output stops: the
      // screen is then taken from tmux again (flagged when output was dropped).
      watch.observerRef = observerFor(paneId, probe, options, (reason, error) => {
        if (error === undefined) void watch.retake(reason);
        else watch.emulatorFailed(error);
      });
      watch.observerRef.seed(probe.state);
      // Found after the probe: a respawn in between fails the look (pane-process.ts), not the watch.
      if (options.localLiveness !== false && !probe.dead) {
        watch.confirmer.useWitness(PaneProcess.find({ serverPid: probe.serverPid, panePid: probe.panePid, paneTty: probe.paneTty }));
      }
      watch.took(probe);
      watch.goLive();
      if (watch.queued) void watch.retake(watch.queued.reason);
      watch.subscribe();
      options.liveness?.warm(watch.session ?? client.session);
      return watch;
    } catch (error) {
      watch.dispose();
      throw error;
    }
  }

  /**
   * The pane is now in a session this watch's client does not see (or the client ended): watch it
   * through `client` instead. Output between leaving and now is lost: the screen is taken again and
   * readers are told (missed, "moved").
   */
  async moveTo(client: ControlClient): Promise<void> {
    if (this.disposed) return;
    this.unbind();
    this.unsubscribe();
    this.client = client;
    this.bind(client);
    await this.retake("moved");
    this.subscribe();
  }

  /**
   * The hub found the pane still in this client's session, maybe in another window (`break-pane -d`
   * sends no layout for the new window): learn its window and size again from tmux, nothing lost.
   * Not by a capture: its pause drops output tmux had read but not yet sent us (tmux 3.3+), whose
   * effect the captured screen shows while the output stream never has it, unflagged.
   */
  stayed(windowId: string): void {
    if (this.disposed || !this.observerRef) return;
    this.windowId = windowId;
    this.subscribe();
    void this.client
      .command(["display-message", "-p", "-t", this.paneId, "#{pane_width} #{pane_height}"], { timeoutMs: 5000 })
      .then(([size = ""]) => {
        const [cols = 0, rows = 0] = size.split(" ").map(Number);
        if (cols > 0 && rows > 0) this.resized(cols, rows);
      })
      .catch(() => undefined);
  }

  /**
   * Where no subscription reports the session's panes (tmux 3.2a–3.6a): a reader is about to look
   * at the pane, so if it was quiet for a second, ask tmux whether it is still in this client's
   * session (presence.ts). False when it left: the owner is already following it. Elsewhere, and
   * for a pane that printed since the last look, true at once, nothing asked.
   */
  stillThere(): Promise<boolean> {
    if (!this.presence || this.disposed || !this.observerRef || this.observerRef.closed || this.client.closed) return Promise.resolve(true);
    return this.presence.check();
  }

  /**
   * Asks tmux, through the watching client, whether the pane is still alive and the same process.
   * The reply comes after every byte tmux had queued for us before it, so it covers all received.
   */
  async check(): Promise<PaneState> {
    const observer = this.observer;
    if (this.respawned) return "respawned";
    if (this.client.closed) {
      // Nothing more arrives through it: what came is the process's (the hub follows the pane).
      this.confirmer.settle({ panePid: observer.identity.panePid, dead: false }, this.confirmer.received, true);
      return observer.closed ? "closed" : "alive";
    }
    // Probed even when already closed: a dead pane (remain-on-exit) can be respawned. A short
    // question, not the full probe: under a flood its reply waits behind the pane's output.
    try {
      // The answer covers what arrived before the reply, not what the same chunk brought after it.
      let upTo = 0;
      const reply = await this.client.command(livenessCommand(this.paneId), { timeoutMs: PROBE_TIMEOUT_MS, atReply: () => (upTo = this.confirmer.received) });
      const live = parseLiveness(this.paneId, reply);
      this.confirmer.settle(live.exists ? { panePid: live.panePid, dead: live.dead } : undefined, upTo, true);
    } catch (error) {
      // A slow reply (a client far behind a flood) proves nothing; anything else: look for the pane.
      if (!isPanescopeError(error, "timeout") && !isPanescopeError(error, "aborted")) this.displaced();
    }
    return this.respawned ? "respawned" : observer.closed ? "closed" : "alive";
  }

  /**
   * The pane is gone or its program ended (the hub's follow, a subscription): close the observer
   * once every byte received so far is in it, so no reader is told `closed` before the last output.
   */
  markClosed(exit?: PaneExit): void {
    this.confirmer.ended(exit);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.failureTimer);
    this.confirmer.stop();
    this.auditor.dispose();
    this.presence?.dispose();
    this.unsubscribe();
    this.unbind();
    this.observerRef?.dispose();
  }

  private get history(): number {
    return this.options.scrollback ?? DEFAULT_SCROLLBACK;
  }

  private bind(client: ControlClient): void {
    const off = client.on((event) => this.onEvent(event));
    let bound = true;
    // The process may end without a %exit line (server killed): find out where the pane is.
    void client.exited.then(() => {
      if (bound && !this.disposed) this.displaced();
    });
    this.unbind = () => {
      bound = false;
      off();
    };
  }

  /** Whether the pane is in the session this client sees; when not, the hub is told to follow it. */
  private async present(): Promise<boolean> {
    // No -t: a control client's command targets the client's own session.
    const panes = await this.client.command(["list-panes", "-s", "-F", "#{pane_id}"], { timeoutMs: 5000 });
    if (panes.includes(this.paneId)) return true;
    this.displaced();
    return false;
  }

  /** Hands the question "where is the pane now" to the owner; without one the pane is gone to us. */
  private displaced(): void {
    if (this.disposed || !this.observerRef) return;
    if (this.options.onDisplaced) this.options.onDisplaced(this);
    else this.markClosed();
  }

  /** pause → capture → state → continue; output before `%continue` dropped or recorded, after it held. */
  private async capture(before: "dropping" | "recording" = "dropping"): Promise<PaneProbe> {
    // Output not yet confirmed is inside the capture: dropped, or kept as raw only (resync); the
    // capture's own pane_pid is checked against the observer's (retake).
    const early = this.confirmer.takeAll();
    if (before === "recording") for (const data of early) this.observer.appendRaw(data);
    this.mode = before;
    this.held = [];
    const replies = await this.client.commands(seedCommands(this.paneId, this.history));
    return parseProbe(replies.slice(1, 4));
  }

  /** Notes what a capture found about the pane itself. */
  private took(probe: PaneProbe): void {
    this.size = { cols: probe.state.cols, rows: probe.state.rows };
    this.windowId = probe.windowId;
    if (this.subscribed !== "") this.subscribe();
    if (probe.dead) this.markClosed(probe.exit);
  }

  /**
   * Asks tmux to report the pane's end and process as they change, in the form that is safe on
   * this version (tmux/subscriptions.ts); again when that form names a window and the pane changed
   * window. Best effort: without it a dead pane under remain-on-exit is found by the next confirmation.
   */
  private subscribe(): void {
    const argument = paneSubscription(this.options.version, PANES_SUBSCRIPTION, this.paneId, this.windowId, PANE_FORMAT, this.tag);
    if (argument === undefined || argument === this.subscribed || this.client.closed) return;
    // First on this client (start, a move): also the session's pane list where that is safe (the
    // same argument from every watch of the client; asking again only reports the list again).
    const members = this.subscribed === "" ? sessionSubscription(this.options.version, MEMBERS_SUBSCRIPTION, MEMBERS_FORMAT) : undefined;
    this.subscribed = argument;
    this.client.command(["refresh-client", "-B", argument]).catch(() => undefined);
    if (members !== undefined) this.client.command(["refresh-client", "-B", members]).catch(() => undefined);
  }

  /** Drops a subscription of this pane's own (the per-window form); the shared `%*` one stays. */
  private unsubscribe(): void {
    const name = subscriptionName(this.subscribed);
    this.subscribed = "";
    if (name.startsWith(`${PANES_SUBSCRIPTION}-`) && !this.client.closed) this.client.command(["refresh-client", "-B", name]).catch(() => undefined);
  }

  private goLive(): void {
    const held = this.held;
    this.held = [];
    this.mode = "live";
    for (const data of held) this.confirmer.hold(data);
  }

  /**
   * The pane ended, its received output all in the observer. tmux 3.3+ discards output it had not
   * sent us yet when a pane dies under remain-on-exit (control.c: a dead pane counts as none), so
   * the last lines may never arrive: audit once more, and take them from tmux's final screen.
   */
  private closeObserver(exit: PaneExit | undefined): void {
    const observer = this.observerRef;
    if (!observer) return;
    const first = !observer.closed;
    observer.markClosed(exit);
    if (first) this.auditor.schedule();
  }

  /** A different process now runs in the pane: wake readers with the break; the hub replaces us. */
  private markRespawned(): "respawned" {
    if (!this.respawned) {
      this.respawned = true;
      // Held output may be the new process's: it never reaches this observer (the successor seeds).
      this.confirmer.stop();
      this.observerRef?.addBreak("respawned", 0);
    }
    return "respawned";
  }

  private onEvent(event: ControlEvent): void {
    switch (event.type) {
      case "output":
        if (event.paneId !== this.paneId) return;
        this.auditor.onOutput();
        this.presence?.heard();
        if (this.mode === "live") this.confirmer.hold(event.data);
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
        // Our window left the session (killed, moved, unlinked): the pane may live on elsewhere.
        if (event.windowId === this.windowId) this.displaced();
        return;
      case "session-changed":
        // This client was switched to another session (a user's switch-client can pick it).
        if (this.observerRef) this.displaced();
        return;
      case "subscription-changed":
        this.onSubscription(event);
        return;
      case "exit":
        this.displaced();
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
    if (pane) {
      // Also a pane joined into another window of the same session: that window is ours now.
      this.windowId = event.windowId;
      this.subscribe();
      this.resized(pane.cols, pane.rows);
    } else if (event.windowId === this.windowId) {
      // The pane left its window: it exited, or was broken out, joined or swapped elsewhere.
      this.displaced();
    }
  }

  /** tmux says the pane is this size: follow at once (in stream order); once quiet, make sure the reflow agrees with tmux's. */
  private resized(cols: number, rows: number): void {
    if (!this.observerRef || this.disposed || (cols === this.size.cols && rows === this.size.rows)) return;
    this.size = { cols, rows };
    this.observerRef.resize(cols, rows);
    this.auditor.schedule();
  }

  private onSubscription(event: Extract<ControlEvent, { type: "subscription-changed" }>): void {
    const observer = this.observerRef;
    if (!observer) return;
    if (event.name === MEMBERS_SUBSCRIPTION) {
      if (!event.value.split(" ").includes(this.paneId)) this.displaced();
      return;
    }
    if (subscribedPane(PANES_SUBSCRIPTION, event) !== this.paneId) return;
    const [dead, pid, status, signal, held] = event.value.split(" ");
    if (pid !== undefined && pid !== "" && Number(pid) !== observer.identity.panePid) this.markRespawned();
    else {
      // The option is a hint to look, not the end: that is what the pane's process says.
      const ended = held === undefined || held === "" ? undefined : openedPane(observer.identity.panePid)?.ended;
      if (ended !== undefined) this.markClosed({ status: ended });
      else if (dead === "1") this.markClosed(exitOf(status, signal));
    }
  }

  /**
   * xterm threw on the pane's output (or on tmux's screen): take tmux's screen again, at once the
   * first time, after a growing pause when it keeps failing (failure-pause.ts): one line each.
   */
  private emulatorFailed(error: unknown): void {
    const wait = this.failures.next(performance.now());
    const what = `the terminal emulator failed on ${this.paneId}'s output (${messageOf(error)})`;
    this.options.log?.(wait === 0 ? `${what}: took tmux's screen` : `${what}, ${this.failures.run} times in a row: taking tmux's screen in ${wait} ms`);
    if (wait === 0) {
      void this.retake(undefined);
      return;
    }
    clearTimeout(this.failureTimer);
    this.failureTimer = setTimeout(() => {
      this.failureTimer = undefined;
      if (!this.disposed) void this.retake(undefined);
    }, wait);
    this.failureTimer.unref?.();
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
          if (probe.panePid !== this.observer.identity.panePid) {
            // Another process runs in the pane: what was kept while capturing may be its output.
            this.mode = "live";
            this.held = [];
            this.markRespawned();
            return;
          }
          if (job.reason) this.observer.reseed(probe.state, job.reason);
          else this.observer.resync(probe.state);
          this.took(probe);
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

/** `#{pane_dead_status} #{pane_dead_signal}` as an exit; undefined when tmux recorded neither. */
export function exitOf(status: string | undefined, signal: string | undefined): PaneExit | undefined {
  const exit: PaneExit = {};
  if (status !== undefined && /^\d+$/.test(status)) exit.status = Number(status);
  if (signal !== undefined && signal !== "" && signal !== "0") exit.signal = signal;
  return exit.status === undefined && exit.signal === undefined ? undefined : exit;
}

/** A new observer for what a probe found; continues after a predecessor's offsets when given. */
export function observerFor(paneId: string, probe: PaneProbe, options: PaneWatchOptions, onStale?: PaneObserverOptions["onStale"]): PaneObserver {
  const identity: PaneIdentity = {
    paneId,
    panePid: probe.panePid,
    serverPid: probe.serverPid,
    serverStart: probe.serverStart,
    serverSocket: probe.serverSocket,
    instance: options.instance,
  };
  return new PaneObserver({
    identity,
    cols: probe.state.cols,
    rows: probe.state.rows,
    key: options.key,
    ...(options.scrollback === undefined ? {} : { scrollback: options.scrollback }),
    ...(options.ringBytes === undefined ? {} : { ringBytes: options.ringBytes }),
    ...(onStale ? { onStale } : {}),
    ...(options.widths === undefined ? {} : { widths: options.widths }),
    ...(options.after
      ? { startOffset: options.after.offset + 1, startSeq: options.after.seq + 1, predecessor: options.after.reason }
      : {}),
  });
}
