// How a pane gets a watch: a PaneWatch over its session's shared control client, or — when control
// mode fails — a PollWatch over one-shot capture-pane; and, later, the stream again.
import { PanescopeError, isPanescopeError, messageOf } from "../errors.js";
import type { ControlClientOptions } from "../tmux/client.js";
import { TmuxFormat } from "../tmux/format.js";
import { SessionRegistry, type SessionLease, type SessionRegistryOptions } from "../tmux/sessions.js";
import type { TmuxServer } from "../tmux/server.js";
import type { WidthPolicy } from "../observe/widths/policy.js";
import { PaneWatch, type PaneWatchOptions } from "./pane-watch.js";
import { PollWatch } from "./poll.js";
import { DeadPaneGuard } from "./dead-pane-guard.js";
import { WidthLearner } from "./widths.js";

export interface Entry {
  watch: PaneWatch | PollWatch;
  /** The control client behind a PaneWatch (none while polling). */
  lease?: SessionLease;
  retired?: boolean;
  /** A follow (follow.ts) in progress, and whether another was asked for meanwhile. */
  following?: Promise<void> | undefined;
  followAgain?: boolean;
  /** Set by a follow: this watch cannot go on (the server restarted, another process in the pane). */
  replace?: "server-restarted" | "respawned" | "not-streaming";
}

export type After = NonNullable<PaneWatchOptions["after"]>;

export interface StarterOptions {
  server: TmuxServer;
  key: Uint8Array;
  instance: Uint8Array;
  scrollback?: number;
  ringBytes?: number;
  client?: Omit<ControlClientOptions, "server" | "session" | "autoContinue">;
  startClient?: SessionRegistryOptions["start"];
  retryStreamingMs?: number;
  pollIntervalMs?: number;
  warn: (message: string) => void;
  /** Passed to every PaneWatch: its pane may have left the session its client sees. */
  onDisplaced?: PaneWatchOptions["onDisplaced"];
  /** Passed to every PaneWatch: where its output is confirmed. */
  liveness?: PaneWatchOptions["liveness"];
  localLiveness?: PaneWatchOptions["localLiveness"];
}

/** Failures of control mode itself; the pane may still be readable through one-shot commands. */
const CONTROL_FAILURES = new Set(["tmux-exited", "timeout", "protocol", "command-failed"]);

export class WatchStarter {
  private readonly sessions: SessionRegistry;
  private readonly widths: WidthLearner;
  readonly deadPanes: DeadPaneGuard;

  constructor(private readonly options: StarterOptions) {
    this.widths = new WidthLearner(options.warn);
    this.deadPanes = new DeadPaneGuard(options.server, options.warn);
    // Watches re-seed on %pause themselves (the seed recipe resumes the pane): no auto-continue.
    this.sessions = new SessionRegistry({
      server: options.server,
      graceMs: 2000,
      client: { ...options.client, autoContinue: false },
      ...(options.startClient ? { start: options.startClient } : {}),
    });
  }

  /** Streams the pane if control mode works, else polls it (and says so once). */
  async start(paneId: string, after: After | undefined): Promise<Entry> {
    const session = await this.sessionOf(paneId);
    try {
      if (!(await this.deadPanes.streamable(session))) throw new PanescopeError("not-allowed", "tmux 3.2 and remain-on-exit");
      return await this.stream(paneId, session, after);
    } catch (error) {
      if (!isPanescopeError(error) || (!CONTROL_FAILURES.has(error.kind) && error.kind !== "not-allowed")) throw error;
      const retryS = Math.round((this.options.retryStreamingMs ?? 30_000) / 1000);
      if (error.kind !== "not-allowed") {
        this.options.warn(`panescope: control mode unavailable for ${paneId} (${messageOf(error)}); polling capture-pane, retrying in ${retryS} s`);
      }
      const widths = await this.widths.policy((argv) => this.options.server.run(argv));
      const watch = await PollWatch.start(this.options.server, paneId, {
        ...this.watchOptions(after, widths),
        ...(this.options.pollIntervalMs === undefined ? {} : { intervalMs: this.options.pollIntervalMs }),
      });
      return { watch };
    }
  }

  /** Tries control mode again for a polled pane; on success the stream replaces the poll in `entry`. */
  async retryStreaming(paneId: string, entry: Entry, poll: PollWatch): Promise<boolean> {
    let next: Entry;
    try {
      const session = await this.sessionOf(paneId);
      if (!(await this.deadPanes.streamable(session))) return false;
      const { observer } = poll;
      next = await this.stream(paneId, session, { offset: observer.offset, seq: observer.sequence, reason: "not-streaming" });
    } catch {
      return false;
    }
    if (entry.retired) {
      next.watch.dispose();
      next.lease?.release();
      return false;
    }
    // The entry object stays the one in the hub's maps; from now on it holds the stream.
    poll.dispose();
    entry.watch = next.watch;
    if (next.lease) entry.lease = next.lease;
    return true;
  }

  /** A control client for `session` (a session id), held until the lease is released. */
  async lease(session: string): Promise<SessionLease> {
    let lease = await this.sessions.acquire(session);
    if (lease.client.closed) {
      lease.release();
      await lease.client.exited;
      lease = await this.sessions.acquire(session);
    }
    return lease;
  }

  async closeAll(): Promise<void> {
    await this.sessions.closeAll();
  }

  private async stream(paneId: string, session: string, after: After | undefined): Promise<Entry> {
    // A client whose tmux just ended (server restarted) that the registry has not dropped yet is
    // replaced by lease().
    const lease = await this.lease(session);
    try {
      await this.deadPanes.watch(lease.client);
      const widths = await this.widths.policy((argv) => lease.client.command(argv));
      const version = await this.options.server.version().catch(() => undefined);
      const watch = await PaneWatch.start(lease.client, paneId, { ...this.watchOptions(after, widths), ...(version ? { version } : {}) });
      return { watch, lease };
    } catch (error) {
      lease.release();
      throw error;
    }
  }

  private watchOptions(after: After | undefined, widths: WidthPolicy | undefined): PaneWatchOptions {
    return {
      ...(widths ? { widths } : {}),
      key: this.options.key,
      instance: this.options.instance,
      ...(this.options.scrollback === undefined ? {} : { scrollback: this.options.scrollback }),
      ...(this.options.ringBytes === undefined ? {} : { ringBytes: this.options.ringBytes }),
      ...(this.options.onDisplaced ? { onDisplaced: this.options.onDisplaced } : {}),
      ...(this.options.liveness ? { liveness: this.options.liveness } : {}),
      ...(this.options.localLiveness === undefined ? {} : { localLiveness: this.options.localLiveness }),
      log: (line) => this.options.warn(`panescope: ${line}`),
      ...(after ? { after } : {}),
    };
  }

  private async sessionOf(paneId: string): Promise<string> {
    try {
      const found = await this.options.server.display(paneId, new TmuxFormat({ paneId: "pane_id", session: "session_id" }));
      if (found?.paneId === paneId && found.session !== "") return found.session;
    } catch (error) {
      if (!isPanescopeError(error, "command-failed")) throw error;
    }
    throw new PanescopeError("unknown-pane", `no pane ${paneId} on this tmux server: list_panes shows the panes there are`);
  }
}
