// One headless terminal (xterm.js) per pane: applies a pane's bytes and answers what it shows,
// with absolute line numbers that follow lines as they scroll and survive scrollback trimming.
import type { IBufferLine, Terminal as XTerminal } from "@xterm/headless";
import type { ScreenSnapshot } from "./snapshot.js";
import type { WidthPolicy } from "../widths/policy.js";
import { planFloodSkip } from "./flood-skip.js";
import { atRest, bothBuffers, cursorHidden, syncWriter, type SyncWriter } from "./xterm-internals.js";
import type { ScreenModes } from "./seed.js";
import { ChangedRows } from "./changed-rows.js";
import { shareModes, type SharedModes } from "./shared-modes.js";
import { LineNumbers } from "./line-numbers.js";
import { PassthroughFilter } from "./passthrough.js";
import { SLICE_BYTES, WriteScheduler, type ParseTarget } from "./scheduler.js";
import { newTerminal } from "./terminal.js";
import { blankOf, displayedText, historyText, snapshotOf, textOf, visibleAnsi, visibleText, wrapTails } from "./buffer-text.js";

export const DEFAULT_SCROLLBACK = 1000;

export interface ScreenOptions {
  cols: number;
  rows: number;
  /** Lines kept above the screen; the raw byte ring is the long memory (≈1.5 KiB a line at 80 cols). */
  scrollback?: number;
  /** Absolute number of the first line: a re-seeded screen continues after its predecessor's lines. */
  lineBase?: number;
  /** Character widths and combining as the tmux in use does them; default: xterm's Unicode 11. */
  widths?: WidthPolicy;
  /**
   * xterm threw while parsing or resizing (it has bugs: ED 1 with the cursor in the bottom-right
   * cell of a screen without history). The screen then keeps what it showed, parses nothing more,
   * and waits to be replaced by tmux's; called once.
   */
  onFailure?: (error: unknown) => void;
  /**
   * Called at each scroll while a write is parsed (not while skipping a flood): one write can scroll
   * a thousand short lines, so whoever diffs rows must be able to do it before lines leave memory.
   */
  onScroll?: (top: number) => void;
}

export class Screen implements ParseTarget {
  private readonly term: XTerminal;
  /** term.buffer, fetched once: each access re-checks allowProposedApi through xterm's options
   *  (@xterm/headless 6.0), a cost every line read paid (docs/benchmarks.md, history). */
  private readonly buffers: XTerminal["buffer"];
  private readonly lines: LineNumbers;
  /** When queued writes are parsed (scheduler.ts); the screen parses what it hands over. */
  private readonly writes = new WriteScheduler(this);
  private readonly writer: SyncWriter;
  /** tmux's passthroughs, which its screen never shows, kept from the parser (passthrough.ts). */
  private readonly passthrough = new PassthroughFilter();
  /** Lines kept above the screen. */
  private readonly scrollback: number;
  private passedLines = { from: 0, to: 0 };
  /** Counts parses and resizes: an unchanged count means an unchanged screen. */
  private changes = 0;
  /** Rows that may have changed since the row tracker last looked (lookAtRows). */
  private readonly changed: ChangedRows;
  /** Set once xterm threw (ScreenOptions.onFailure): nothing is parsed after. */
  private failed = false;
  private readonly onFailure: ((error: unknown) => void) | undefined;
  /** ScreenOptions.onScroll, called only while `parsingWrite`. */
  private readonly onScrolled: ((top: number) => void) | undefined;
  private parsingWrite = false;
  private readonly shared: SharedModes;

  constructor(options: ScreenOptions) {
    this.onFailure = options.onFailure;
    this.onScrolled = options.onScroll;
    this.scrollback = options.scrollback ?? DEFAULT_SCROLLBACK;
    this.term = newTerminal(options.cols, options.rows, this.scrollback, options.widths);
    this.buffers = this.term.buffer;
    this.writer = syncWriter(this.term);
    this.changed = new ChangedRows(this.term);
    this.lines = new LineNumbers(this.term, this.buffers, options.lineBase ?? 0);
    // Fires synchronously while parsing, at each scroll: the count follows every trim.
    this.term.onScroll(() => {
      this.lines.follow();
      if (this.parsingWrite) this.onScrolled?.(this.lines.held + this.buffers.normal.baseY);
    });
    this.shared = shareModes(this.term);
  }

