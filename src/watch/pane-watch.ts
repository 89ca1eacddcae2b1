// The streaming watch of one pane: routes its control client's events to the stages and holds them
// together. Seeding and re-seeding (seed/seeder.ts), confirming who wrote the output (confirm/),
// auditing the replica at rest (audit/), and following the pane's size, end, respawn and moves
// (follow/) each live in their stage; this class keeps the event switch and the pane's facts
// (client, window, size) they share.
import type { ControlClient } from "../tmux/client.js";
import { PROBE_TIMEOUT_MS } from "../tmux/timeouts.js";
import type { ControlEvent } from "../tmux/events.js";
import type { SessionLease } from "../tmux/sessions.js";
import type { TmuxVersion } from "../tmux/version.js";
import type { CursorFields } from "../observe/cursor/codec.js";
import type { Delta, PaneExit, ReadLimits } from "../observe/read/delta.js";
import type { PaneObserver } from "../observe/pane/observer.js";
import type { WidthPolicy } from "../observe/widths/policy.js";
import { auditPane } from "./audit/audit.js";
import { AuditTimer, type AuditStats } from "./audit/timer.js";
import { PaneLife, type CheckResult } from "./confirm/pane-life.js";
import type { QuietClient } from "./confirm/quiet-client.js";
import { Follower, type Mover } from "./follow/follower.js";
import { PanePlace } from "./follow/place.js";
import { readSubscription } from "./follow/subscriptions.js";
import { FailureRecovery } from "./seed/failure-pause.js";
import { observerFor, type After } from "./seed/observer.js";
import type { PaneProbe } from "./seed/probe.js";
import { Seeder } from "./seed/seeder.js";
import type { WatchSettings } from "./settings.js";
import type { PublishedWatch } from "./publisher.js";
import { ANSWERS, type Verdict, type Watch } from "./watch.js";

/** What one streamed watch adds to the watch's settings (the starter fills it in). */
export interface PaneWatchSeams {
  /** Continue numbering after an observer this one replaces, and name why its cursors are void. */
  after?: After | undefined;
  /** Character widths of the tmux in use (seed/widths.ts). */
  widths?: WidthPolicy | undefined;
  /** The tmux in use: which subscription form is safe (tmux/subscriptions.ts). Unknown: the safe one. */
  version?: TmuxVersion | undefined;
  /** Where output is confirmed (the hub's quiet client); without it the watching client is asked. */
  quiet?: QuietClient | undefined;
  /** Where the pane can be watched from when it leaves its client's session; without it, it is closed then. */
  mover?: Mover | undefined;
  /** The lease of `client`, given back when the watch ends or moves. */
  lease?: SessionLease | undefined;
}

/** Longest a pane's close waits for its last audit's heal to be applied (finalAudit). */
const HEAL_APPLY_MS = 1000;

export class PaneWatch implements Watch, PublishedWatch {
  lastUsed = Date.now();
  readonly streaming = true;
  disposed = false;
  private client: ControlClient;
  private lease: SessionLease | undefined;
  private observerRef: PaneObserver | undefined;
  /** Following starts once the watch is started (events before that are covered by its seed). */
  private started = false;
  private unbind: () => void = () => undefined;
  /** Stops publishing the pane (settings.publisher), when it is published. */
  private unpublish: (() => void) | undefined;
  private readonly seeder: Seeder;
  /** The pane's window and size, and the subscriptions that report its end from there. */
  private readonly place: PanePlace;
  private readonly recovery: FailureRecovery;
  /** Confirmed output, the pane's end and respawn (confirm/). */
  private readonly life: PaneLife;
  private readonly follower: Follower | undefined;
  private readonly auditor: AuditTimer;

