// A pane's replica: the emulator's screen kept as tmux has the pane. Seeded from tmux's view, fed
// live bytes in stream order, replaced when it fell too far behind or failed (the caller takes
// tmux's screen again), and diffed into the row tracker when readers need it: each change of the
// rows is a new render sequence and a frame. The observer around it answers the reads.
import type { Delta, MissedReason } from "../read/delta.js";
import { RowTracker, type Changes, type RowBound, type Stamped } from "./rows.js";
import { beyondCap, emulatedSize, type Geometry } from "../emulator/geometry.js";
import { Screen } from "../emulator/screen.js";
import { seedBytes, type ScreenState } from "../emulator/seed.js";
import type { WidthPolicy } from "../widths/policy.js";
import { FrameLog, type Frame } from "./frames.js";

/**
 * How long a read spends catching its pane's emulator up (parsing at once, ahead of other panes)
 * before it answers with what is applied: about 0.15–0.5 MB of output on a 2-core VM.
 */
export const READ_CATCH_UP_MS = 10;
/** Below this backlog a read always catches up whole (≈10 ms of parsing at most): answers stay exact. */
const FAR_BEHIND_BYTES = 128 * 1024;
/**
 * Most bytes queued for the emulator. xterm parses random bytes at ≈6.5 MB/s (32 KiB slices, 2-core
 * VM), slower than tmux can deliver them; without a bound the screen fell minutes behind. 4 MiB is
 * under a second of the slowest parsing; beyond it the queue is dropped and tmux's screen taken.
 */
export const MAX_SCREEN_BACKLOG = 4 * 1024 * 1024;

/** What a publication saw of the screen: a change of any of these can move lines' text without a stamp. */
interface Published {
  restarts: number;
  shifts: number;
  alternate: boolean;
  /** The line below the screen: a shrinking bottom rereads lines (xterm pulls history back in). */
  bottom: number;
  /** The first line stamped while unreadable (below a shrunk screen): sent again once readable. */
  unreadFrom: number;
}

/** Replica.publication's answer. */
export type PublishedRows = Stamped & { every: boolean; frames: Array<{ seq: number; frame: Frame }> };

/** Called when the screen went stale: see PaneObserverOptions.onStale. */
export type OnStale = (reason: MissedReason | undefined, error?: unknown) => void;

export interface ReplicaOptions {
  cols: number;
  rows: number;
  scrollback: number;
  widths: WidthPolicy | undefined;
  /** Offset of the last byte applied and the render sequence so far (a successor goes on from them). */
  applied: number;
  seq: number;
  onStale: OnStale | undefined;
  /** Whether readers wait for news now: what they wait for is diffed as soon as it is applied. */
  waited: () => boolean;
  /** Wakes the waiting readers. */
  notify: () => void;
}

export class Replica {
  private current: Screen;
  /** The pane's size as tmux has it; the screen is at most the cap of geometry.ts. */
  private paneSize: Geometry = { cols: 0, rows: 0 };
  private tracker = new RowTracker();
  /** Bumped whenever the tracker starts over (seed, replace): a view drops its lines. */
  generation = 0;
  /** What the last publication saw; undefined after a reflow or a heal: the next one sends every line. */
  private published: Published | undefined;
  /** Offset of the last byte the screen has applied, and the sequence of the last change. */
  private appliedTo: number;
  private seqNow: number;
  private trackedTop = 0;
  /** The screen and its version at the last refresh: a read of an unchanged screen diffs nothing. */
  private refreshed: { screen: Screen; version: number } | undefined;
  /** The screens readers were shown, by sequence: the text view diffs against them. */
  private readonly frames = new FrameLog();
  /** Set when the emulator's queue was dropped: the screen waits for a reseed, raw goes on. */
  private stale = false;
  private readonly scrollback: number;
  /** The character widths of the tmux in use, when known (screenshots lay cells out with them). */
  readonly widths: WidthPolicy | undefined;
  private readonly onStale: OnStale | undefined;
  private readonly waited: () => boolean;
  private readonly notify: () => void;

  constructor(options: ReplicaOptions) {
    this.scrollback = options.scrollback;
    this.widths = options.widths;
    this.appliedTo = options.applied;
    this.seqNow = options.seq;
    this.onStale = options.onStale;
    this.waited = options.waited;
    this.notify = options.notify;
    this.current = this.newScreen(options.cols, options.rows);
    this.refresh();
  }

