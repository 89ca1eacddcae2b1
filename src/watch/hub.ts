// The hub: a registry of one watch per watched pane (watch.ts: streamed or polled, it never asks
// which), made on first read, replaced when a watch says it no longer answers for its pane (the
// pane respawned, the server restarted), retired when idle or over the cap (retired.ts: a retired
// pane that then ended is answered closed, gone.ts); and the read path that answers capture_since
// from them. Settings are resolved once here (settings.ts).
import { PanescopeError, isPanescopeError } from "../errors.js";
import { decodeCursor, otherPane, socketTag, type CursorFields } from "../observe/cursor/codec.js";
import type { Delta, MissedReason, PaneExit, ReadLimits } from "../observe/read/delta.js";
import type { PaneObserver } from "../observe/pane/observer.js";
import { TmuxFormat } from "../tmux/format.js";
import { samePane } from "../tmux/pane-id.js";
import { validatePaneId, type TmuxServer } from "../tmux/server.js";
import type { AuditStats } from "./audit/timer.js";
import { QuietClient } from "./confirm/quiet-client.js";
import { GoneWatch } from "./gone.js";
import { RetiredPanes } from "./retired.js";
import type { After } from "./seed/observer.js";
import { resolveSettings, type HubOptions, type WatchSettings } from "./settings.js";
import { WatchStarter } from "./starter.js";
import type { Watch } from "./watch.js";

export type { HubOptions } from "./settings.js";

/** How the hub gets a watch for a pane: WatchStarter (a seam: tests of the registry give fake watches). */
export interface Starter {
  start(paneId: string, after: After | undefined): Promise<Watch>;
  closeAll(): Promise<void>;
}

/** A watch in the registry; `retired` once it was replaced or swept (its reads then go to a successor). */
interface Entry {
  watch: Watch;
  retired?: boolean;
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
  /** Every setting, defaults applied (settings.ts). */
  private readonly settings: WatchSettings;
  private readonly starter: Starter;
  private readonly watches = new Map<string, Promise<Entry>>();
  /** The same watches once started, for the sweep. */
  private readonly started = new Map<string, Entry>();
  /** Where retired observers ended, so a successor continues after them, and whose they were. Bounded. */
  private readonly retired = new RetiredPanes();
  /** The quiet control client that confirms who wrote each pane's output (confirm/quiet-client.ts). */
  private readonly quiet: QuietClient;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  private socketAsked: Promise<number | undefined> | undefined;

  /** One settings object, every field but `server` optional; defaults are applied here, once. */
  constructor(options: HubOptions, seams: { starter?: Starter } = {}) {
    this.settings = resolveSettings(options);
    this.server = this.settings.server;
    const { server, warn, client, startClient, quietClient } = this.settings;
    // Timeouts and the warn only: the spawn seam is for the watching clients (tests hold their processes).
    const quietOptions = { commandTimeoutMs: client.commandTimeoutMs, startTimeoutMs: client.startTimeoutMs, warn };
    this.quiet = new QuietClient({ server, quiet: quietClient, warn, client: quietOptions, start: startClient });
    this.starter = seams.starter ?? new WatchStarter(this.settings, this.quiet);
  }

  private closed = false;

  /** A closed hub watched again would keep the process alive with no one to close it. */
  private refuseClosed(): void {
    if (this.closed) throw new PanescopeError("bad-input", "this Hub was closed: make a new Hub to read panes again");
  }

  /** The observer of a pane, watching it first if needed (polled fresh when not streaming). */
  async observer(paneId: string): Promise<PaneObserver> {
    this.refuseClosed();
    return (await this.entry(paneId)).watch.observer;
  }

  /** Resolves once what the pane had written is in its observer (Watch.caughtUp); at once for a pane not watched. */
  async caughtUp(paneId: string): Promise<void> {
    await this.started.get(validatePaneId(paneId))?.watch.caughtUp();
  }

  /** A reader saw the pane quiet (Watch.atRest): its replica is checked against tmux's screen before it answers. */
  async atRest(paneId: string): Promise<void> {
    await this.started.get(validatePaneId(paneId))?.watch.atRest();
  }

