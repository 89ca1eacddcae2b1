// Row tracking: which absolute lines changed at which render sequence. Pure: it diffs row texts
// that a LineSource (the screen) hands it, so it is tested without a terminal.
import type { Row } from "../read/delta.js";
import { historyRowFloor } from "../read/limits.js";
import { ScrolledPast, scrolledSince, type ScrolledEntry } from "./scrolled-past.js";

/** What the tracker reads from the screen. Absolute line numbers, as in Screen. */
export interface LineSource {
  readonly top: number;
  readonly rows: number;
  /** Oldest absolute line still readable. */
  readonly firstLine: number;
  /**
   * The latest lines that left memory inside a plain-text flood the screen skipped (flood-skip.ts):
   * they passed through like any flood's lines, so none is counted lost. Absolute, end exclusive.
   */
  readonly passed?: { readonly from: number; readonly to: number };
  /** The latest lines a history clear dropped (`clear`, `reset`): erased by the program, not lost. Absolute, end exclusive. */
  readonly erased?: { readonly from: number; readonly to: number };
  readonly alternate: boolean;
  rowText(y: number): string;
  lineText(line: number): string | undefined;
  /** lineText for many lines at once, until the source next changes (Screen.lineReader). */
  lineReader?(): (line: number) => string | undefined;
  /** Whether lines read as "" without reading them (undefined: not held); else lineText is asked. */
  blankReader?(): (line: number) => boolean | undefined;
  /**
   * Called once per update: whether screen row `y` may differ from that row at the previous update
   * (rows it rules out are not read again). Without it, every row is read.
   */
  lookAtRows?(): (y: number) => boolean;
}

/**
 * How much of a read's changed rows its limits can keep: at most `lines` rows and `bytes` of rows
 * (limits.ts), from the bottom. A limit left out keeps everything.
 */
export interface RowBound {
  lines?: number | undefined;
  bytes?: number | undefined;
}

export interface Changes {
  /** Changed lines, top to bottom: all of them, or with a bound the lowest that it can keep and more. */
  rows: Row[];
  /** Changed lines above `rows` that a bound left unread: history lines, counted, not read. */
  above: number;
  /** Lines that changed after the sequence but scrolled out of the emulator before anyone read them. */
  lostLines: number;
  /** Lines that changed after the sequence and left the emulator's history since: not among `rows` (scrolled-past.ts). */
  scrolledPast: number;
}

/** Lines, their stamps and their texts joined by LF (a row's text holds no LF): two typed arrays and one string cross a thread far cheaper than an object a line. */
export interface PackedRows {
  lines: Int32Array;
  stamps: Int32Array;
  text: string;
}

/** RowTracker.stampedSince's answer. */
export interface Stamped {
  rows: PackedRows;
  /** The first line tracked: a view forgets the lines before it. */
  firstLine: number;
  /** Lines that scrolled away unread, by the sequence at which they did (the tracker's own list). */
  lost: ReadonlyArray<{ seq: number; count: number }>;
  /** Changed lines that left memory, by the sequence at which they changed, and the log's version. */
  scrolled: { version: number; entries: readonly ScrolledEntry[] };
  unreadFrom: number;
}

/** Sequences whose lowest marked line a tracker keeps (a publication asks about the last one or two). */
const LOWEST_KEPT = 64;

