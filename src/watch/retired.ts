// The panes the hub stopped watching (a watch replaced, or swept: idle or over the cap): where each
// observer ended, so a successor continues after it, and who the pane was, so that a pane that then
// ended unwatched is answered `closed` (gone.ts), as a watched one is, not as an unknown pane.
// Bounded: the oldest retirement is let go first (a few hundred bytes each).
import type { MissedReason, PaneExit } from "../observe/read/delta.js";
import type { PaneIdentity, PaneObserver } from "../observe/pane/observer.js";
import type { After } from "./seed/observer.js";

/** Retirements remembered. */
export const MAX_RETIRED = 4096;

/** What is kept of a retired observer. */
export interface Retired {
  after: After;
  /** What its cursors bind: a gone pane's answers continue them. */
  identity: PaneIdentity;
  cols: number;
  rows: number;
  /** The pane had closed already: its reader of the last answer missed nothing. */
  closed: boolean;
  exit?: PaneExit | undefined;
}

export class RetiredPanes {
  private readonly panes = new Map<string, Retired>();

  add(paneId: string, observer: PaneObserver, reason: MissedReason): void {
    this.panes.delete(paneId);
    this.panes.set(paneId, {
      // The successor's offsets and sequences start beyond every cursor this observer issued.
      after: { offset: observer.offset, seq: observer.sequence, reason },
      identity: observer.identity,
      ...observer.size,
      closed: observer.closed,
      exit: observer.exitInfo,
    });
    for (const oldest of this.panes.keys()) {
      if (this.panes.size <= MAX_RETIRED) break;
      this.panes.delete(oldest);
    }
  }

  /** Where a successor of the pane continues, if it had a predecessor. */
  after(paneId: string): After | undefined {
    return this.panes.get(paneId)?.after;
  }

  get(paneId: string): Retired | undefined {
    return this.panes.get(paneId);
  }
}
