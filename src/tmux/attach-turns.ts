// Our control clients never attach while one of ours detaches, nor detach while one attaches.
//
// tmux 3.2a–3.6a write `%client-detached` (and a few other notifications: session created, closed
// or renamed, a pane's mode, a window's active pane) to every control client, also one that has
// sent its flags but not yet finished identifying, which has no control state yet: a NULL read in
// control_write and the server is gone (`segfault at 20` on 3.3a; 3.7 checks for it in
// CONTROL_SHOULD_NOTIFY_CLIENT). Measured: 500 panes across 50 sessions read over stdio with the
// hub's cap of 64 crashed tmux 3.3a in both of two runs: the evictions detach one session's client
// while the next session's attaches. What other processes do to tmux meanwhile cannot be helped.
//
// A detach counts as over once tmux has answered a command sent after its client ended: tmux runs
// its global queue (where the notification waits) before any client's commands in the same turn.
//
// One set of turns per tmux server object (attachTurnsFor), shared by every client we attach to
// it: the watching clients (sessions.ts) and the quiet client (watch/confirm/quiet-client.ts).

import { PROBE_TIMEOUT_MS } from "./timeouts.js";

export class AttachTurns {
  private readonly attaching = new Set<Promise<void>>();
  private detaching: Promise<void> = Promise.resolve();

  /** `settle`: one round trip to the tmux server (its failure is ignored). */
  constructor(private readonly settle: () => Promise<unknown>) {}

  /** Runs `attach` once no detach of ours is in flight; a detach asked for meanwhile waits for it. */
  attach<T>(attach: () => Promise<T>): Promise<T> {
    const started = this.detaching.then(attach);
    const over = started.then(
      () => undefined,
      () => undefined,
    );
    this.attaching.add(over);
    void over.then(() => this.attaching.delete(over));
    return started;
  }

  /** Runs `detach` once the attaches in flight are done, then settles; attaches asked for later wait. */
  detach(detach: () => Promise<void>): Promise<void> {
    const inFlight = [...this.attaching];
    const done = (async () => {
      await Promise.all(inFlight);
      await detach();
      await this.settle().catch(() => undefined);
    })();
    const before = this.detaching;
    this.detaching = Promise.all([before, done.catch(() => undefined)]).then(() => undefined);
    return done;
  }
}

/** What the turns need of a tmux server: one round trip (TmuxServer.run). */
export interface TurnsServer {
  run(args: readonly string[], options: { timeoutMs: number }): Promise<unknown>;
}

const perServer = new WeakMap<TurnsServer, AttachTurns>();

/** The attach turns of every control client we start on `server` (the same object, the same turns). */
export function attachTurnsFor(server: TurnsServer): AttachTurns {
  let turns = perServer.get(server);
  if (turns === undefined) {
    turns = new AttachTurns(() => server.run(["display-message", "-p", ""], { timeoutMs: PROBE_TIMEOUT_MS }));
    perServer.set(server, turns);
  }
  return turns;
}