  private constructor(
    client: ControlClient,
    readonly paneId: string,
    private readonly settings: WatchSettings,
    private readonly seams: PaneWatchSeams,
  ) {
    this.client = client;
    this.lease = seams.lease;
    this.seeder = new Seeder({
      paneId,
      client: () => this.client,
      history: settings.scrollback,
      observer: () => this.observerRef,
      takeUnconfirmed: () => this.life.confirmer.takeAll(),
      confirm: (data) => this.life.confirmer.hold(data),
      took: (probe) => this.took(probe),
      respawned: () => this.life.markRespawned(),
      check: () => this.check(),
      disposed: () => this.disposed,
    });
    this.life = new PaneLife(
      {
        paneId,
        client: () => this.client,
        observer: () => this.observerRef,
        session: () => this.session,
        displaced: () => this.displaced(),
        ended: (close) => void this.finalAudit(close),
      },
      seams.quiet,
    );
    this.place = new PanePlace({
      paneId,
      version: seams.version,
      client: () => this.client,
      resized: (cols, rows) => {
        if (!this.observerRef || this.disposed) return;
        // Followed at once (in stream order); once quiet, the audit makes sure the reflow agrees with tmux's.
        this.observerRef.resize(cols, rows);
        this.auditor.schedule();
      },
      left: () => this.displaced(),
      waiting: () => (this.observerRef?.waiting ?? 0) > 0 && !this.observerRef?.closed,
    });
    this.recovery = new FailureRecovery(paneId, settings.log, () => void this.seeder.retake(undefined));
    this.follower = seams.mover ? new Follower(this, seams.mover) : undefined;
    this.auditor = new AuditTimer(
      {
        alternate: () => this.observerRef?.alternate ?? false,
        audit: () =>
          auditPane({
            client: this.client,
            paneId: this.paneId,
            observer: this.observer,
            history: settings.scrollback,
            received: () => this.life.confirmer.received,
            // A pane beyond the emulator's cap differs from tmux's by design (its answers say so).
            ready: () => this.seeder.settledLive && !this.observer.capped,
            settled: () => this.life.confirmer.held === 0,
            present: () => this.place.present(),
            healed: (_state, rows) => settings.log(`healed ${this.paneId}: ${rows.length > 0 ? `rows ${rows.join(",")}` : "the cursor"} differed from tmux's screen`),
            applied: () => this.closeAfterHeal(),
          }),
      },
      Date.now,
      settings.auditIntervalMs,
    );
    this.bind(client);
  }

