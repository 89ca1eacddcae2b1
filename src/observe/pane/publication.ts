// What a pane observer publishes so that a read view on another thread (view.ts) can answer a
// cursor's read exactly as the observer would: the raw bytes received, the lines stamped since the
// last publication with their text, every frame recorded, gaps, heals, lost lines and the pane's
// state. The outbox gathers what happens between two publications and builds the next one. Pure:
// the thread, the port and the timing are the caller's (mcp/engine/publisher.ts).
import { joinBytes } from "../../bytes.js";
import type { Frame } from "./frames.js";
import type { PaneIdentity } from "./cursors.js";
import type { PackedRows } from "./rows.js";
import type { ScrolledEntry } from "./scrolled-past.js";
import type { Delta, MissedReason, PaneExit } from "../read/delta.js";

/** What an observer tells its outbox as it happens; the rest is read at publication. */
export interface PublicationSink {
  /** Something a reader could see may have changed: publish soon. */
  changed(): void;
  raw(bytes: Uint8Array): void;
  gap(seq: number, reason: MissedReason, bytes: number): void;
  healed(seq: number, lines: readonly number[]): void;
  /**
   * A cursor was issued: the views are behind until they take a publication made since
   * (CursorCount). A read's (`now`): publish this very state, so that a view can answer that
   * cursor's next read (it answers cursors issued at a publication). A wait's: publish once the
   * pane's spacing from now has run out (made before the answer, or right after it on the same
   * core, its publication made a wake 0.1 ms slower: figure 3d, 2-core VM).
   */
  issued(now: boolean): void;
}

/**
 * How many cursors an observer has issued, in memory its views' thread reads at once: a view that
 * has taken fewer is behind an answer the observer's thread gave, and must not answer in its place
 * (it would answer older than what its caller saw). A publication may then follow an answer
 * instead of preceding it (PublicationSink.issued).
 */
export class CursorCount {
  constructor(readonly word: Int32Array = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT))) {}

  add(): number {
    return Atomics.add(this.word, 0, 1) + 1;
  }

  get now(): number {
    return Atomics.load(this.word, 0);
  }
}

/** Once per view: what its cursors bind and where its stream starts. */
export interface PublicationStart {
  identity: PaneIdentity;
  key: Uint8Array;
  rawBase: number;
  /** The observer's ring size: the view's ring evicts what the observer's does (its missed bytes alike). */
  ringBytes: number;
  predecessor: MissedReason | undefined;
  /** The observer's CursorCount word (shared memory). */
  cursors: Int32Array;
}

/** The observer's state at a publication (PaneObserver.publication). */
export interface PaneState {
  /** Bumped when the row tracker starts over (a reseed): the view drops its lines. */
  generation: number;
  applied: number;
  seq: number;
  rows: PackedRows;
  firstLine: number;
  /** True when `rows` holds every tracked line (their text may have changed without a stamp). */
  every: boolean;
  lost: ReadonlyArray<{ seq: number; count: number }>;
  /** Changed lines that left memory (scrolled-past.ts), and that log's version. */
  scrolled: { version: number; entries: readonly ScrolledEntry[] };
  frames: Array<{ seq: number; frame: Frame }>;
  geometry: Delta["screen"];
  frame: Frame;
  closed: boolean;
  exit: PaneExit | undefined;
  streaming: boolean;
}

/** One pane's publication, as it crosses to the view's thread. */
export interface Publication extends Omit<PaneState, "lost" | "scrolled"> {
  /** The outbox's id: a successor observer of the same pane has a higher one. */
  id: number;
  paneId: string;
  start?: PublicationStart;
  /** Lost-line entries, when they changed since the last publication. */
  lost?: Array<{ seq: number; count: number }>;
  /** Scrolled-past entries, when they changed since the last publication. */
  scrolled?: ScrolledEntry[];
  raw: Uint8Array;
  gaps: Array<{ seq: number; reason: MissedReason; bytes: number }>;
  heals: Array<{ seq: number; lines: number[] }>;
  /** Until when (wall clock, ms) the view may answer on its own: the watch's checks would pass at once. */
  plainUntil: number;
  /** The observer's CursorCount when this was taken. */
  cursorCount: number;
}

