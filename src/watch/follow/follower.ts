// Follow: a streamed pane that may have left the session its control client sees (moved, its window
// unlinked, the client switched or ended) is looked for (locate.ts) and watched again where it is
// now, through the control client of that session (flagged "moved"); closed when it is gone;
// replaced when the server restarted or another process took the pane. Never `closed` for a pane
// that lives. Also what a streamed watch checks before each read (revalidate).
import { messageOf } from "../../errors.js";
import type { MissedReason, PaneExit } from "../../observe/read/delta.js";
import type { PaneObserver } from "../../observe/pane/observer.js";
import type { SessionLease } from "../../tmux/sessions.js";
import type { TmuxServer } from "../../tmux/server.js";
import { inSession, locate } from "./locate.js";

/** The streamed watch being followed (PaneWatch). */
export interface Followed {
  readonly paneId: string;
  readonly observer: PaneObserver;
  /** Its control client is usable. */
  readonly connected: boolean;
  readonly currentSession: string | undefined;
  readonly disposed: boolean;
  readonly respawned: boolean;
  /** Output received and not yet confirmed. */
  readonly unconfirmed: number;
  confirmed(): Promise<void>;
  /** False when a look found the pane gone from its client's session (presence.ts). */
  stillThere(): Promise<boolean>;
  markClosed(exit?: PaneExit): void;
  /**
   * Found in its client's session after something said it left: in window `windowId`. Its screen
   * is taken again, flagged `moved` (it may have been outside the session meanwhile: PaneWatch.stayed).
   */
  stayed(windowId: string): Promise<void>;
  /** Watch the pane through this lease's client from now on. */
  moveTo(lease: SessionLease): Promise<void>;
}

/** Where a pane can be watched from (the starter). */
export interface Mover {
  readonly server: TmuxServer;
  /** Whether panes of the session may be streamed (fallback/dead-pane-guard.ts). */
  streamable(session: string): Promise<boolean>;
  /** A control client of the session. */
  lease(session: string): Promise<SessionLease>;
  warn(message: string): void;
}

/** Set by a follow: the watch cannot go on. */
export type Replacement = "server-restarted" | "respawned" | "not-streaming";

/** How long a read of a closed pane waits for tmux to say who wrote output that came after. */
const CONFIRM_WAIT_MS = 5000;
/** How long a read waits for tmux to say whether a quiet pane is still in its client's session. */
const LOOK_WAIT_MS = 1000;

export class Follower {
  /** Set by a follow: the watch cannot go on, the hub replaces it. */
  replace: Replacement | undefined;
  private following: Promise<void> | undefined;
  private again = false;
  /**
   * The last follow failed (tmux did not answer where the pane is, or no client could be had): the
   * watch may still listen where the pane no longer is, and no event may come to say so again.
   */
  private failed = false;

  /** The last follow failed: the next read follows again (revalidate). */
  get lost(): boolean {
    return this.failed;
  }

  constructor(
    private readonly watch: Followed,
    private readonly mover: Mover,
  ) {}

  /** A follow is running. */
  get busy(): boolean {
    return this.following !== undefined;
  }

  /** Finds where the pane is and keeps watching it there (once at a time; asked again meanwhile: once more). */
  follow(): Promise<void> {
    if (this.following) {
      this.again = true;
      return this.following;
    }
    const run = async (): Promise<void> => {
      do {
        this.again = false;
        this.failed = false;
        await this.once().catch((error: unknown) => {
          this.failed = true;
          this.mover.warn(`panescope: following ${this.watch.paneId}: ${messageOf(error)}`);
        });
      } while (this.again && !this.watch.disposed);
    };
    this.following = run().finally(() => (this.following = undefined));
    return this.following;
  }

  /** Whether the watch still answers for its pane (undefined), or why it must be replaced. */
  async revalidate(): Promise<MissedReason | undefined> {
    const watch = this.watch;
    // A follow in progress (the pane left its client's session, or the client ended) decides first.
    await this.following;
    // Without a client, or after a follow that failed: find the pane again (or learn that the server
    // restarted) on every read.
    if (!watch.connected || this.failed) await this.follow();
    // tmux 3.2a–3.6a are not told of every move (presence.ts): a pane quiet for a second is looked
    // for first; when it left, the answer waits for the follow (flagged "moved"). A client far
    // behind another pane's flood answers late: the read goes on, the look finishes on its own.
    else if (!(await within(watch.stillThere(), LOOK_WAIT_MS, true))) await this.following;
    if (this.replace) return this.replace;
    // A closed pane that sent output again was respawned (a dead pane prints nothing): before
    // answering `closed`, let tmux say who wrote it. Only dead panes wait; floods never do.
    if (watch.observer.closed && watch.unconfirmed > 0) await within(watch.confirmed(), CONFIRM_WAIT_MS, undefined);
    return watch.respawned ? "respawned" : undefined;
  }

  private async once(): Promise<void> {
    const { watch, mover } = this;
    if (watch.disposed) return;
    const observer = watch.observer;
    const where = await locate(mover.server, watch.paneId, observer.identity);
    switch (where.kind) {
      case "no-server":
      case "gone":
        watch.markClosed();
        return;
      case "server-restarted":
      case "respawned":
        this.replace = where.kind;
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
    if (watch.connected && current !== undefined && (current === where.sessionId || (await inSession(mover.server, current, watch.paneId)))) {
      await watch.stayed(where.windowId);
      return;
    }
    // tmux 3.2: a session with panes that remain on exit is polled, never streamed (fallback/dead-pane-guard.ts).
    if (!(await mover.streamable(where.sessionId))) {
      this.replace = "not-streaming";
      observer.setStreaming(false); // wakes waiters: the next read goes on by polling
      return;
    }
    const lease = await mover.lease(where.sessionId);
    if (watch.disposed) {
      lease.release();
      return;
    }
    await watch.moveTo(lease);
  }
}

/** What `promise` resolves to, or `otherwise` after `ms`, whichever is first. */
export async function within<T>(promise: Promise<T>, ms: number, otherwise: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const result = await Promise.race([promise, new Promise<T>((resolve) => (timer = setTimeout(() => resolve(otherwise), ms)))]);
  clearTimeout(timer);
  return result;
}