  /**
   * The pane's program ended, as its opener saw (open_pane's start check): its watch closes once
   * what the pane wrote is in. Else a subscription says so, within a second (follow/subscriptions.ts),
   * and reads in that second said the pane was open.
   */
  async paneEnded(paneId: string, exit: PaneExit): Promise<void> {
    const watch = this.started.get(validatePaneId(paneId))?.watch;
    if (!watch) return;
    await watch.caughtUp();
    watch.markClosed(exit);
  }

  /** Panes watched now, and whether each streams (for diagnostics and tests). */
  get watching(): { paneId: string; streaming: boolean; closed: boolean; heals: number }[] {
    return [...this.started].map(([paneId, { watch }]) => ({
      paneId,
      streaming: watch.streaming,
      closed: watch.observer.closed,
      heals: watch.observer.healCount,
    }));
  }

  /** The replica audit's counts for a streamed pane (tests and diagnostics); undefined when not streamed. */
  auditStats(paneId: string): Readonly<AuditStats> | undefined {
    return this.started.get(paneId)?.watch.auditStats;
  }

  /** The pane a read is about: the cursor's, else the one named, else tmux's active pane. */
  async resolvePane(paneId: string | undefined, cursor: string | undefined): Promise<string> {
    return (await this.resolve(paneId, cursor)).paneId;
  }

  /**
   * The capture_since contract: what changed since the cursor, waiting up to waitMs for news.
   * A wait ends at once when the pane closes — also when the tmux server goes away (`closed: true`,
   * the last screen kept) — or when the signal aborts.
   */
  async capture(request: CaptureRequest): Promise<Delta> {
    this.refuseClosed();
    // A library caller's waitMs is not checked by a schema (the tools' are): not a number would
    // make a deadline of a string, and never end.
    const waitMs = request.waitMs;
    if (waitMs !== undefined && (typeof waitMs !== "number" || Number.isNaN(waitMs) || waitMs < 0)) {
      throw new PanescopeError("bad-input", `waitMs must be a number of ms, 0 or more, got ${JSON.stringify(waitMs) ?? String(waitMs)}`);
    }
    // The cursor is decoded once, here; the observer only checks the fields are its pane's.
    const { paneId, fields: cursor } = await this.resolve(request.paneId, request.cursor);
    // No question to tmux on the read path: a streamed pane's observer holds only output tmux
    // confirmed as its process's (confirm/), so a read answers from it at once.
    const entry = await this.entry(paneId);
    const { watch } = entry;
    const delta =
      request.waitMs && request.waitMs > 0
        ? await watch.waitForChange(cursor, request.waitMs, request.signal, request.limits)
        : await watch.observer.read(cursor, request.limits);
    // A new process appeared in the pane while we waited: answer from its watch.
    if (watch.respawned && cursor !== undefined) return (await this.entry(paneId)).watch.observer.read(cursor, request.limits);
    // Found dead just now: the same answer, now saying so (the cursor given has not moved).
    if (!delta.closed && watch.observer.closed) return watch.observer.read(cursor, request.limits);
    return delta;
  }

