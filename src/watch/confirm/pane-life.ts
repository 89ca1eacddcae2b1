// Confirm, for one streamed pane: its life as the watch knows it — output held until confirmed
// (confirm.ts), the pane's end (closed only once its last output is in), a respawn (another process
// in the pane: the watch is over) — and the checks that find these out: the /proc look
// (pane-process.ts), the life question through the watching client (ask.ts), the quiet client.
import type { PaneExit } from "../../observe/read/delta.js";
import type { PaneObserver } from "../../observe/pane/observer.js";
import type { ControlClient } from "../../tmux/client.js";
import { askWatchingClient } from "./ask.js";
import { Confirmer, type Witness } from "./confirm.js";
import { PaneProcess, type PaneProcessIds } from "./pane-process.js";
import type { QuietClient } from "./quiet-client.js";

/**
 * How long after the probe a late find of the pane's process is tried (lookAt): tmux's child takes
 * the pty as its controlling terminal after the fork, and on a loaded machine that can come after
 * the probe (2 cores, both busy: 4 watches of 30 started right after `new-window`). A late find is
 * as sound as one at the probe (pane-process.ts): a respawn in between leaves the probe's process
 * dead or off its terminal, so the find fails, unless the kernel gave the new process the old pid,
 * which it does only after handing out every other pid (pid_max: 32768 by default, 4194304 where
 * systemd raises it), not within 250 ms.
 */
const LATE_FIND_MS = 250;
/** The first late find's delay; each next one waits twice as long. */
const LATE_FIND_FIRST_MS = 2;

/** What a check found: still the same process, gone/exited, or a new process in the pane. */
export type CheckResult = "alive" | "closed" | "respawned";

/** The watch a life belongs to (PaneWatch). */
export interface LifeHost {
  readonly paneId: string;
  /** The client watching the pane now. */
  client(): Pick<ControlClient, "closed" | "command">;
  /** The observer once seeded. */
  observer(): PaneObserver | undefined;
  /** A session the watching client is attached to (for the quiet client). */
  session(): string | undefined;
  /** tmux does not list the pane: find where it is (or close it). */
  displaced(): void;
  /**
   * The pane ended: audit once more, now, and then `close` (closeObserver says why): with tmux's
   * screen when the audit takes it, before the readers it wakes see the observer.
   */
  ended(close: () => void): void;
}

export class PaneLife {
  /** Set when another process runs in the pane: the hub replaces the watch. */
  respawned = false;
  /** Live output waits here until tmux confirms the pane still runs the observer's process. */
  readonly confirmer: Confirmer;

  constructor(
    private readonly host: LifeHost,
    quiet: QuietClient | undefined,
    /** Finds the pane's process in /proc (a seam: tests give a made-up one). */
    private readonly find: (ids: PaneProcessIds) => Witness | undefined = (ids) => PaneProcess.find(ids),
  ) {
    this.confirmer = new Confirmer(
      {
        paneId: host.paneId,
        panePid: () => host.observer()?.identity.panePid,
        session: () => host.session(),
        askHere: async () => void (await this.check()),
        awaited: () => (host.observer()?.waiting ?? 0) > 0,
        deliver: (data) => host.observer()?.ingest(data),
        respawned: () => this.markRespawned(),
        gone: () => host.displaced(),
        close: (exit) => this.closeObserver(exit),
      },
      quiet,
    );
  }

  /**
   * From now on output is confirmed by a look at /proc while that vouches for the process (Linux).
   * Called right after the probe that gave `ids`; a process not found yet is looked for again, at
   * 2, 4, 8… ms, for LATE_FIND_MS (until then its output is confirmed by tmux).
   */
  lookAt(ids: PaneProcessIds): void {
    const witness = this.find(ids);
    if (witness) this.confirmer.useWitness(witness);
    else this.findLater(ids, LATE_FIND_FIRST_MS, performance.now() + LATE_FIND_MS);
  }

  private findLater(ids: PaneProcessIds, delay: number, until: number): void {
    if (performance.now() + delay > until) return;
    const timer = setTimeout(() => {
      if (!this.confirmer.active || this.respawned) return;
      const witness = this.find(ids);
      if (witness) this.confirmer.useWitness(witness);
      else this.findLater(ids, delay * 2, until);
    }, delay);
    timer.unref();
  }

  /** Asks tmux, through the watching client, whether the pane is still alive and the same process. */
  async check(): Promise<CheckResult> {
    const observer = this.host.observer();
    if (this.respawned) return "respawned";
    if (!observer) return "alive";
    // Probed even when already closed: a dead pane (remain-on-exit) can be respawned.
    await askWatchingClient(this.host.client(), this.host.paneId, this.confirmer, observer.identity.panePid, () => this.host.displaced());
    return this.respawned ? "respawned" : observer.closed ? "closed" : "alive";
  }

  /**
   * The pane is gone or its program ended (a follow, a subscription, a capture): close the observer
   * once every byte received so far is in it, so no reader is told `closed` before the last output.
   * `screenTaken`: found by a probe that just took the pane's screen from tmux (no last audit).
   */
  markClosed(exit?: PaneExit, screenTaken = false): void {
    if (screenTaken) this.screenTaken = true;
    this.confirmer.ended(exit);
  }

  /** A different process now runs in the pane: wake readers with the break; the hub replaces the watch. */
  markRespawned(): void {
    if (this.respawned) return;
    this.respawned = true;
    // Held output may be the new process's: it never reaches this observer (the successor seeds).
    this.confirmer.stop();
    this.host.observer()?.addBreak("respawned", 0);
  }

  /**
   * The pane ended, its received output all in the observer. tmux 3.3+ discards output it had not
   * sent us yet when a pane dies under remain-on-exit (control.c: a dead pane counts as none), so
   * the last lines may never arrive: the host audits once more and takes them from tmux's screen.
   */
  private closeObserver(exit: PaneExit | undefined): void {
    const observer = this.host.observer();
    if (!observer) return;
    if (observer.closed) {
      observer.markClosed(exit); // how it ended, when that came later
      return;
    }
    // Closed once that audit is done: a reader that stops at `closed` has the last lines with it
    // (closed first, they came one read later: 1 run in 5-10 with remain-on-exit, tmux 3.3a).
    this.closingExit = exit ?? this.closingExit;
    if (this.screenTaken && !this.closing) return observer.markClosed(this.closingExit);
    if (this.closing) return;
    this.closing = true;
    this.host.ended(() => observer.markClosed(this.closingExit));
  }

  /** The pane's end was found with its screen just taken from tmux (a probe): no last audit. */
  private screenTaken = false;
  /** The pane's end was found and its last audit is under way; how it ended, as known so far. */
  private closing = false;
  private closingExit: PaneExit | undefined;
}
