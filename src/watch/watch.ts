// What the hub holds for each watched pane, whichever way it is watched: streamed through a control
// client (pane-watch.ts) or polled with one-shot capture-pane (fallback/poll.ts). The hub only
// looks watches up and hands them over; each kind decides for itself whether it still answers.
import type { CursorFields } from "../observe/cursor/codec.js";
import type { Delta, MissedReason, PaneExit, ReadLimits } from "../observe/read/delta.js";
import type { PaneObserver } from "../observe/pane/observer.js";
import type { AuditStats } from "./audit/timer.js";

/** Whether a watch still answers for its pane, and if not, what comes after it. */
export type Verdict =
  /** It still answers. */
  | { kind: "answers" }
  /** It cannot go on (a new process in the pane, the server restarted...): retire it, start anew. */
  | { kind: "replace"; reason: MissedReason }
  /** A polled pane streams again: `next` continues this watch's numbering and takes its place. */
  | { kind: "handover"; next: Watch };

export interface Watch {
  readonly paneId: string;
  readonly observer: PaneObserver;
  /** Output arrives as tmux sends it (a control client), not by polling. */
  readonly streaming: boolean;
  /** When the pane was last read (the hub retires the least recently read first). */
  lastUsed: number;
  /** tmux reported another process in the pane: this watch's reads are over (revalidate replaces it). */
  readonly respawned: boolean;
  /** Someone waits on the pane, records it (a tap), or it is being followed: not to be retired now. */
  readonly inUse: boolean;
  /** The replica audit's counts; undefined where there is no audit (polling repaints every time). */
  readonly auditStats: Readonly<AuditStats> | undefined;
  /**
   * Resolves once the output the pane had written when this was called is in the observer, as far
   * as tmux can vouch for it (a wait that saw the pane quiet, or its program reading, asks before it answers).
   */
  caughtUp(): Promise<void>;
  /** A reader saw the pane quiet and answers now: the replica is checked against tmux's screen first, where there is one. */
  atRest(): Promise<void>;
  /** What changed since the cursor, waiting up to waitMs for news. */
  waitForChange(cursor: string | CursorFields | undefined, waitMs: number, signal?: AbortSignal, limits?: ReadLimits): Promise<Delta>;
  /** Asked before every read: whether this watch still answers for its pane (it may ask tmux). */
  revalidate(): Promise<Verdict>;
  /** The pane's program ended, as one who saw it says: closed once the output received is in. */
  markClosed(exit?: PaneExit): void;
  /** Stops watching and gives back what the watch holds (its control client lease). */
  dispose(): void;
}

export const ANSWERS: Verdict = { kind: "answers" };