  /** resolvePane, with the cursor's fields when one was given (decoded once per read). */
  private async resolve(paneId: string | undefined, cursor: string | undefined): Promise<{ paneId: string; fields?: CursorFields }> {
    if (cursor !== undefined) {
      const fields = decodeCursor(cursor, this.settings.key);
      const fromCursor = `%${fields.pane}`;
      // Unknown (no server to ask right now): the pane's own checks answer, as before sockets were bound.
      // A watched pane's probe said its server's socket: no question to tmux on a read (contract.md).
      const watched = this.started.get(fromCursor);
      const here = fields.socket === undefined ? undefined : watched && !watched.retired ? watched.watch.observer.socketTag : await this.socketTag();
      if (here !== undefined && fields.socket !== here) {
        throw new PanescopeError(
          "cursor-other-server",
          `the cursor is from another tmux server (another socket) than the one this panescope watches: omit \`cursor\` to start watching a pane here, or read it through the panescope of that server`,
        );
      }
      if (paneId !== undefined && !samePane(paneId, fromCursor)) throw otherPane(fromCursor, paneId);
      return { paneId: fromCursor, fields };
    }
    if (paneId !== undefined) return { paneId: validatePaneId(paneId) };
    const active = (await this.server.display(undefined, new TmuxFormat({ paneId: "pane_id" })))?.paneId;
    if (!active) throw new PanescopeError("unknown-pane", "tmux reports no active pane: pass paneId (list_panes shows them)");
    return { paneId: active };
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

  /** Stops watching everything and detaches every control client; the hub answers no read after. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    const entries = await Promise.allSettled([...this.watches.values()]);
    this.watches.clear();
    this.started.clear();
    for (const result of entries) {
      if (result.status !== "fulfilled") continue;
      result.value.watch.dispose();
    }
    await this.starter.closeAll();
    await this.quiet.close();
  }

  /** The entry answering for a pane: an existing watch if it still does, else a new one. */
  private async entry(id: string): Promise<Entry> {
    // One watch per pane however its id is spelled (%07 is %7 to tmux): the map's key is canonical.
    const paneId = validatePaneId(id);
    const pending = this.watches.get(paneId);
    if (pending) {
      const entry = await pending.catch(() => undefined);
      if (entry && !entry.retired) {
        const reason = await this.revalidate(entry);
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

  /** Whether a watch still answers for its pane (undefined), or why it must be replaced; takes over a handover. */
  private async revalidate(entry: Entry): Promise<MissedReason | undefined> {
    const verdict = await entry.watch.revalidate();
    if (verdict.kind === "replace") return verdict.reason;
    if (verdict.kind === "handover") {
      // A polled pane streams again: the entry stays the one in the maps and holds the stream.
      if (entry.retired) verdict.next.dispose();
      else {
        entry.watch.dispose();
        entry.watch = verdict.next;
      }
    }
    return undefined;
  }

  private start(paneId: string): Promise<Entry> {
    const pending = this.starter
      .start(paneId, this.retired.after(paneId))
      .catch((error: unknown) => this.gone(paneId, error))
      .then((watch): Entry => ({ watch }));
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
    this.sweepTimer ??= this.sweeping();
    return pending;
  }

  /**
   * A pane tmux no longer knows that this hub watched before and retired: if the server is the one
   * it was watched on, the pane ended unwatched, and its reader is told so (closed, and what it
   * missed: gone.ts) as one of a pane never retired is. Else (another server on the socket, or
   * never watched) the error stands.
   */
  private async gone(paneId: string, error: unknown): Promise<Watch> {
    const retired = this.retired.get(paneId);
    if (!isPanescopeError(error, "unknown-pane") || retired === undefined) throw error;
    const server = await this.server.serverGeneration().catch(() => undefined);
    if (server?.pid !== retired.identity.serverPid || server.startTime !== retired.identity.serverStart) throw error;
    return new GoneWatch(paneId, retired, this.settings.key);
  }

  /** Made outside start(): a closure there would share its context, and keep the first watch for ever. */
  private sweeping(): ReturnType<typeof setInterval> {
    return setInterval(() => this.sweep(), 30_000).unref();
  }

  private retire(paneId: string, entry: Entry, reason: MissedReason): void {
    entry.retired = true;
    this.retired.add(paneId, entry.watch.observer, reason);
    if (this.started.get(paneId) === entry) {
      this.watches.delete(paneId);
      this.started.delete(paneId);
    }
    entry.watch.dispose();
  }

  /** Retires panes unread for idleMs, then the least recently read beyond maxPanes. */
  private sweep(): void {
    const { idleMs, maxPanes, recentMs } = this.settings;
    const byAge = [...this.started].sort((a, b) => a[1].watch.lastUsed - b[1].watch.lastUsed);
    const now = Date.now();
    let excess = byAge.length - maxPanes;
    for (const [paneId, entry] of byAge) {
      // A pane someone is waiting on is in use, however long ago it was last read; one read just
      // now is being answered (or a wait on several panes is being set up): with every other pane in
      // use, its watch was let go under its reader, whose answer then said the pane had closed.
      if (entry.watch.inUse || now - entry.watch.lastUsed < recentMs) continue;
      if (excess-- > 0 || now - entry.watch.lastUsed > idleMs) this.retire(paneId, entry, "evicted");
    }
  }
}

const SOCKET = new TmuxFormat({ socket: "socket_path" });