/** What happened to one observer since its last publication; `take` builds the next. */
export class PaneOutbox implements PublicationSink {
  private raws: Uint8Array[] = [];
  private gaps: Publication["gaps"] = [];
  private heals: Publication["heals"] = [];
  private seq = -1;
  private lostSeen = { length: 0, last: 0 };
  /** The scrolled-past log last sent: its version, and which log (a replaced screen's tracker starts a new one). */
  private scrolledSeen: PaneState["scrolled"] = { version: 0, entries: [] };
  private started = false;
  /** The last publication's state, to tell whether the next has anything new. */
  private sent: Omit<PaneState, "lost" | "scrolled"> | undefined;
  /** Whether the observer said anything since the last publication (every change of its state does). */
  private dirty = true;

  /** Cursors issued so far (shared with the views' thread). */
  readonly cursorCount = new CursorCount();

  constructor(
    readonly id: number,
    private readonly source: { paneId: string; start(): Omit<PublicationStart, "cursors">; publication(seq: number): PaneState },
    /** Called on news: the owner schedules a publication, or makes one at once ("now"), or after a wait's answer ("answered"). */
    private readonly due: (outbox: PaneOutbox, when: "now" | "news" | "answered") => void,
  ) {}

  changed(): void {
    this.dirty = true;
    this.due(this, "news");
  }

  raw(bytes: Uint8Array): void {
    // A copy: the caller's chunk may be a view of a slab that is reused (bytes.ts).
    this.raws.push(bytes.slice());
    this.changed();
  }

  gap(seq: number, reason: MissedReason, bytes: number): void {
    this.gaps.push({ seq, reason, bytes });
    this.changed();
  }

  healed(seq: number, lines: readonly number[]): void {
    this.heals.push({ seq, lines: [...lines] });
    this.changed();
  }

  issued(now: boolean): void {
    this.cursorCount.add();
    this.dirty = true;
    this.due(this, now ? "now" : "answered");
  }

  /**
   * The publication of everything since the last one (its buffers can be transferred), or
   * undefined when nothing changed since: the owner then sends the verdict alone. A quiet pane's
   * verdict goes out twice a second; its frame and rows each time cost 500 panes a core's percent.
   */
  take(plainUntil: number): Publication | undefined {
    // A quiet pane's observer is not even asked.
    if (!this.dirty) return undefined;
    this.dirty = false;
    const { lost, scrolled, ...state } = this.source.publication(this.seq);
    const last = lost[lost.length - 1]?.count ?? 0;
    const lostChanged = lost.length !== this.lostSeen.length || last !== this.lostSeen.last;
    const scrolledChanged = scrolled.version !== this.scrolledSeen.version || scrolled.entries !== this.scrolledSeen.entries;
    if (!lostChanged && !scrolledChanged && this.started && this.raws.length === 0 && this.gaps.length === 0 && this.heals.length === 0 && sameState(this.sent, state)) return undefined;
    this.lostSeen = { length: lost.length, last };
    this.scrolledSeen = scrolled;
    this.sent = state;
    const publication: Publication = {
      ...state,
      id: this.id,
      paneId: this.source.paneId,
      ...(this.started ? {} : { start: { ...this.source.start(), cursors: this.cursorCount.word } }),
      ...(lostChanged ? { lost: lost.map((entry) => ({ ...entry })) } : {}),
      ...(scrolledChanged ? { scrolled: scrolled.entries.map((entry) => ({ ...entry })) } : {}),
      raw: joinBytes(this.raws),
      gaps: this.gaps,
      heals: this.heals,
      plainUntil,
      cursorCount: this.cursorCount.now,
    };
    this.started = true;
    this.seq = state.seq;
    this.raws = [];
    this.gaps = [];
    this.heals = [];
    return publication;
  }
}

/** Whether `now` holds nothing a view lacks after `before` (the same rows array: nothing redrawn, tracker.visible). */
function sameState(before: Omit<PaneState, "lost" | "scrolled"> | undefined, now: Omit<PaneState, "lost" | "scrolled">): boolean {
  if (before === undefined || now.rows.lines.length > 0 || now.every) return false;
  const a = before.geometry;
  const b = now.geometry;
  return (
    before.seq === now.seq &&
    before.applied === now.applied &&
    before.generation === now.generation &&
    before.frame.rows === now.frame.rows &&
    before.frame.cols === now.frame.cols &&
    before.frame.alternate === now.frame.alternate &&
    before.closed === now.closed &&
    before.exit === now.exit &&
    before.streaming === now.streaming &&
    a.cols === b.cols &&
    a.rows === b.rows &&
    a.top === b.top &&
    a.cursorX === b.cursorX &&
    a.cursorY === b.cursorY &&
    a.alternate === b.alternate &&
    a.capped === b.capped
  );
}
