// Registry of control clients: one per watched session, started on first acquire, closed when the
// last holder releases it (after an optional grace delay), dropped when its tmux client exits so
// the next acquire starts a fresh one.

import { attachTurnsFor, type AttachTurns } from "./attach-turns.js";
import { ControlClient, type ControlClientOptions } from "./client.js";
import type { TmuxServer } from "./server.js";

export interface SessionLease {
  client: ControlClient;
  /** Give the client back; idempotent. The last release closes it (after the grace delay). */
  release(): void;
}

export interface SessionRegistryOptions {
  server: TmuxServer;
  /** Keep an unused client this long before closing it, so a quick re-acquire reuses it. Default 0. */
  graceMs?: number;
  /** Passed to every ControlClient.start (session and server are filled in). */
  client?: Omit<ControlClientOptions, "server" | "session">;
  start?: (options: ControlClientOptions) => Promise<ControlClient>;
}

interface Entry {
  starting: Promise<ControlClient>;
  /** Once started. */
  client?: ControlClient;
  refs: number;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
}

export class SessionRegistry {
  private readonly entries = new Map<string, Entry>();
  /** Every entry whose client has not been closed yet, in the map or not. */
  private readonly live = new Set<Entry>();
  private readonly options: SessionRegistryOptions;
  /** Attaches and detaches of our clients never overlap (attach-turns.ts: tmux 3.2a–3.6a crash). */
  private readonly turns: AttachTurns;

  constructor(options: SessionRegistryOptions) {
    this.options = options;
    this.turns = attachTurnsFor(options.server);
  }

  /** Sessions with a live (or starting) client. */
  get sessions(): string[] {
    return [...this.entries.keys()];
  }

  async acquire(session: string): Promise<SessionLease> {
    let entry = this.entries.get(session);
    // A client already closed (tmux ended it, or it was closed) is forgotten now, not once its process
    // exits: a stopped tmux holds that exit back for as long as it is stopped.
    if (entry?.client?.closed === true) {
      this.entries.delete(session);
      entry = undefined;
    }
    if (entry === undefined) {
      const start = this.options.start ?? ((o: ControlClientOptions) => ControlClient.start(o));
      const created: Entry = {
        starting: this.turns.attach(() => start({ ...this.options.client, server: this.options.server, session })),
        refs: 0,
        idleTimer: undefined,
      };
      entry = created;
      this.entries.set(session, created);
      this.live.add(created);
      void created.starting.then(
        (client) => client.exited,
        () => undefined,
      ).then(() => this.live.delete(created));
      created.starting.then(
        (client) => {
          created.client = client;
          // A client whose tmux ended is useless: forget it so the next acquire starts afresh.
          void client.exited.then(() => {
            if (this.entries.get(session) === created) this.entries.delete(session);
          });
          // One switched to another session (a user's plain `tmux switch-client` can pick it) no
          // longer sees this one: the next acquire starts a client that does. Its holders move on.
          const off = client.on((event) => {
            if (event.type !== "session-changed" || !/^\$\d+$/.test(session) || event.sessionId === session) return;
            off();
            if (this.entries.get(session) === created) this.entries.delete(session);
          });
        },
        () => {
          if (this.entries.get(session) === created) this.entries.delete(session);
        },
      );
    }
    entry.refs += 1;
    if (entry.idleTimer !== undefined) {
      clearTimeout(entry.idleTimer);
      entry.idleTimer = undefined;
    }
    const held = entry;
    let client: ControlClient;
    try {
      client = await held.starting;
    } catch (error) {
      held.refs -= 1;
      throw error;
    }
    let released = false;
    return {
      client,
      release: () => {
        if (released) return;
        released = true;
        this.release(session, held, client);
      },
    };
  }

  /** Close every client now (shutdown). */
  async closeAll(): Promise<void> {
    // Also clients no longer in the map (switched away, still held): every client we started.
    const entries = [...this.live];
    this.entries.clear();
    this.live.clear();
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.idleTimer !== undefined) clearTimeout(entry.idleTimer);
        const client = await entry.starting.catch(() => undefined);
        await client?.close(); // nothing of ours attaches after a shutdown
      }),
    );
  }

  private release(session: string, entry: Entry, client: ControlClient): void {
    entry.refs -= 1;
    if (entry.refs > 0) return;
    const close = (): void => {
      entry.idleTimer = undefined;
      if (entry.refs > 0) return;
      if (this.entries.get(session) === entry) this.entries.delete(session);
      void this.turns.detach(() => client.close());
    };
    const grace = this.options.graceMs ?? 0;
    if (grace > 0) entry.idleTimer = setTimeout(close, grace);
    else close();
  }
}