  get screen(): Screen {
    return this.current;
  }

  /** Offset of the last byte the screen has applied: cursors are issued there. */
  get applied(): number {
    return this.appliedTo;
  }

  /** The render sequence: every cursor issued carries at most this. */
  get seq(): number {
    return this.seqNow;
  }

  /** A break takes a sequence of its own: readers before it hear of it. */
  advance(): number {
    return ++this.seqNow;
  }

  /** The pane is larger than panescope emulates: answers say so (screen.capped). */
  get capped(): boolean {
    return beyondCap(this.paneSize) !== undefined;
  }

  /** Puts tmux's view of the pane into the screen before live bytes (race-free: docs/architecture.md, step 1). */
  seed(state: ScreenState): void {
    this.current.write(seedBytes(state), () => {
      // The seeded history is the past, not news; the seeded screen is what a reader must see.
      this.tracker.rebase(this.current.top);
      this.generation++;
      this.refresh();
    });
  }

  /**
   * A fresh screen from tmux's view, its lines numbered after every line so far; `received` is the
   * stream's end, whose effect the capture holds (writes queued on the old screen too).
   */
  replace(state: ScreenState, received: number): void {
    this.stale = false;
    const lineBase = this.current.top + this.current.rows;
    this.current.dispose();
    this.current = this.newScreen(state.cols, state.rows, lineBase);
    this.tracker = new RowTracker(lineBase);
    this.generation++;
    this.trackedTop = lineBase;
    this.appliedTo = received;
    this.seed(state);
  }

  /**
   * tmux's screen in place of ours keeping every line number, so the tracker (which keeps what
   * readers were shown at the same numbers) finds the fix; `then` runs once it is applied.
   */
  heal(state: ScreenState, received: number, then: () => void): void {
    const history = Math.max(0, state.lines.length - state.rows);
    const lineBase = this.current.top - history;
    this.current.dispose();
    this.current = this.newScreen(state.cols, state.rows, lineBase);
    this.appliedTo = received;
    this.current.write(seedBytes(state), () => {
      this.published = undefined;
      this.refresh();
      then();
    });
  }

  /** Live bytes that end the stream at `end`; dropped (with onStale) beyond MAX_SCREEN_BACKLOG. */
  ingest(bytes: Uint8Array, end: number): void {
    if (this.stale) return;
    if (this.current.backlog + bytes.length > MAX_SCREEN_BACKLOG && this.onStale) {
      this.stale = true;
      this.current.dropQueued();
      this.onStale("overflow");
      return;
    }
    // Joinable: a later chunk's callback does all an earlier one's would (applied up to its end).
    this.current.write(bytes, () => {
      this.appliedTo = Math.max(this.appliedTo, end);
      // Rows are diffed for a waiting reader once the emulator caught up, and before unread lines
      // could be trimmed away; otherwise the next read or publication diffs them: diffing every chunk
      // of a flood nobody waits on cost a third as much as xterm's parsing.
      const waited = this.waited();
      if ((waited && !this.current.busy) || this.unseenMayLeave(this.current.top)) this.refresh();
      else this.notify(); // waiting readers catch up themselves; a publishing observer publishes
    }, this.waited(), true);
  }

  resize(cols: number, rows: number): void {
    // In stream order: xterm parses writes asynchronously, so bytes ingested before this resize must
    // be applied (at the old size) first. Found by replaying golden/streams/shell-resize.ctl.
    const screen = this.current;
    screen.write("", () => {
      if (screen !== this.current) return;
      this.paneSize = { cols, rows };
      const emulated = emulatedSize(this.paneSize);
      // The screen stays at the cap, but answers say the pane's own size (screen.capped).
      if (emulated.cols === screen.cols && emulated.rows === screen.rows) return this.notify();
      screen.resize(emulated.cols, emulated.rows);
      this.published = undefined;
      this.tracker.invalidate();
      this.refresh();
    });
  }

