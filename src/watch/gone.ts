// The watch of a pane that ended while the hub was not watching it (retired: idle, over the cap, or
// replaced), found gone on a later read: the same server still runs, but tmux no longer knows the
// pane. Its reader is told what one of a watched pane is told — `closed` — and, since the pane's
// output after the retirement and its last screen were never seen, `missed` with the retirement's
// reason. Its observer continues the retired one's cursors and holds nothing (a blank screen): a
// read without a cursor, which a watched pane answers with its last screen, says it missed it too.
import type { CursorFields } from "../observe/cursor/codec.js";
import type { Delta, MissedReason, ReadLimits } from "../observe/read/delta.js";
import { PaneObserver, type PaneObserverOptions } from "../observe/pane/observer.js";
import type { Retired } from "./retired.js";
import { ANSWERS, type Verdict, type Watch } from "./watch.js";

/** A gone pane's observer: its blank screen is not the pane's last one, and a screen read says so. */
class GoneObserver extends PaneObserver {
  constructor(
    options: PaneObserverOptions,
    private readonly unseen: MissedReason,
  ) {
    super(options);
  }

  override async read(cursor?: string | CursorFields, limits?: ReadLimits): Promise<Delta> {
    const delta = await super.read(cursor, limits);
    return cursor === undefined && !delta.missed ? { ...delta, missed: true, reason: this.unseen } : delta;
  }
}

export class GoneWatch implements Watch {
  readonly observer: PaneObserver;
  readonly streaming = true;
  readonly respawned = false;
  readonly inUse = false;
  readonly auditStats = undefined;
  lastUsed = Date.now();

  constructor(
    readonly paneId: string,
    retired: Retired,
    key: Uint8Array,
  ) {
    const { after } = retired;
    // Closed before it was retired, its last cursor saw everything: it continues at the same place.
    // Alive then, it went on printing unseen: every cursor it issued is before this one's start.
    const beyond = retired.closed ? 0 : 1;
    this.observer = new GoneObserver(
      {
        identity: retired.identity,
        cols: retired.cols,
        rows: retired.rows,
        key,
        scrollback: 0,
        ringBytes: 1,
        startOffset: after.offset + beyond,
        startSeq: after.seq + beyond,
        predecessor: after.reason,
      },
      after.reason,
    );
    this.observer.markClosed(retired.exit);
  }

  caughtUp(): Promise<void> {
    return Promise.resolve();
  }

  /** Its last screen is kept as it was: nothing to compare with. */
  atRest(): Promise<void> {
    return Promise.resolve();
  }

  /** Closed: nothing to wait for. */
  waitForChange(cursor: string | CursorFields | undefined, _waitMs: number, _signal?: AbortSignal, limits?: ReadLimits): Promise<Delta> {
    return this.observer.read(cursor, limits);
  }

  /** A pane gone stays gone (tmux never gives its id to another pane of the same server). */
  revalidate(): Promise<Verdict> {
    return Promise.resolve(ANSWERS);
  }

  markClosed(): void {}

  dispose(): void {
    this.observer.dispose();
  }
}
