// The hub: owns one watch per watched pane (a PaneWatch through the session registry's control
// clients, or a PollWatch when control mode is unavailable), creates them on first read, replaces
// them when the pane respawned or the tmux server restarted, retires idle ones under a cap, and
// answers capture_since reads.
import { PanescopeError, messageOf } from "../errors.js";
import { decodeCursor, socketTag } from "../observe/cursor/codec.js";
import type { Delta, MissedReason, ReadLimits } from "../observe/read/delta.js";
import { instanceId } from "../observe/cursor/instance.js";
import { loadCursorKey } from "../observe/cursor/key.js";
import type { PaneObserver } from "../observe/pane/observer.js";
import type { ControlClientOptions } from "../tmux/client.js";
import { TmuxFormat } from "../tmux/format.js";
import type { SessionRegistryOptions } from "../tmux/sessions.js";
import { samePane } from "../tmux/pane-id.js";
import { validatePaneId, type TmuxServer } from "../tmux/server.js";
import type { AuditStats } from "./audit.js";
import { inSession, locate } from "./follow.js";
import { Liveness } from "./liveness.js";
import { PaneWatch } from "./pane-watch.js";
import { PollWatch } from "./poll.js";
import { WatchStarter, type After, type Entry } from "./starter.js";

export interface HubOptions {
  server: TmuxServer;
  key?: Uint8Array;
  instance?: Uint8Array;
  /** Most panes watched at once; the least recently read is retired first. */
  maxPanes?: number;
  /** A pane unread this long is retired (its cursors are then answered as missed, "evicted"). */
  idleMs?: number;
  scrollback?: number;
  ringBytes?: number;
  warn?: (message: string) => void;
  /** Control client settings (e.g. pauseAfterSeconds, spawn); the hub always sets autoContinue off. */
  client?: Omit<ControlClientOptions, "server" | "session" | "autoContinue">;
  /** How control clients are started (a seam; default ControlClient.start). */
  startClient?: SessionRegistryOptions["start"];
  /** A pane read by polling tries control mode again after this long. Default 30 s. */
  retryStreamingMs?: number;
  /** How often a waiting read polls while control mode is unavailable. Default 250 ms. */
  pollIntervalMs?: number;
  /** Confirm output on a second, `-f no-output` control client (watch/liveness.ts). Default false. */
  quietClient?: boolean;
  /** Confirm output from /proc where it shows the pane's process (watch/pane-process.ts). Default true. */
  localLiveness?: boolean;
}

export interface CaptureRequest {
  paneId?: string;
  cursor?: string;
  waitMs?: number;
  signal?: AbortSignal;
  limits?: ReadLimits;
}

export class Hub {
  readonly server: TmuxServer;
  private readonly key: Uint8Array;
  private readonly instance: Uint8Array;
  private readonly starter: WatchStarter;
  private readonly watches = new Map<string, Promise<Entry>>();
  /** The same watches once started, for the sweep. */
  private readonly started = new Map<string, Entry>();
  /** Where retired observers ended, so a successor continues after them. Bounded. */
  private readonly retired = new Map<string, After>();
  private readonly options: HubOptions;
  /** The quiet control client that confirms who wrote each pane's output (liveness.ts). */
  private readonly liveness: Liveness;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  private socketAsked: Promise<number | undefined> | undefined;