  /**
   * Brings the screen up to every byte received so far: a reader's pane is parsed at once, ahead
   * of its turn. Far behind (a flood) and with `limitMs` (reads), parsing stops after that long and
   * the read answers with what is applied (the cursor's offset says so; the rest comes with the next
   * read). Either way the answer is consistent: between parse slices the screen holds exactly the
   * bytes up to `applied`. Synchronous (undefined) unless it must wait for turns.
   */
  settle(limitMs?: number): Promise<void> | undefined {
    const screen = this.current;
    if (screen.busy) {
      screen.hurry(); // nothing queued may wait for more now
      const exact = screen.backlog < FAR_BEHIND_BYTES;
      const until = performance.now() + (limitMs ?? READ_CATCH_UP_MS);
      while (screen.pump() && (exact || performance.now() < until));
      // Far behind and told to wait for all of it: the rest is parsed in turns, I/O in between.
      if (limitMs === undefined && screen.busy) return screen.flush().then(() => this.refresh());
    }
    if (this.refreshed?.screen !== screen || this.refreshed.version !== screen.version) this.refresh();
    return undefined;
  }

  /**
   * What a view needs to answer as this replica would, diffed now (no parsing): the lines stamped
   * since `seq` (the last publication), or every line when their text may have changed without a
   * stamp since then, and every frame recorded since.
   */
  publication(seq: number): PublishedRows {
    const screen = this.current;
    if (this.refreshed?.screen !== screen || this.refreshed.version !== screen.version) this.refresh();
    const last = this.published;
    const now: Published = { restarts: this.tracker.restarts, shifts: screen.shifts, alternate: screen.alternate, bottom: screen.top + screen.rows, unreadFrom: Infinity };
    const every = last === undefined || now.bottom < last.bottom || now.restarts !== last.restarts || now.shifts !== last.shifts || now.alternate !== last.alternate;
    // Nothing stamped since (an idle pane's verdict published again): no walk over its lines.
    const stamped = !every && seq >= this.seqNow && last.unreadFrom === Infinity ? this.tracker.nothingStamped(screen) : this.tracker.stampedSince(every ? -1 : seq, screen, last?.unreadFrom);
    this.published = { ...now, unreadFrom: stamped.unreadFrom };
    return { ...stamped, every, frames: this.frames.since(seq) };
  }

  /** Rows changed since `seq` (a cursor's), with the lines that scrolled away unread (RowTracker.changedSince). */
  changedSince(seq: number, bound?: RowBound): Changes {
    return this.tracker.changedSince(seq, this.current, bound);
  }

  /** The screen a reader at `seq` was shown, if still kept. */
  frameAt(seq: number): Frame | undefined {
    return this.frames.at(seq);
  }

  frame(): Frame {
    return { rows: this.tracker.visible, cols: this.current.cols, alternate: this.current.alternate, top: this.current.top };
  }

  geometry(): Delta["screen"] {
    const capped = beyondCap(this.paneSize);
    const screen = this.current;
    return {
      ...(capped === undefined ? {} : { capped }),
      cols: screen.cols,
      rows: screen.rows,
      top: screen.top,
      cursorX: screen.cursorX,
      cursorY: screen.cursorY,
      alternate: screen.alternate,
    };
  }

  dispose(): void {
    this.current.dispose();
  }

  private newScreen(cols: number, rows: number, lineBase?: number): Screen {
    this.paneSize = { cols, rows };
    const screen: Screen = new Screen({
      ...emulatedSize(this.paneSize),
      scrollback: this.scrollback,
      ...(lineBase === undefined ? {} : { lineBase }),
      widths: this.widths,
      onFailure: (error) => this.screenFailed(screen, error),
      // Mid-write, before lines a reader has not seen could leave memory (see ingest).
      onScroll: (top) => {
        if (screen === this.current && this.unseenMayLeave(top)) this.refresh();
      },
    });
    return screen;
  }

  /** Half the scrollback went by since rows were last diffed: diff now, before unseen lines leave memory. */
  private unseenMayLeave(top: number): boolean {
    return top - this.trackedTop > this.scrollback / 2;
  }

  /** xterm failed on this output: tmux's screen replaces ours (resync); until then rows stand still. */
  private screenFailed(screen: Screen, error: unknown): void {
    if (screen !== this.current || this.stale || !this.onStale) return;
    this.stale = true;
    screen.dropQueued();
    this.onStale(undefined, error);
  }

  /** Diffs the screen against what readers last saw; news (and only news) wakes waiters. */
  private refresh(): void {
    this.refreshed = { screen: this.current, version: this.current.version };
    const changed = this.tracker.update(this.seqNow + 1, this.current);
    this.trackedTop = this.current.top;
    if (!changed) return;
    this.seqNow++;
    this.frames.record(this.seqNow, this.frame());
    this.notify();
  }
}