  get cols(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  get alternate(): boolean {
    return this.buffers.active.type === "alternate";
  }

  /**
   * Events that can change lines' text without a scroll, so far: scrollback clears, and buffer
   * switches (xterm reflows the normal buffer after a resize only when it is shown again). Switches
   * are counted from the first call on (only a published pane asks).
   */
  get shifts(): number {
    if (!this.countingSwitches) {
      this.countingSwitches = true;
      this.buffers.onBufferChange(() => this.switches++);
    }
    return this.lines.clears + this.switches;
  }

  private switches = 0;
  private countingSwitches = false;

  /** Absolute line number of screen row 0 (the normal buffer's, frozen while the alternate is shown). */
  get top(): number {
    return this.lines.top;
  }

  /** The latest lines pushed out of memory by skipped plain-text floods (LineSource.passed). */
  get passed(): { from: number; to: number } {
    return this.passedLines;
  }

  /** The latest lines a history clear (CSI 3J, RIS) dropped (LineSource.erased). */
  get erased(): { from: number; to: number } {
    return this.lines.erased;
  }

  /** Oldest absolute line still held in the normal buffer. */
  get firstLine(): number {
    return this.lines.first;
  }

  get cursorX(): number {
    // After the last column xterm keeps x = cols; tmux reports that (the next character wraps) only
    // with autowrap on, else the last column, where the next character goes.
    const x = this.buffers.active.cursorX;
    return x >= this.cols && !this.term.modes.wraparoundMode ? this.cols - 1 : x;
  }

  get cursorY(): number {
    return this.buffers.active.cursorY;
  }

  /** Changes when the screen may have (a parse or a resize); equal means nothing moved. */
  get version(): number {
    return this.changes;
  }

  /** Bytes written and not yet applied. */
  get backlog(): number {
    return this.writes.backlog;
  }

  /** True while written data has not been applied yet. */
  get busy(): boolean {
    return this.writes.busy;
  }

  /**
   * Queues data; it is parsed on a coming turn of the event loop (feeder.ts), or at once by pump().
   * `onApplied` runs synchronously right after this chunk is parsed and before the next one is, so
   * the screen then shows exactly the data so far. `waited`: someone waits for this news (default);
   * false for output nobody waits on yet, which may wait for more (a flood to skip). `joinable`:
   * may be joined to the joinable write before it (scheduler.ts), whose callback then never runs.
   */
  write(data: Uint8Array | string, onApplied?: () => void, waited = true, joinable = false): void {
    this.writes.write(data, onApplied, waited, joinable);
  }

  /** Someone waits for this screen's news: parse what is queued on the next turn, not later. */
  hurry(): void {
    this.writes.hurry();
  }

  /**
   * Forgets data queued and not yet parsed (a flood the emulator cannot keep up with). The screen is
   * then wrong until replaced; the caller says so and takes tmux's screen again. Returns the bytes
   * dropped. Callbacks of dropped writes never run.
   */
  dropQueued(): number {
    return this.writes.dropQueued();
  }

  /**
   * Parses queued writes, in order, until about `bytes` were parsed (at least one write); returns
   * whether more is due now (plain text may wait for more). The feeder calls it in turns; a reader
   * calls it after hurry() to catch its pane up now.
   */
  pump(bytes = SLICE_BYTES): boolean {
    return this.writes.pump(bytes);
  }

  /** Resolves once everything written so far has been applied. */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  resize(cols: number, rows: number): void {
    if (cols === this.cols && rows === this.rows) return;
    this.changes++;
    this.changed.all();
    this.lines.follow();
    const widthChanged = cols !== this.cols;
    try {
      this.term.resize(cols, rows);
    } catch (error) {
      this.fail(error);
      return;
    }
    if (widthChanged) this.shared.widthChanged();
    // Reflow moves the marker both ways without trimming anything (`top` went to -4 and reads
    // reported a false "overflow" replaying golden/streams/shell-resize.ctl): keep the count.
    this.lines.reflowed();
  }

  /** For the row tracker, once per look: whether screen row `y` may differ from it at the last look. */
  lookAtRows(): (y: number) => boolean {
    return this.changed.look();
  }

  /** Text of the visible row `y` (0-based) of the active buffer, trailing blanks removed. */
  rowText(y: number): string {
    const buffer = this.buffers.active;
    return textOf(buffer.getLine(buffer.baseY + y), this.cols);
  }

  /** Text of an absolute line: a screen row, or a normal-buffer history line; undefined if trimmed. */
  lineText(line: number): string | undefined {
    const top = this.top;
    if (line >= top && line < top + this.rows) return this.rowText(line - top);
    const index = line - this.lines.held;
    if (line >= top || index < 0) return undefined;
    return textOf(this.buffers.normal.getLine(index), this.cols);
  }

  /**
   * lineText for many lines in one go (a read's changed rows, a thousand in a flood): where the
   * lines sit is looked up once, not per line. Valid until the screen next parses or resizes.
   */
  lineReader(): (line: number) => string | undefined {
    const cols = this.cols;
    const lineAt = this.lineFinder();
    return (line) => {
      const found = lineAt(line);
      return found === undefined ? undefined : textOf(found ?? undefined, cols);
    };
  }

  /** Whether lines read as "" (undefined: not held), as lineReader finds them (a read's count of rows it cuts). */
  blankReader(): (line: number) => boolean | undefined {
    const cols = this.cols;
    const lineAt = this.lineFinder();
    return (line) => {
      const found = lineAt(line);
      return found === undefined ? undefined : (blankOf(found ?? undefined, cols) ?? true);
    };
  }

  /** xterm's line holding an absolute line (null: held but xterm has none; undefined: trimmed or below the screen). */
  private lineFinder(): (line: number) => IBufferLine | null | undefined {
    const top = this.top;
    const rows = this.rows;
    const held = this.lines.held;
    const active = this.buffers.active;
    const normal = this.buffers.normal;
    const base = active.baseY;
    return (line) => {
      if (line >= top && line < top + rows) return active.getLine(base + line - top) ?? null;
      const index = line - held;
      if (line >= top || index < 0) return undefined;
      return normal.getLine(index) ?? null;
    };
  }

  /** The visible rows as text. */
  visibleRows(): string[] {
    return visibleText(this.buffers.active, this.cols, this.rows);
  }

  /** The visible rows as a person sees them (buffer-text.ts). */
  displayedRows(): string[] {
    return displayedText(this.buffers.active, this.cols, this.rows, { x: this.cursorX, y: this.cursorY });
  }

  /** Each visible row the next continues (soft wrap), as printed; undefined where a line ends (buffer-text.ts). */
  wrapTails(): (string | undefined)[] {
    return wrapTails(this.buffers.active, this.cols, this.rows);
  }

  /** The last `count` history lines of the normal buffer (oldest first), then nothing else. */
  historyRows(count: number): string[] {
    return historyText(this.buffers.normal, this.cols, count);
  }

  /** Visible rows with their colours and attributes as SGR escape sequences. */
  visibleRowsAnsi(): string[] {
    return visibleAnsi(this.buffers.active, this.cols, this.rows);
  }

  /** The visible screen; "normal": the one under a full-screen program, which leaving it shows again. */
  snapshot(which: "active" | "normal" = "active"): ScreenSnapshot {
    const buffer = this.buffers[which];
    return snapshotOf(buffer, {
      cols: this.cols,
      rows: this.rows,
      // Under the alternate screen, the normal screen's cursor is where leaving puts it (1049).
      cursorX: which === "active" ? this.cursorX : buffer.cursorX,
      cursorY: buffer.cursorY,
      cursorVisible: !cursorHidden(this.term),
      alternate: which === "active" && this.alternate,
    });
  }

  /**
   * The scroll region, modes and tab stops output now relies on (what a recording starting here
   * must set up after drawing the screen). The region and stops are left out when xterm's buffers
   * cannot be read (another xterm).
   */
  modes(): ScreenModes {
    const { originMode, wraparoundMode, insertMode } = this.term.modes;
    const buffers = bothBuffers(this.term);
    const active = this.alternate ? buffers?.alt : buffers?.normal;
    const modes = { origin: originMode, wrap: wraparoundMode, insert: insertMode, cursorVisible: !cursorHidden(this.term) };
    if (!active) return { modes };
    // xterm keeps a stop at column 0; tmux lists stops from column 1 on.
    const tabs = Object.keys(active.tabs).map(Number).filter((x) => x > 0 && active.tabs[x] === true).sort((a, b) => a - b);
    return { scrollTop: active.scrollTop, scrollBottom: active.scrollBottom, modes, tabs };
  }

  dispose(): void {
    this.writes.dispose();
    this.lines.dispose();
    this.term.dispose();
  }

  /**
   * Parses now. xterm's public write() parses on a later timer (≥1 ms in Node, and up to 12 ms per
   * slice for each terminal in the same timer phase); its WriteBuffer's writeSync runs the same
   * parser at once, so this screen (with the feeder) decides when parsing happens.
   */
  parseWrite(data: Uint8Array | string): void {
    this.parse(data, true);
  }

  private parse(data: Uint8Array | string, write = false): void {
    if (this.failed) return;
    this.parsingWrite = write;
    try {
      this.writer.writeSync(write && typeof data !== "string" ? this.passthrough.filter(data) : data);
    } catch (error) {
      this.fail(error);
      return;
    } finally {
      this.parsingWrite = false;
      // Counted once the parse is over: a look taken inside it (onScroll) saw only part of it.
      this.changes++;
    }
    this.changed.parsed();
  }

  /**
   * Far behind a plain-text flood (ParseTarget.skipFlood): skips the lines of `pieces` that the rest
   * would push out of this terminal's memory anyway and parses the rest; the scheduler then runs the
   * covered writes' callbacks. The screen, the cursor and every line number end exactly as after
   * parsing it all (the skipped lines count as trimmed).
   */
  skipFlood(pieces: readonly Uint8Array[]): { skipped: boolean; pieces: number } | undefined {
    // Bytes held or dropped by the passthrough filter: a skip would parse what follows them first.
    if (this.alternate || !atRest(this.term) || this.passthrough.busy) return undefined;
    const buffer = this.buffers.normal;
    const start = { x: buffer.cursorX, y: buffer.cursorY, cols: this.cols, rows: this.rows, wraparound: this.term.modes.wraparoundMode };
    const plan = planFloodSkip(pieces, start, this.rows + this.scrollback);
    const resume = plan.resume;
    if (resume === undefined) return { skipped: false, pieces: plan.pieces };
    const from = this.firstLine;
    this.lines.skipped(resume.scrolls);
    // Where the skipped bytes would have left the cursor: column 0 of the bottom row.
    this.parse(toBottomRow(this.rows));
    // The colours the skipped bytes left in force (SGR moves no cursor).
    if (resume.replay.length > 0) this.parse(resume.replay);
    this.parse((pieces[resume.piece] as Uint8Array).subarray(resume.offset));
    for (let p = resume.piece + 1; p < plan.pieces; p++) this.parse(pieces[p] as Uint8Array);
    // Every line held before is gone now (the plan leaves enough scrolls): none of it was lost.
    const passed = this.passedLines;
    this.passedLines = passed.to >= from && passed.to > passed.from ? { from: passed.from, to: this.firstLine } : { from, to: this.firstLine };
    return { skipped: true, pieces: plan.pieces };
  }

  /** xterm threw: its parser and buffers may be half-way through a change, so they are left alone. */
  private fail(error: unknown): void {
    this.failed = true;
    this.changed.all();
    this.onFailure?.(error);
  }
}

/** CUP to column 1 of the bottom row, as bytes: xterm's parse then only ever sees byte input here. */
function toBottomRow(rows: number): Uint8Array {
  let bytes = BOTTOM_ROW.get(rows);
  if (bytes === undefined) {
    bytes = new TextEncoder().encode(`\x1b[${rows};1H`);
    BOTTOM_ROW.set(rows, bytes);
  }
  return bytes;
}
const BOTTOM_ROW = new Map<number, Uint8Array>();