export class RowTracker {
  /**
   * seqs[i - head] is the render sequence at which line `base + i - head` last changed. A negative
   * entry -s means "changed at s if not blank": a line that scrolled through unseen, whose text is
   * only looked at when read (reading every scrolled line was most of a flood's cost).
   */
  private seqs: number[] = [];
  private head = 0;
  private base = 0;
  /** The rows as last seen, starting at absolute line `shownTop`. */
  private shown: string[] = [];
  private shownTop = 0;
  private shownAlternate = false;
  private forceAll = true;
  /** Set by mark/recordLost during one update. */
  private stamped = false;
  /** (seq, count) of lines that scrolled away unseen, oldest first; bounded. */
  private lost: Array<{ seq: number; count: number }> = [];
  /** Changed lines that left memory unread by anyone at their sequence: a read lists them no more. */
  private readonly scrolled = new ScrolledPast();
  /**
   * The lowest line marked at each of the latest sequences, oldest first: a walk for the lines
   * stamped after a recent sequence starts there, not at the first line tracked. A publication or
   * a read of a pane with a long history walked all of it to find one changed row (a progress bar
   * under a thousand lines of a build's log: a thousand stamps looked at, every 20 ms).
   */
  private lowest: Array<{ seq: number; line: number }> = [];
  /** Marks at this sequence and before may be missing from `lowest` (its oldest were let go). */
  private lowestKnownAfter = -1;

  /** `startLine`: the absolute number of the screen's first line (a re-seeded screen starts above 0). */
  constructor(startLine = 0) {
    this.base = startLine;
    this.shownTop = startLine;
  }

  /**
   * Starts over at a new screen whose row 0 is line `top` (a seed or re-seed): its history lines
   * are not news, its visible rows are (the next update reports them all).
   */
  rebase(top: number): void {
    this.seqs = [];
    this.head = 0;
    this.forgetMarks();
    this.base = top;
    this.shown = [];
    this.shownTop = top;
    this.forceAll = true;
  }

  /** The next update reports every visible row (after a resize, a re-seed, a buffer switch). */
  invalidate(): void {
    this.forceAll = true;
  }

  /**
   * Records which lines differ from what was last seen, stamping them with `seq`. Returns whether
   * anything was stamped (or counted lost): a look that found nothing new is not news.
   */
  update(seq: number, source: LineSource): boolean {
    this.stamped = false;
    const { top, rows, firstLine } = source;
    const forceAll = this.forceAll || source.alternate !== this.shownAlternate;
    this.forceAll = false;
    this.dropBefore(firstLine, source.erased);

    // A scroll changes what a reader sees even when no line's text changed (a blank line entering):
    // it is news, and the screen readers hold changes with it (frames.ts keys screens by sequence).
    if (top !== this.shownTop) this.stamped = true;
    // Lines that left the screen since the last look: what they hold now is what they scrolled off with.
    if (top > this.shownTop) {
      // Lines trimmed before this look could have changed unseen: count them, never pretend.
      const gone = Math.min(firstLine, top);
      const within = (range: { from: number; to: number } | undefined): number => (range ? Math.max(0, Math.min(gone, range.to) - Math.max(this.shownTop, range.from)) : 0);
      const erased = within(source.erased);
      const unseen = Math.max(0, gone - this.shownTop - within(source.passed) - erased);
      if (unseen > 0) this.recordLost(seq, unseen);
      // Gone before this look, a flood's passed lines too: they may have changed since the last, so now.
      this.scrolled.add(seq, Math.max(0, gone - this.shownTop - erased));
      const neverShown = Math.min(top, this.shownTop + this.shown.length);
      for (let line = Math.max(this.shownTop, firstLine); line < neverShown; line++) {
        const text = source.lineText(line) ?? "";
        if (text !== this.shownAt(line)) this.mark(line, seq);
      }
      // Never-seen lines changed iff they are not blank (vs ""): decided lazily in changedSince.
      for (let line = Math.max(neverShown, firstLine); line < top; line++) this.mark(line, -seq);
    }
    const mayDiffer = source.lookAtRows?.();
    const previous = !forceAll && mayDiffer && this.shown.length === rows ? this.shown : undefined;
    const shown: string[] = [];
    for (let y = 0; y < rows; y++) {
      const line = top + y;
      const text = previous !== undefined && !mayDiffer?.(y) ? (previous[y] as string) : source.rowText(y);
      if (forceAll || text !== this.shownAt(line)) this.mark(line, seq);
      shown.push(text);
    }
    this.shown = shown;
    this.shownTop = top;
    this.shownAlternate = source.alternate;
    return this.stamped;
  }

