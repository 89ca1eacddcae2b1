// A read view of one pane on another thread than its observer: built from the observer's
// publications (publication.ts), it answers a cursor's read exactly as PaneObserver would have at
// the publication the cursor was issued at, or says it cannot (the observer's thread answers).
import { RawStream } from "../raw/stream.js";
import { BreakLog } from "./breaks.js";
import { HealLog } from "./heals.js";
import { FrameLog, type Frame } from "./frames.js";
import { PaneCursors } from "./cursors.js";
import { newsAnswer, type Standing } from "./answer.js";
import { newsSince } from "./news.js";
import type { Changes, RowBound } from "./rows.js";
import { historyRowFloor } from "../read/limits.js";
import type { CursorFields } from "../cursor/codec.js";
import type { Delta, MissedReason, PaneExit, ReadLimits, Row } from "../read/delta.js";
import type { StripState } from "../raw/strip.js";
import { CursorCount, type Publication, type PublicationStart } from "./publication.js";
import { PublishedLines } from "./published-lines.js";
import { scrolledSince, type ScrolledEntry } from "./scrolled-past.js";

/**
 * Publications whose sequence a view remembers. A cursor is answered here only when issued at one
 * of them: between two, the observer's lines may have changed text without a stamp (a reflow
 * deferred to leaving the alternate screen) and the view could not say the same.
 */
const KEPT_PUBLICATIONS = 4096;

export class PaneView {
  readonly key: Uint8Array;
  private readonly raw: RawStream;
  private readonly cursors: PaneCursors;
  private readonly breaks = new BreakLog();
  private readonly heals = new HealLog();
  private readonly frames = new FrameLog();
  private readonly predecessor: MissedReason | undefined;
  private readonly paneId: string;
  /** Sequences of the publications taken, oldest first (bounded), and the same as a set. */
  private readonly published: number[] = [];
  private readonly publishedSet = new Set<number>();
  private generation = -1;
  private readonly lines = new PublishedLines();
  private lost: Array<{ seq: number; count: number }> = [];
  private scrolled: ScrolledEntry[] = [];
  private applied = 0;
  private seq = 0;
  private geometry!: Delta["screen"];
  private frame!: Frame;
  private closed = false;
  private exit: PaneExit | undefined;
  private streaming = true;
  private plainUntil = 0;
  /** The observer's cursor count (shared memory), and what it was at the last publication taken. */
  private readonly cursorCount: CursorCount;
  private cursorsSeen = 0;

  constructor(
    readonly id: number,
    start: PublicationStart,
  ) {
    this.key = start.key;
    this.raw = new RawStream(start.ringBytes, start.rawBase);
    this.cursors = new PaneCursors(start.identity, this.key);
    this.predecessor = start.predecessor;
    this.paneId = start.identity.paneId;
    this.cursorCount = new CursorCount(start.cursors);
  }

  /** Takes the observer's next publication (each exactly once, in order). */
  apply(pub: Publication): void {
    if (pub.raw.length > 0) this.raw.append(pub.raw);
    for (const gap of pub.gaps) this.breaks.add(gap.seq, gap.reason, gap.bytes);
    for (const heal of pub.heals) this.heals.add(heal.seq, heal.lines);
    if (pub.generation !== this.generation || pub.every) {
      this.generation = pub.generation;
      this.lines.reset(pub.firstLine);
    }
    this.lines.dropBefore(pub.firstLine);
    this.lines.take(pub.rows.lines, pub.rows.stamps, pub.rows.text);
    if (pub.lost) this.lost = pub.lost;
    if (pub.scrolled) this.scrolled = pub.scrolled;
    this.applied = pub.applied;
    this.seq = pub.seq;
    this.geometry = pub.geometry;
    for (const entry of pub.frames ?? []) this.frames.record(entry.seq, entry.frame);
    if (pub.frame) this.frame = pub.frame;
    this.closed = pub.closed;
    this.exit = pub.exit;
    this.streaming = pub.streaming;
    this.plainUntil = pub.plainUntil;
    this.cursorsSeen = pub.cursorCount;
    if (!this.publishedSet.has(pub.seq)) {
      this.publishedSet.add(pub.seq);
      this.published.push(pub.seq);
      if (this.published.length > KEPT_PUBLICATIONS) this.publishedSet.delete(this.published.shift() as number);
    }
  }

  /** The engine's verdict again, for a pane with nothing new since the last publication. */
  renew(plainUntil: number, cursorCount: number): void {
    this.plainUntil = plainUntil;
    this.cursorsSeen = cursorCount;
  }

  /**
   * Whether a read may be answered here at `now` (wall clock, ms): a streamed pane whose watch
   * would pass its checks at once, and no cursor issued by the observer since the last publication
   * taken (its caller has seen newer than this view: CursorCount).
   */
  plainAt(now: number): boolean {
    return this.streaming && now < this.plainUntil && this.cursorCount.now === this.cursorsSeen;
  }

  /** The tag of the server's socket its cursors carry (socketTag; undefined: unknown), hashed once. */
  get socketTag(): number | undefined {
    return this.cursors.socketTag;
  }

  /**
   * The answer the observer gave at the publication the cursor was issued at, plus everything
   * published since; undefined when the observer's thread must answer: a discontinuity to explain,
   * or a cursor issued at no publication this view remembers.
   */
  answer(fields: CursorFields, limits: ReadLimits): Delta | undefined {
    if (!this.publishedSet.has(fields.seq)) return undefined;
    const held = { base: this.raw.base, applied: this.applied, seq: this.seq };
    if (this.cursors.discontinuity(fields, held, this.predecessor)) return undefined;
    const source = { raw: this.raw, breaks: this.breaks, heals: this.heals, applied: this.applied, changedSince: (seq: number, bound?: RowBound) => this.changedSince(seq, bound), frameAt: (seq: number) => this.frames.at(seq) };
    const { news, strip } = newsSince(fields, source, limits);
    return newsAnswer(this.standing(strip), news, limits);
  }

  private standing(strip: StripState): Standing {
    return {
      paneId: this.paneId,
      cursor: this.cursors.issue(this.applied, this.seq, strip),
      screen: this.geometry,
      frame: this.frame,
      closed: this.closed,
      exit: this.exit,
      streaming: this.streaming,
    };
  }

  private changedSince(seq: number, bound?: RowBound): Changes {
    const maxLines = bound?.lines ?? Infinity;
    const maxBytes = bound?.bytes ?? Infinity;
    const top = this.geometry.top;
    const rows: Row[] = [];
    let historyLines = 0;
    let historyBytes = 0;
    const lines = this.lines;
    let line = lines.end - 1;
    for (; line >= lines.first && historyLines <= maxLines && historyBytes <= maxBytes; line--) {
      if (lines.stamp(line) <= seq) continue;
      const text = lines.text(line);
      rows.push({ line, text });
      if (line < top) {
        historyLines++;
        if (maxBytes !== Infinity) historyBytes += historyRowFloor(text, line, top);
      }
    }
    rows.reverse();
    let above = 0;
    for (; line >= lines.first; line--) if (lines.stamp(line) > seq) above++;
    let lostLines = 0;
    for (const entry of this.lost) if (entry.seq > seq) lostLines += entry.count;
    return { rows, above, lostLines, scrolledPast: scrolledSince(this.scrolled, seq) };
  }
}