  constructor(options: HubOptions) {
    this.options = options;
    this.server = options.server;
    this.key = options.key ?? loadCursorKey(options.warn ? { warn: options.warn } : {}).key;
    this.instance = options.instance ?? instanceId();
    this.liveness = new Liveness({
      server: options.server,
      quiet: options.quietClient === true,
      warn: (message) => this.warn(message),
      // Timeouts only: the spawn seam is for the watching clients (tests hold their processes).
      client: {
        ...(options.client?.commandTimeoutMs === undefined ? {} : { commandTimeoutMs: options.client.commandTimeoutMs }),
        ...(options.client?.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.client.startTimeoutMs }),
      },
      ...(options.startClient === undefined ? {} : { start: options.startClient }),
    });
    this.starter = new WatchStarter({
      server: options.server,
      key: this.key,
      instance: this.instance,
      warn: (message) => this.warn(message),
      onDisplaced: (watch) => this.displaced(watch),
      liveness: this.liveness,
      ...(options.localLiveness === undefined ? {} : { localLiveness: options.localLiveness }),
      ...(options.scrollback === undefined ? {} : { scrollback: options.scrollback }),
      ...(options.ringBytes === undefined ? {} : { ringBytes: options.ringBytes }),
      ...(options.client === undefined ? {} : { client: options.client }),
      ...(options.startClient === undefined ? {} : { startClient: options.startClient }),
      ...(options.retryStreamingMs === undefined ? {} : { retryStreamingMs: options.retryStreamingMs }),
      ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    });
  }

  /** The observer of a pane, watching it first if needed (polled fresh when not streaming). */
  async observer(paneId: string): Promise<PaneObserver> {
    return (await this.entry(paneId)).watch.observer;
  }

  /** Panes watched now, and whether each streams (for diagnostics and tests). */
  get watching(): { paneId: string; streaming: boolean; closed: boolean; heals: number }[] {
    return [...this.started].map(([paneId, entry]) => ({
      paneId,
      streaming: entry.watch instanceof PaneWatch,
      closed: entry.watch.observer.closed,
      heals: entry.watch.observer.healCount,
    }));
  }

  /** The replica audit's counts for a streamed pane (tests and diagnostics); undefined when not streamed. */
  auditStats(paneId: string): Readonly<AuditStats> | undefined {
    const watch = this.started.get(paneId)?.watch;
    return watch instanceof PaneWatch ? watch.auditor.stats : undefined;
  }

  /** The pane a read is about: the cursor's, else the one named, else tmux's active pane. */
  async resolvePane(paneId: string | undefined, cursor: string | undefined): Promise<string> {
    if (cursor !== undefined) {
      const fields = decodeCursor(cursor, this.key);
      const fromCursor = `%${fields.pane}`;
      // Unknown (no server to ask right now): the pane's own checks answer, as before sockets were bound.
      const here = fields.socket === undefined ? undefined : await this.socketTag();
      if (here !== undefined && fields.socket !== here) {
        throw new PanescopeError(
          "cursor-other-server",
          `the cursor is from another tmux server (another socket) than the one this panescope watches: omit cursor to start watching a pane here, or read it through the panescope of that server`,
        );
      }
      if (paneId !== undefined && !samePane(paneId, fromCursor)) {
        throw new PanescopeError(
          "cursor-other-pane",
          `the cursor belongs to pane ${fromCursor}, not ${paneId}: omit paneId, or omit cursor to start watching ${paneId}`,
        );
      }
      return fromCursor;
    }
    if (paneId !== undefined) return validatePaneId(paneId);
    const active = (await this.server.display(undefined, new TmuxFormat({ paneId: "pane_id" })))?.paneId;
    if (!active) throw new PanescopeError("unknown-pane", "tmux reports no active pane: pass paneId (list_panes shows them)");
    return active;
  }

  /**
   * The capture_since contract: what changed since the cursor, waiting up to waitMs for news.
   * A wait ends at once when the pane closes — also when the tmux server goes away (`closed: true`,
   * the last screen kept) — or when the signal aborts.
   */
  async capture(request: CaptureRequest): Promise<Delta> {
    const paneId = await this.resolvePane(request.paneId, request.cursor);
    // No question to tmux on the read path: a streamed pane's observer holds only output tmux
    // confirmed as its process's (pane-watch.ts), so a read answers from it at once.
    const entry = await this.entry(paneId);
    const { watch } = entry;
    let delta: Delta;
    if (request.waitMs && request.waitMs > 0) {
      delta =
        watch instanceof PollWatch
          ? await watch.waitForChange(request.cursor, request.waitMs, request.signal, request.limits)
          : await watch.observer.waitForChange(request.cursor, request.waitMs, request.signal, request.limits);
    } else {
      delta = await watch.observer.read(request.cursor, request.limits);
    }
    // A new process appeared in the pane while we waited: answer from its watch.
    if (watch.respawned && request.cursor !== undefined) {
      return (await this.entry(paneId)).watch.observer.read(request.cursor, request.limits);
    }
    // Found dead just now: the same answer, now saying so (the cursor given has not moved).
    if (!delta.closed && watch.observer.closed) return watch.observer.read(request.cursor, request.limits);
    return delta;
  }

  /**
   * The tag of this server's socket path, asked once (a restart keeps the path, so it keeps the
   * tag); undefined, and asked again next time, while tmux cannot say (no server yet).
   */
  private socketTag(): Promise<number | undefined> {
    this.socketAsked ??= this.server.display(undefined, SOCKET).then(
      (found) => (found?.socket ? socketTag(found.socket) : undefined),
      () => undefined,
    );
    return this.socketAsked.then((tag) => {
      if (tag === undefined) this.socketAsked = undefined;
      return tag;
    });
  }

  /** Stops watching everything and detaches every control client. */
  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    const entries = await Promise.allSettled([...this.watches.values()]);
    this.watches.clear();
    this.started.clear();
    for (const result of entries) {
      if (result.status !== "fulfilled") continue;
      result.value.watch.dispose();
      result.value.lease?.release();
    }
    await this.starter.closeAll();
    await this.liveness.close();
  }

  /** The entry answering for a pane: an existing watch if it still does, else a new one. */
  private async entry(id: string): Promise<Entry> {
    // One watch per pane however its id is spelled (%07 is %7 to tmux): the map's key is canonical.
    const paneId = validatePaneId(id);
    const pending = this.watches.get(paneId);
    if (pending) {
      const entry = await pending.catch(() => undefined);
      if (entry && !entry.retired) {
        const reason = await this.revalidate(paneId, entry);
        if (reason === undefined) {
          entry.watch.lastUsed = Date.now();
          return entry;
        }
        if (!entry.retired) this.retire(paneId, entry, reason);
      } else if (!entry && this.watches.get(paneId) === pending) {
        this.watches.delete(paneId);
      }
    }
    // Synchronous from the retire above: concurrent readers share one successor.
    const entry = await (this.watches.get(paneId) ?? this.start(paneId));
    entry.watch.lastUsed = Date.now();
    return entry;
  }

  /** Whether a watch still answers for its pane (undefined), or why it must be replaced. */
  private async revalidate(paneId: string, entry: Entry): Promise<MissedReason | undefined> {
    const { watch } = entry;
    if (watch instanceof PollWatch) {
      if (Date.now() - watch.since >= (this.options.retryStreamingMs ?? 30_000) && !watch.observer.closed) {
        watch.since = Date.now();
        if (await this.starter.retryStreaming(paneId, entry, watch)) return undefined;
      }
      return (await watch.check()) === "respawned" ? "respawned" : undefined;
    }
    // A follow in progress (the pane left its client's session, or the client ended) decides first.
    await entry.following;
    // Without a client: find the pane again (or learn that the server restarted) on every read.
    if (!watch.connected) await this.follow(paneId, entry);
    // tmux 3.2a–3.6a are not told of every move (watch/presence.ts): a pane quiet for a second is
    // looked for first; when it left, the answer waits for the follow (flagged "moved"). A client
    // far behind another pane's flood answers late: the read goes on, the look finishes on its own.
    else if (!(await within(watch.stillThere(), LOOK_WAIT_MS, true))) await entry.following;
    if (entry.replace) return entry.replace;
    // A closed pane that sent output again was respawned (a dead pane prints nothing): before
    // answering `closed`, let tmux say who wrote it. Only dead panes wait; floods never do.
    if (watch.observer.closed && watch.unconfirmed > 0) await within(watch.confirmed(), CONFIRM_WAIT_MS, undefined);
    return watch.respawned ? "respawned" : undefined;
  }

  /** A watch says its pane may have left its client's session: follow it (once at a time). */
  private displaced(watch: PaneWatch): void {
    const entry = this.started.get(watch.paneId);
    if (!entry || entry.watch !== watch || entry.retired) return;
    void this.follow(watch.paneId, entry);
  }

  /**
   * Finds where the pane is and keeps watching it there: through the control client of the session
   * that holds it now (flagged "moved"), closed when it is gone, replaced when the server restarted
   * or another process took the pane. Never answers `closed` for a pane that lives.
   */
  private follow(paneId: string, entry: Entry): Promise<void> {
    if (entry.following) {
      entry.followAgain = true;
      return entry.following;
    }
    const run = async (): Promise<void> => {
      do {
        entry.followAgain = false;
        await this.followOnce(paneId, entry).catch((error: unknown) => this.warn(`panescope: following ${paneId}: ${messageOf(error)}`));
      } while (entry.followAgain && !entry.retired);
    };
    entry.following = run().finally(() => (entry.following = undefined));
    return entry.following;
  }

  private async followOnce(paneId: string, entry: Entry): Promise<void> {
    const watch = entry.watch;
    if (!(watch instanceof PaneWatch) || entry.retired) return;
    const observer = watch.observer;
    const where = await locate(this.server, paneId, observer.identity);
    switch (where.kind) {
      case "no-server":
      case "gone":
        watch.markClosed();
        return;
      case "server-restarted":
      case "respawned":
        entry.replace = where.kind;
        if (where.kind === "respawned") observer.addBreak("respawned", 0);
        else observer.markClosed();
        return;
      case "here":
        break;
    }
    if (where.dead) watch.markClosed(where.exit);
    const current = watch.currentSession;
    // Still where we see it (a window can be linked into several sessions), maybe in another of its
    // windows: the watch learns which, so that window leaving the session is seen too.
    if (watch.connected && current !== undefined && (current === where.sessionId || (await inSession(this.server, current, paneId)))) {
      watch.stayed(where.windowId);
      return;
    }
    // tmux 3.2: a session with panes that remain on exit is polled, never streamed (dead-pane-guard.ts).
    if (!(await this.starter.deadPanes.streamable(where.sessionId))) {
      entry.replace = "not-streaming";
      observer.setStreaming(false); // wakes waiters: the next read goes on by polling
      return;
    }
    const lease = await this.starter.lease(where.sessionId);
    if (entry.retired || entry.watch !== watch) {
      lease.release();
      return;
    }
    const previous = entry.lease;
    entry.lease = lease;
    await watch.moveTo(lease.client);
    previous?.release();
  }

  private start(paneId: string): Promise<Entry> {
    const pending = this.starter.start(paneId, this.retired.get(paneId));
    this.watches.set(paneId, pending);
    pending.then(
      (entry) => {
        if (this.watches.get(paneId) === pending) this.started.set(paneId, entry);
        this.sweep();
      },
      () => {
        if (this.watches.get(paneId) === pending) this.watches.delete(paneId);
      },
    );
    this.sweepTimer ??= setInterval(() => this.sweep(), 30_000).unref();
    return pending;
  }

  private retire(paneId: string, entry: Entry, reason: MissedReason): void {
    entry.retired = true;
    const { observer } = entry.watch;
    // The successor's offsets and sequences start beyond every cursor this observer issued.
    this.retired.set(paneId, { offset: observer.offset, seq: observer.sequence, reason });
    if (this.retired.size > 4096) this.retired.delete(this.retired.keys().next().value ?? "");
    if (this.started.get(paneId) === entry) {
      this.watches.delete(paneId);
      this.started.delete(paneId);
    }
    entry.watch.dispose();
    entry.lease?.release();
  }

  private warn(message: string): void {
    (this.options.warn ?? ((m: string) => void process.stderr.write(`${m}\n`)))(message);
  }

  /** Retires panes unread for idleMs, then the least recently read beyond maxPanes. */
  private sweep(): void {
    const idleMs = this.options.idleMs ?? 10 * 60_000;
    const maxPanes = this.options.maxPanes ?? 64;
    const byAge = [...this.started].sort((a, b) => a[1].watch.lastUsed - b[1].watch.lastUsed);
    const now = Date.now();
    let excess = byAge.length - maxPanes;
    for (const [paneId, entry] of byAge) {
      // A pane someone is waiting on is in use, however long ago it was last read.
      if (entry.watch.observer.waiting > 0 || entry.following) continue;
      if (excess-- > 0 || now - entry.watch.lastUsed > idleMs) this.retire(paneId, entry, "evicted");
    }
  }
}

/** How long a read of a closed pane waits for tmux to say who wrote output that came after. */
const CONFIRM_WAIT_MS = 5000;
const SOCKET = new TmuxFormat({ socket: "socket_path" });
/** How long a read waits for tmux to say whether a quiet pane is still in its client's session. */
const LOOK_WAIT_MS = 1000;

/** What `promise` resolves to, or `otherwise` after `ms`, whichever is first. */
async function within<T>(promise: Promise<T>, ms: number, otherwise: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const result = await Promise.race([promise, new Promise<T>((resolve) => (timer = setTimeout(() => resolve(otherwise), ms)))]);
  clearTimeout(timer);
  return result;
}
