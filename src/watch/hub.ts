// The hub: owns one PaneWatch per watched pane (through the session registry's control clients),
// creates them on first read, retires idle ones under a cap, and answers capture_since reads.
import { PanescopeError, isPanescopeError } from "../errors.js";
import { decodeCursor } from "../observe/cursor.js";
import type { Delta, MissedReason, ReadLimits } from "../observe/delta.js";
import { instanceId } from "../observe/instance.js";
import { loadCursorKey } from "../observe/key.js";
import type { PaneObserver } from "../observe/pane.js";
import { SessionRegistry, type SessionLease } from "../tmux/sessions.js";
import { validatePaneId, type TmuxServer } from "../tmux/server.js";
import { PaneWatch } from "./pane-watch.js";

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
}

interface Entry {
  watch: PaneWatch;
  lease: SessionLease;
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
  private readonly sessions: SessionRegistry;
  private readonly watches = new Map<string, Promise<Entry>>();
  /** The same watches once started, for the sweep. */
  private readonly started = new Map<string, Entry>();
  /** Where retired observers ended, so a successor continues after them. Bounded. */
  private readonly retired = new Map<string, { offset: number; seq: number; reason: MissedReason }>();
  private readonly options: HubOptions;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;

  constructor(options: HubOptions) {
    this.options = options;
    this.server = options.server;
    this.key = options.key ?? loadCursorKey(options.warn ? { warn: options.warn } : {}).key;
    this.instance = options.instance ?? instanceId();
    // The hub re-seeds on %pause itself (the seed recipe resumes the pane), so no auto-continue.
    this.sessions = new SessionRegistry({ server: options.server, graceMs: 2000, client: { autoContinue: false } });
  }

  /** The observer of a pane, watching it first if needed. */
  async observer(paneId: string): Promise<PaneObserver> {
    validatePaneId(paneId);
    let pending = this.watches.get(paneId);
    if (pending) {
      const entry = await pending.catch(() => undefined);
      if (entry && !entry.lease.client.closed) {
        entry.watch.lastUsed = Date.now();
        const state = await entry.watch.check();
        if (state !== "respawned") return entry.watch.observer;
        this.retire(paneId, entry, "respawned");
      } else if (this.watches.get(paneId) === pending) {
        if (entry) this.retire(paneId, entry, "server-restarted");
        else this.watches.delete(paneId);
      }
    }
    pending = this.watches.get(paneId) ?? this.start(paneId);
    const entry = await pending;
    entry.watch.lastUsed = Date.now();
    return entry.watch.observer;
  }

  /** The pane a read is about: the cursor's, else the one named, else tmux's active pane. */
  async resolvePane(paneId: string | undefined, cursor: string | undefined): Promise<string> {
    if (cursor !== undefined) {
      const fromCursor = `%${decodeCursor(cursor, this.key).pane}`;
      if (paneId !== undefined && paneId !== fromCursor) {
        throw new PanescopeError(
          "cursor-other-pane",
          `the cursor belongs to pane ${fromCursor}, not ${paneId}: omit paneId, or omit cursor to start watching ${paneId}`,
        );
      }
      return fromCursor;
    }
    if (paneId !== undefined) return validatePaneId(paneId);
    const [active] = await this.server.run(["display-message", "-p", "#{pane_id}"]);
    if (!active) throw new PanescopeError("unknown-pane", "tmux reports no active pane: pass paneId (list_panes shows them)");
    return active;
  }

  /** The capture_since contract: what changed since the cursor, waiting up to waitMs for news. */
  async capture(request: CaptureRequest): Promise<Delta> {
    const paneId = await this.resolvePane(request.paneId, request.cursor);
    const observer = await this.observer(paneId);
    if (request.waitMs && request.waitMs > 0) {
      return observer.waitForChange(request.cursor, request.waitMs, request.signal, request.limits);
    }
    return observer.read(request.cursor, request.limits);
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
      result.value.lease.release();
    }
    await this.sessions.closeAll();
  }

  private start(paneId: string): Promise<Entry> {
    const pending = (async (): Promise<Entry> => {
      const session = await this.sessionOf(paneId);
      const lease = await this.sessions.acquire(session);
      try {
        const after = this.retired.get(paneId);
        const watch = await PaneWatch.start(lease.client, paneId, {
          key: this.key,
          instance: this.instance,
          ...(this.options.scrollback === undefined ? {} : { scrollback: this.options.scrollback }),
          ...(this.options.ringBytes === undefined ? {} : { ringBytes: this.options.ringBytes }),
          ...(after ? { after } : {}),
        });
        return { watch, lease };
      } catch (error) {
        lease.release();
        throw error;
      }
    })();
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

  private async sessionOf(paneId: string): Promise<string> {
    try {
      const [session] = await this.server.run(["display-message", "-p", "-t", paneId, "#{session_id}"]);
      if (session) return session;
    } catch (error) {
      if (!isPanescopeError(error, "command-failed")) throw error;
    }
    throw new PanescopeError("unknown-pane", `no pane ${paneId} on this tmux server: list_panes shows the panes there are`);
  }

  private retire(paneId: string, entry: Entry, reason: MissedReason): void {
    const { observer } = entry.watch;
    // The successor's offsets and sequences start beyond every cursor this observer issued.
    this.retired.set(paneId, { offset: observer.offset, seq: observer.sequence, reason });
    if (this.retired.size > 4096) this.retired.delete(this.retired.keys().next().value ?? "");
    this.watches.delete(paneId);
    this.started.delete(paneId);
    entry.watch.dispose();
    entry.lease.release();
  }

  /** Retires panes unread for idleMs, then the least recently read beyond maxPanes. */
  private sweep(): void {
    const idleMs = this.options.idleMs ?? 10 * 60_000;
    const maxPanes = this.options.maxPanes ?? 64;
    const byAge = [...this.started].sort((a, b) => a[1].watch.lastUsed - b[1].watch.lastUsed);
    const now = Date.now();
    let excess = byAge.length - maxPanes;
    for (const [paneId, entry] of byAge) {
      if (excess-- > 0 || now - entry.watch.lastUsed > idleMs) this.retire(paneId, entry, "evicted");
    }
  }
}