  /** Starts watching: seed in one atomic command line (seed/probe.ts), then subscribe. Owns `seams.lease` from here on. */
  static async start(client: ControlClient, paneId: string, settings: WatchSettings, seams: PaneWatchSeams = {}): Promise<PaneWatch> {
    const watch = new PaneWatch(client, paneId, settings, seams);
    try {
      const probe = await watch.seeder.first();
      // An emulator that cannot keep up drops its queue, one that fails on the output stops: the
      // screen is then taken from tmux again (flagged when output was dropped).
      watch.observerRef = observerFor(paneId, probe, settings, {
        after: seams.after,
        widths: seams.widths,
        onStale: (reason, error) => (error === undefined ? void watch.seeder.retake(reason) : watch.recovery.failed(error)),
      });
      watch.observerRef.seed(probe.state);
      watch.unpublish = settings.publisher?.add(watch.observerRef, watch);
      // Found after the probe: a respawn in between fails the look (confirm/pane-process.ts), not the watch.
      if (settings.procCheck && !probe.dead) watch.life.lookAt({ serverPid: probe.serverPid, panePid: probe.panePid, paneTty: probe.paneTty });
      watch.took(probe);
      watch.seeder.goLive();
      watch.seeder.afterFirst();
      watch.place.subscribe();
      seams.quiet?.warm(watch.session ?? client.session);
      watch.started = true;
      return watch;
    } catch (error) {
      watch.dispose();
      throw error;
    }
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

  /** A session this watch's client is attached to (the quiet client attaches there). */
  get session(): string | undefined {
    return this.client.currentSession ?? this.client.session;
  }

  /** Set when tmux reports a different process in the pane: the hub replaces this watch. */
  get respawned(): boolean {
    return this.life.respawned;
  }

  /** Bytes received and not yet confirmed (held back from the observer). */
  get unconfirmed(): number {
    return this.life.confirmer.held;
  }

  /** PublishedWatch.readVerdict: until when Follower.revalidate would pass at once, asking tmux nothing. */
  readVerdict(): number {
    if (this.disposed || !this.connected || this.respawned || !this.observerRef) return 0;
    if (this.observerRef.closed && this.unconfirmed > 0) return 0;
    if (this.follower && (this.follower.busy || this.follower.lost || this.follower.replace !== undefined)) return 0;
    const fresh = this.place.freshUntil();
    return fresh === Infinity ? Infinity : performance.timeOrigin + fresh;
  }

  get inUse(): boolean {
    return (this.observerRef?.waiting ?? 0) > 0 || this.observerRef?.tapped === true || this.follower?.busy === true;
  }

  get auditStats(): Readonly<AuditStats> {
    return this.auditor.stats;
  }

  /** Resolves once the output received so far is confirmed (or the watch was replaced). */
  confirmed(): Promise<void> {
    return this.life.confirmer.confirmed();
  }

  /**
   * Two round trips through the watching client, then the confirmation of all they brought. A reply
   * comes after every byte tmux queued for this client before it; but tmux may read the pane's pty
   * after our command in the same turn of its loop, so only the second reply, sent after the first
   * came back, follows whatever the pty held when this was called.
   */
  async caughtUp(): Promise<void> {
    for (let trip = 0; trip < 2 && !this.client.closed && !this.disposed; trip++) {
      await this.client.command(["display-message", "-p", "-t", this.paneId, "#{pane_id}"], { timeoutMs: PROBE_TIMEOUT_MS }).catch(() => undefined);
    }
    await this.confirmed();
  }

  /** The audit at rest, now rather than at its interval (audit/timer.ts). */
  atRest(): Promise<void> {
    return this.auditor.atRest();
  }

  waitForChange(cursor: string | CursorFields | undefined, waitMs: number, signal?: AbortSignal, limits?: ReadLimits): Promise<Delta> {
    return this.observer.waitForChange(cursor, waitMs, signal, limits);
  }

  async revalidate(): Promise<Verdict> {
    const reason = this.follower ? await this.follower.revalidate() : this.respawned ? "respawned" : undefined;
    return reason === undefined ? ANSWERS : { kind: "replace", reason };
  }

  /**
   * The pane is now in a session this watch's client does not see (or the client ended): watch it
   * through the lease's client instead. Output between leaving and now is lost: the screen is taken
   * again and readers are told (missed, "moved").
   */
  async moveTo(lease: SessionLease): Promise<void> {
    if (this.disposed) {
      lease.release();
      return;
    }
    const previous = this.lease;
    this.lease = lease;
    this.unbind();
    this.place.unsubscribe();
    this.client = lease.client;
    this.bind(lease.client);
    this.seeder.clientChanged();
    await this.seeder.retake("moved");
    this.place.subscribe();
    previous?.release();
  }

  /**
   * The follow found the pane in this client's session after something said it left, maybe in
   * another window (follow/place.ts). It may have been out of the session meanwhile (moved out and
   * back before the follow looked), and then tmux 3.2a–3.7c lost more than the output printed
   * away: control.c frees the output blocks it had queued for us for a pane not in our session
   * without moving our read offset past them, so from then on every %output of the pane is that
   * many bytes late, the last ones never sent (measured: a flood's last 35,000 lines missing, and
   * an `echo` after it printed old lines as new). The seed's pause and continue set that offset to
   * now: the screen is taken again and the gap flagged `moved`, as for any move.
   */
  async stayed(windowId: string): Promise<void> {
    if (this.disposed || !this.observerRef) return;
    this.place.stayed(windowId);
    await this.seeder.retake("moved");
  }

  /**
   * Where no subscription reports the session's panes (tmux 3.2a–3.6a): a reader is about to look
   * at the pane, so if it was quiet for a second, ask tmux whether it is still in this client's
   * session (follow/presence.ts). False when it left: it is already being followed. Elsewhere, and for a
   * pane that printed since the last look, true at once, nothing asked.
   */
  stillThere(): Promise<boolean> {
    if (this.disposed || !this.observerRef || this.observerRef.closed || this.client.closed) return Promise.resolve(true);
    return this.place.stillThere();
  }

  /** Asks tmux, through the watching client, whether the pane is still alive and the same process. */
  check(): Promise<CheckResult> {
    return this.life.check();
  }

  /** The pane's close, waiting for its last audit's heal to be in (finalAudit). */
  private closeWithHeal: (() => void) | undefined;

  /**
   * The pane ended: one audit now, then `close`. A heal takes tmux's final screen (tmux 3.3+ drops
   * what it had not sent of a pane that died under remain-on-exit), and the close rides in with it,
   * so the readers it wakes are told `closed` with those lines, never one read before them.
   */
  private async finalAudit(close: () => void): Promise<void> {
    let done = false;
    const once = (): void => {
      if (done) return;
      done = true;
      if (this.closeWithHeal === once) this.closeWithHeal = undefined;
      close();
    };
    // Set as this audit starts: the heal of one under way before it is not the last one.
    const result = await this.auditor.final(() => (this.closeWithHeal = once));
    // A heal closes as it is applied (closeAfterHeal); should that never come, the close does not wait for it.
    if (result === "healed") setTimeout(once, HEAL_APPLY_MS).unref();
    else once();
  }

  private closeAfterHeal(): void {
    this.closeWithHeal?.();
  }

  /** The pane is gone or its program ended: closed once its output received so far is in (confirm/pane-life.ts). */
  markClosed(exit?: PaneExit, screenTaken = false): void {
    this.life.markClosed(exit, screenTaken);
  }

  used(): void {
    this.lastUsed = Date.now();
  }

  dispose(): void {
    this.disposed = true;
    this.unpublish?.();
    this.recovery.dispose();
    this.life.confirmer.stop();
    this.auditor.dispose();
    this.place.dispose();
    this.unbind();
    this.observerRef?.dispose();
    this.lease?.release();
  }

  private bind(client: ControlClient): void {
    const off = client.on((event) => this.onEvent(event));
    // The process may end without a %exit line (server killed): find out where the pane is.
    const offExit = onExit(client, () => {
      if (!this.disposed) this.displaced();
    });
    this.unbind = () => {
      offExit();
      off();
    };
  }

  /** "Where is the pane now?": followed (follow/follower.ts); without a mover the pane is gone to us. */
  private displaced(): void {
    if (this.disposed || !this.observerRef) return;
    if (!this.follower) this.markClosed();
    else if (this.started) {
      void this.follower.follow();
      // A follow under way: reads answered elsewhere stop now, not when the verdict runs out.
      this.observerRef.republish();
    }
  }

  /** Notes what a capture found about the pane itself. */
  private took(probe: PaneProbe): void {
    this.place.took(probe.state.cols, probe.state.rows, probe.windowId);
    if (probe.state.alternate) this.auditor.normalHidden();
    // Its screen was just taken from tmux: closed at once, no last audit to wait for.
    if (probe.dead) this.markClosed(probe.exit, true);
  }

  private onEvent(event: ControlEvent): void {
    switch (event.type) {
      case "output":
        if (event.paneId !== this.paneId) return;
        this.auditor.onOutput();
        this.place.heard();
        this.seeder.output(event.data);
        return;
      case "continue":
        if (event.paneId === this.paneId) this.seeder.continued();
        return;
      case "pause":
        // tmux dropped this pane's output for us. Our own pause (inside the seed's reply) is `requested`.
        if (event.paneId === this.paneId && event.requested !== true) this.seeder.paused();
        return;
      case "layout-change":
        // A layout without the pane: it exited, or was broken out, joined or swapped elsewhere.
        // The pane in another window: it was joined there, maybe from outside the session.
        if (this.observerRef && this.place.layout(event) !== undefined) this.displaced();
        return;
      case "window-close":
      case "unlinked-window-close":
        // Our window left the session (killed, moved, unlinked): the pane may live on elsewhere.
        if (event.windowId === this.place.windowId) this.displaced();
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

  private onSubscription(event: Extract<ControlEvent, { type: "subscription-changed" }>): void {
    const observer = this.observerRef;
    if (!observer) return;
    const news = readSubscription(event, this.paneId, observer.identity.panePid);
    if (news?.kind === "left") this.displaced();
    else if (news?.kind === "respawned") this.life.markRespawned();
    else if (news?.kind === "ended") this.markClosed(news.exit);
  }
}

/**
 * Calls `react` when the client's process ends, unless the function returned was called first. The
 * reaction stays on the client's promise until then, so it holds only a slot here, never the
 * watch: a session's client outlived every watch evicted from it, each with its screen and ring
 * (its closure in bind() shared a context that held `this`).
 */
function onExit(client: ControlClient, react: () => void): () => void {
  let slot: (() => void) | undefined = react;
  void client.exited.then(() => slot?.());
  return () => {
    slot = undefined;
  };
}
