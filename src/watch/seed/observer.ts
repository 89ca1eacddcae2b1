// Seed: a pane's observer made from what the first capture found (its process, the server's life,
// the screen's size), numbered on after the observer it replaces when there is one.
import type { MissedReason } from "../../observe/read/delta.js";
import { PaneObserver, type PaneObserverOptions } from "../../observe/pane/observer.js";
import type { WidthPolicy } from "../../observe/widths/policy.js";
import type { WatchSettings } from "../settings.js";
import type { PaneProbe } from "./probe.js";

/** Where a retired observer ended: its successor's offsets and sequences start beyond its cursors, flagged `reason`. */
export interface After {
  offset: number;
  seq: number;
  reason: MissedReason;
}

/** What one watch adds to the watch's settings. */
export interface ObserverSeams {
  /** Continue numbering after an observer this one replaces, and name why its cursors are void. */
  after?: After | undefined;
  /** Character widths of the tmux in use (seed/widths.ts). */
  widths?: WidthPolicy | undefined;
  onStale?: PaneObserverOptions["onStale"];
}

export function observerFor(paneId: string, probe: PaneProbe, settings: WatchSettings, seams: ObserverSeams): PaneObserver {
  const { after } = seams;
  return new PaneObserver({
    identity: {
      paneId,
      panePid: probe.panePid,
      serverPid: probe.serverPid,
      serverStart: probe.serverStart,
      serverSocket: probe.serverSocket,
      instance: settings.instance,
    },
    cols: probe.state.cols,
    rows: probe.state.rows,
    key: settings.key,
    scrollback: settings.scrollback,
    ringBytes: settings.ringBytes,
    onStale: seams.onStale,
    widths: seams.widths,
    startOffset: after === undefined ? undefined : after.offset + 1,
    startSeq: after === undefined ? undefined : after.seq + 1,
    predecessor: after?.reason,
  });
}