  /** The visible rows as of the last update (a fresh array each update, never changed after). */
  get visible(): readonly string[] {
    return this.shown;
  }

  /**
   * Lines changed after `seq`, top to bottom, with their current text. A flood read has a thousand
   * and its limits keep a few hundred: with a `bound`, text is read from the bottom up only until
   * the history lines read already exceed it (so does any read of the text view's patch, which
   * lists history lines below the screen's rows), and the lines above are counted without it.
   */
  changedSince(seq: number, source: LineSource, bound?: RowBound): Changes {
    const from = Math.max(this.base, source.firstLine, this.firstMarkedAfter(seq));
    const end = this.base + this.seqs.length - this.head;
    const lineText = source.lineReader?.() ?? ((line: number) => source.lineText(line));
    const maxLines = bound?.lines ?? Infinity;
    const maxBytes = bound?.bytes ?? Infinity;
    const top = source.top;
    const rows: Row[] = [];
    let historyLines = 0;
    let historyBytes = 0;
    let line = end - 1;
    for (; line >= from && historyLines <= maxLines && historyBytes <= maxBytes; line--) {
      const stamp = this.seqs[line - this.base + this.head] ?? 0;
      if (Math.abs(stamp) <= seq) continue;
      const text = lineText(line);
      if (text === undefined || (stamp < 0 && text === "")) continue;
      rows.push({ line, text });
      if (line < top) {
        historyLines++;
        if (maxBytes !== Infinity) historyBytes += historyRowFloor(text, line, top);
      }
    }
    rows.reverse();
    let above = 0;
    if (line >= from) {
      const blank =
        source.blankReader?.() ??
        ((at: number) => {
          const text = lineText(at);
          return text === undefined ? undefined : text === "";
        });
      for (; line >= from; line--) {
        const stamp = this.seqs[line - this.base + this.head] ?? 0;
        if (Math.abs(stamp) <= seq) continue;
        const empty = blank(line);
        if (empty !== undefined && (stamp > 0 || !empty)) above++;
      }
    }
    let lostLines = 0;
    for (const entry of this.lost) if (entry.seq > seq) lostLines += entry.count;
    return { rows, above, lostLines, scrolledPast: scrolledSince(this.scrolled.list, seq) };
  }

  /**
   * Every line stamped after `seq` with its text and stamp (a publication), from the first line
   * still tracked; lines at or below `unreadFrom` that were stamped while unreadable (below a shrunk
   * screen) are sent again, and the first line unreadable now is returned for the next call.
   */
  stampedSince(seq: number, source: LineSource, unreadFrom = Infinity): Stamped {
    const first = Math.max(this.base, source.firstLine);
    // Lines stamped while unreadable are looked at again from `unreadFrom` on, stamped or not since.
    const from = Math.max(first, Math.min(this.firstMarkedAfter(seq), unreadFrom));
    const end = this.base + this.seqs.length - this.head;
    const lineText = source.lineReader?.() ?? ((line: number) => source.lineText(line));
    const lines: number[] = [];
    const stamps: number[] = [];
    const texts: string[] = [];
    // Lines stamped while they could not be read (below a shrunk screen) are sent once they can.
    let unread = Infinity;
    for (let line = from; line < end; line++) {
      const stamp = this.seqs[line - this.base + this.head] ?? 0;
      if (Math.abs(stamp) <= seq && !(line >= unreadFrom && stamp !== 0)) continue;
      const text = lineText(line);
      if (text === undefined) {
        unread = Math.min(unread, line);
        continue;
      }
      if (stamp < 0 && text === "") continue;
      lines.push(line);
      stamps.push(Math.abs(stamp));
      texts.push(text);
    }
    const rows: PackedRows = { lines: Int32Array.from(lines), stamps: Int32Array.from(stamps), text: texts.join("\n") };
    return { rows, firstLine: first, lost: this.lost, scrolled: this.scrolledLog(), unreadFrom: unread };
  }

