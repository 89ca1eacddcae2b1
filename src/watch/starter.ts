// How a pane gets a watch: a PaneWatch over its session's shared control client, or — when control
// mode fails — a PollWatch over one-shot capture-pane (fallback/); and, later, the stream again.
// Also where a followed pane is watched from (follow/follower.ts's Mover): the same clients.
import { PanescopeError, isPanescopeError, messageOf } from "../errors.js";
import { TmuxFormat } from "../tmux/format.js";
import { SessionRegistry, type SessionLease } from "../tmux/sessions.js";
import type { TmuxServer } from "../tmux/server.js";
import type { QuietClient } from "./confirm/quiet-client.js";
import { DeadPaneGuard } from "./fallback/dead-pane-guard.js";
import { PollWatch } from "./fallback/poll.js";
import type { Mover } from "./follow/follower.js";
import { PaneWatch } from "./pane-watch.js";
import type { After } from "./seed/observer.js";
import { WidthLearner } from "./seed/widths.js";
import type { WatchSettings } from "./settings.js";
import type { Watch } from "./watch.js";

/** Failures of control mode itself; the pane may still be readable through one-shot commands. */
const CONTROL_FAILURES = new Set(["tmux-exited", "timeout", "protocol", "command-failed"]);

export class WatchStarter implements Mover {
  readonly server: TmuxServer;
  private readonly sessions: SessionRegistry;
  private readonly widths: WidthLearner;
  private readonly deadPanes: DeadPaneGuard;

  constructor(
    private readonly settings: WatchSettings,
    /** Where output is confirmed when the quiet client is on (confirm/quiet-client.ts). */
    private readonly quiet: QuietClient,
  ) {
    this.server = settings.server;
    this.widths = new WidthLearner(settings.warn);
    this.deadPanes = new DeadPaneGuard(settings.server, settings.warn);
    // Watches re-seed on %pause themselves (the seed recipe resumes the pane): no auto-continue.
    this.sessions = new SessionRegistry({
      server: settings.server,
      graceMs: 2000,
      client: { ...settings.client, autoContinue: false },
      start: settings.startClient,
    });
  }

  /** Streams the pane if control mode works, else polls it (and says so once). */
  async start(paneId: string, after: After | undefined): Promise<Watch> {
    const session = await this.sessionOf(paneId);
    try {
      if (!(await this.deadPanes.streamable(session))) throw new PanescopeError("not-allowed", "tmux 3.2 and remain-on-exit");
      return await this.stream(paneId, session, after);
    } catch (error) {
      if (!isPanescopeError(error) || (!CONTROL_FAILURES.has(error.kind) && error.kind !== "not-allowed")) throw error;
      const retryS = Math.round(this.settings.retryStreamingMs / 1000);
      if (error.kind !== "not-allowed") {
        this.settings.warn(`panescope: control mode unavailable for ${paneId} (${messageOf(error)}); polling capture-pane, retrying in ${retryS} s`);
      }
      const widths = await this.widths.policy((argv) => this.settings.server.run(argv));
      return PollWatch.start(this.settings, paneId, { after, widths }, (next) => this.retryStreaming(paneId, next));
    }
  }

  warn(message: string): void {
    this.settings.warn(message);
  }

  /** Whether panes of `session` may be streamed (fallback/dead-pane-guard.ts). */
  streamable(session: string): Promise<boolean> {
    return this.deadPanes.streamable(session);
  }

  /** A control client for `session` (a session id), held until the lease is released. */
  async lease(session: string): Promise<SessionLease> {
    const lease = await this.sessions.acquire(session);
    if (!lease.client.closed) return lease;
    // Closed while it started: the registry forgets a closed client, so this one is new.
    lease.release();
    return this.sessions.acquire(session);
  }

  async closeAll(): Promise<void> {
    await this.sessions.closeAll();
  }

  /** Tries control mode again for a polled pane: the stream that continues after it, or undefined. */
  private async retryStreaming(paneId: string, after: After): Promise<Watch | undefined> {
    try {
      const session = await this.sessionOf(paneId);
      if (!(await this.deadPanes.streamable(session))) return undefined;
      return await this.stream(paneId, session, after);
    } catch {
      return undefined;
    }
  }

  private async stream(paneId: string, session: string, after: After | undefined): Promise<PaneWatch> {
    // A client whose tmux just ended (server restarted) that the registry has not dropped yet is
    // replaced by lease().
    const lease = await this.lease(session);
    let widths;
    let version;
    try {
      await this.deadPanes.watch(lease.client);
      widths = await this.widths.policy((argv) => lease.client.command(argv));
      version = await this.settings.server.version().catch(() => undefined);
    } catch (error) {
      lease.release();
      throw error;
    }
    // The watch owns the lease from here (it gives it back when it fails to start, too).
    return PaneWatch.start(lease.client, paneId, this.settings, { after, widths, version, quiet: this.quiet, mover: this, lease });
  }

  private async sessionOf(paneId: string): Promise<string> {
    try {
      const found = await this.settings.server.display(paneId, new TmuxFormat({ paneId: "pane_id", session: "session_id" }));
      if (found?.paneId === paneId && found.session !== "") return found.session;
    } catch (error) {
      if (!isPanescopeError(error, "command-failed")) throw error;
    }
    throw new PanescopeError("unknown-pane", `no pane ${paneId} on this tmux server: list_panes shows the panes there are`);
  }
}