  /** stampedSince for a `seq` nothing was stamped after. */
  nothingStamped(source: LineSource): Stamped {
    const rows: PackedRows = { lines: new Int32Array(0), stamps: new Int32Array(0), text: "" };
    return { rows, firstLine: Math.max(this.base, source.firstLine), lost: this.lost, scrolled: this.scrolledLog(), unreadFrom: Infinity };
  }

  private scrolledLog(): Stamped["scrolled"] {
    return { version: this.scrolled.version, entries: this.scrolled.list };
  }

  /** Text last seen at an absolute line; never-seen lines read as blank. */
  private shownAt(line: number): string {
    return this.shown[line - this.shownTop] ?? "";
  }

  /**
   * The lowest line whose stamp may be after `seq` (every line's may be, for a `seq` before the
   * marks `lowest` still knows); Infinity when no line was marked after it.
   */
  private firstMarkedAfter(seq: number): number {
    if (seq < 0 || seq < this.lowestKnownAfter) return -Infinity;
    let line = Infinity;
    for (let i = this.lowest.length - 1; i >= 0; i--) {
      const entry = this.lowest[i] as { seq: number; line: number };
      if (entry.seq <= seq) break;
      line = Math.min(line, entry.line);
    }
    return line;
  }

  private forgetMarks(): void {
    this.lowest = [];
    this.lowestKnownAfter = -1;
  }

  private mark(line: number, seq: number): void {
    if (line < this.base) return;
    const at = Math.abs(seq);
    const last = this.lowest[this.lowest.length - 1];
    if (last !== undefined && last.seq === at) last.line = Math.min(last.line, line);
    else {
      this.lowest.push({ seq: at, line });
      if (this.lowest.length > LOWEST_KEPT) this.lowestKnownAfter = (this.lowest.shift() as { seq: number }).seq;
    }
    this.stamped = true;
    const index = line - this.base + this.head;
    while (this.seqs.length <= index) this.seqs.push(0);
    this.seqs[index] = seq;
  }

  /** Times the window started over (stamps forgotten): a view must take every line again. */
  restarts = 0;

  /**
   * Forgets the lines before `firstLine`. Those that changed while in history left it with their
   * stamp (scrolled past); lines from the screen last seen on are counted by update, and lines a
   * history clear dropped (`erased`) were erased by the program, not scrolled past.
   */
  private dropBefore(firstLine: number, erased?: { from: number; to: number }): void {
    if (this.seqs.length === this.head) {
      if (this.seqs.length > 0) this.restarts++;
      // Nothing tracked yet (or everything dropped): restart the window at the first readable line.
      this.seqs = [];
      this.head = 0;
      this.forgetMarks();
      this.base = Math.max(this.base, firstLine);
      return;
    }
    while (this.base < firstLine && this.head < this.seqs.length) {
      const stamp = this.seqs[this.head] ?? 0;
      const cleared = erased !== undefined && this.base >= erased.from && this.base < erased.to;
      if (stamp !== 0 && this.base < this.shownTop && !cleared) this.scrolled.add(Math.abs(stamp), 1);
      this.head++;
      this.base++;
    }
    if (this.base < firstLine) this.base = firstLine;
    // Compact now and then instead of shifting on every trimmed line.
    if (this.head > 4096 && this.head * 2 > this.seqs.length) {
      this.seqs = this.seqs.slice(this.head);
      this.head = 0;
    }
  }

  private recordLost(seq: number, count: number): void {
    this.stamped = true;
    const last = this.lost[this.lost.length - 1];
    if (last && last.seq === seq) last.count += count;
    else this.lost.push({ seq, count });
    if (this.lost.length > 256) {
      // Merge the oldest two: a reader that old is told at least as much as happened.
      const [a, b] = this.lost.splice(0, 2);
      if (a && b) this.lost.unshift({ seq: b.seq, count: a.count + b.count });
    }
  }
}
