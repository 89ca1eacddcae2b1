// One headless terminal (xterm.js) per pane: applies a pane's bytes and answers what it shows,
// with absolute line numbers that follow lines as they scroll and survive scrollback trimming.
import { createRequire } from "node:module";
import type { IBufferLine, IMarker, Terminal as XTerminal } from "@xterm/headless";
import type { ScreenSnapshot } from "./snapshot.js";
import { mayParseNow, wake, type Feedable } from "./feeder.js";
import { lineStyles, lineToAnsi } from "./style.js";
import type { WidthPolicy } from "./width-policy.js";
import { looksPlain, planFloodSkip } from "./flood-skip.js";
import { atRest, cursorHidden, lastParseRows, rowObject, syncWriter, type SyncWriter } from "./xterm-internals.js";
import { shareModes, type SharedModes } from "./shared-modes.js";

// xterm is loaded by the first screen, not by whoever imports this file: it is a large bundle, and
// the MCP server should answer initialize and tools/list before any pane is watched. Both packages
// are CommonJS, so require() keeps the constructor synchronous.
type Xterm = { Terminal: typeof import("@xterm/headless").Terminal; Unicode11Addon: typeof import("@xterm/addon-unicode11").Unicode11Addon };
let xterm: Xterm | undefined;
function loadXterm(): Xterm {
  if (xterm === undefined) {
    const require = createRequire(import.meta.url);
    const { Terminal } = require("@xterm/headless") as typeof import("@xterm/headless");
    const { Unicode11Addon } = require("@xterm/addon-unicode11") as typeof import("@xterm/addon-unicode11");
    xterm = { Terminal, Unicode11Addon };
  }
  return xterm;
}

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

/**
 * Most bytes parsed for one screen in one go before other work gets a turn: ≈0.5–2.5 ms of xterm
 * parsing (2-core VM), so twenty flooding panes share the event loop with reads and tmux replies.
 */
export const SLICE_BYTES = 32 * 1024;
/**
 * Plain text nobody waits for waits for this much backlog (or PLAIN_DELAY_MS) before it is parsed.
 * Each skip still parses the last rows + scrollback lines (≈1.4 µs a line), so fewer skips cost
 * less, up to a point: `seq` at ~6 MB/s cost 45–49 ms of CPU per MB with 128 KiB and 30 ms, 34–44
 * with these; 1 MiB and 150 ms measured no better (a wider spread: more garbage grows old).
 */
export const SKIP_BACKLOG = 256 * 1024;
/**
 * Backlog from which a skip is tried when its turn comes (flood-skip.ts): below it one can hardly
 * pay (a skip keeps the terminal's last rows + scrollback lines: ≥ 1 KiB), and a failed plan costs
 * a walk over the bytes.
 */
const SKIP_MIN_BYTES = 8 * 1024;
/** Most bytes looked at for one skip: ≈1.5 ms of scanning; the lines kept are parsed as usual. */
export const SKIP_SCAN_BYTES = 512 * 1024;
/**
 * What looks like plain text, with nobody waiting for it, is parsed this late at most, unless
 * SKIP_BACKLOG of it gathers first: a flood then reaches the backlog a skip needs instead of being
 * parsed line by line as it trickles in. A read parses what it needs at once (PaneObserver.settle).
 */
export const PLAIN_DELAY_MS = 50;

interface Pending {
  data: Uint8Array | string;
  onApplied: (() => void) | undefined;
  /** performance.now() when written: plain text waits PLAIN_DELAY_MS from here at most. */
  at: number;
  /** Whether it looks like plain text (looksPlain), judged once: it is asked at each write behind it. */
  plain: boolean | undefined;
}

export class Screen implements Feedable {
  private readonly term: XTerminal;
  /** term.buffer, fetched once: each access re-checks allowProposedApi through xterm's options
   *  (@xterm/headless 6.0); lineText went from ≈2.5–3.2 to ≈1.4–1.7 µs (bench/, 2-core VM). */
  private readonly buffers: XTerminal["buffer"];
  /** Lines trimmed off the top of the normal buffer's scrollback since the start. */
  private trimmed = 0;
  /** A marker near the bottom of the normal buffer: its line falls by one per trimmed line. */
  private marker: IMarker | undefined;
  private markerAbs = 0;
  private readonly queue: Pending[] = [];
  /** queue[head] is the next write to parse; bytes queued counted as they come and go. */
  private head = 0;
  private queued = 0;
  /** Inside pump(): a write from a callback queues behind, never parses re-entrantly. */
  private parsing = false;
  private readonly writer: SyncWriter;
  private readonly lineBase: number;
  /** Lines kept above the screen. */
  private readonly scrollback: number;
  /** Set while plain text waits (PLAIN_DELAY_MS) for more before it is parsed. */
  private delay: NodeJS.Timeout | undefined;
  /** Someone waits for what is queued (a waited write, hurry, a marker): parse it all, defer nothing. */
  private urgent = false;
  private passedLines = { from: 0, to: 0 };
  /** Bytes parsed or skipped so far, and the count before which no skip is tried again. */
  private consumed = 0;
  private noSkipBefore = 0;
  /** Counts parses and resizes: an unchanged count means an unchanged screen. */
  private changes = 0;
  /** Screen rows changed since the row tracker last looked (lookAtRows), "all" when unknown. */
  private touched: { from: number; to: number } | "all" | undefined = "all";
  /** The row objects at that look, by screen row. */
  private looked: unknown[] = [];
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
    this.lineBase = options.lineBase ?? 0;
    this.scrollback = options.scrollback ?? DEFAULT_SCROLLBACK;
    const { Terminal, Unicode11Addon } = loadXterm();
    this.term = new Terminal({
      cols: options.cols,
      rows: options.rows,
      scrollback: this.scrollback,
      allowProposedApi: true,
      // tmux sends what the pane's program wrote; the pty already turned \n into \r\n.
      convertEol: false,
      // xterm logs every parse error to the console at its default level: `cat /dev/urandom` in a
      // watched pane wrote ~5 MB/s of stderr (and grew memory when nobody drained it).
      logLevel: "off",
    });
    if (options.widths) {
      const provider = options.widths.providerFor(() => this.cellBeforeCursor());
      this.term.unicode.register(provider);
      this.term.unicode.activeVersion = provider.version;
    } else {
      this.term.loadAddon(new Unicode11Addon());
      this.term.unicode.activeVersion = "11";
    }
    this.buffers = this.term.buffer;
    this.writer = syncWriter(this.term);
    // xterm has no public trim event: count trims through a marker, re-placed before it can be
    // trimmed itself (each scroll trims at most one line). Fires synchronously while parsing.
    this.term.onScroll(() => {
      this.followTrim();
      if (this.parsingWrite) this.onScrolled?.(this.lineBase + this.trimmed + this.buffers.normal.baseY);
    });
    // Clearing the scrollback (`clear` sends CSI 3J; `reset` and `printf '\033c'` send RIS) drops
    // history lines without a trim and moves xterm's line positions back: count them as trimmed, so
    // line numbers never go backwards and the visible rows keep theirs. Handlers run before xterm's.
    this.term.parser.registerCsiHandler({ final: "J" }, (params) => {
      if (params[0] === 3 && !this.alternate) this.historyCleared();
      return false;
    });
    this.term.parser.registerEscHandler({ final: "c" }, () => {
      this.historyCleared();
      return false;
    });
    this.shared = shareModes(this.term);
    this.placeMarker();
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

  /** Absolute line number of screen row 0 (the normal buffer's, frozen while the alternate is shown). */
  get top(): number {
    this.followTrim();
    return this.lineBase + this.trimmed + this.buffers.normal.baseY;
  }

  /** The latest lines pushed out of memory by skipped plain-text floods (LineSource.passed). */
  get passed(): { from: number; to: number } {
    return this.passedLines;
  }

  /** Oldest absolute line still held in the normal buffer. */
  get firstLine(): number {
    this.followTrim();
    return this.lineBase + this.trimmed;
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
    return this.queued;
  }

  /** True while written data has not been applied yet. */
  get busy(): boolean {
    return this.head < this.queue.length;
  }

  /**
   * Queues data; it is parsed on a coming turn of the event loop (feeder.ts), or at once by pump().
   * `onApplied` runs synchronously right after this chunk is parsed and before the next one is, so
   * the screen then shows exactly the data so far. `waited`: someone waits for this news (default);
   * false for output nobody waits on yet, which may wait for more (a flood to skip).
   */
  write(data: Uint8Array | string, onApplied?: () => void, waited = true): void {
    const first = this.queue.length === this.head && !this.parsing;
    this.queue.push({ data, onApplied, at: performance.now(), plain: undefined });
    this.queued += data.length;
    // An empty write marks a point in the stream (a resize, a flush) that someone waits for.
    if (waited || data.length === 0) this.urgent = true;
    // A little awaited output on an idle screen (a keystroke's echo) is parsed now: the waiting
    // reader is answered without a turn of the event loop. Anything behind other data waits its turn.
    if (waited && first && mayParseNow(data.length)) this.pump();
    else if (!this.waitFor()) wake(this);
  }

  /** Someone waits for this screen's news: parse what is queued on the next turn, not later. */
  hurry(): void {
    if (!this.busy) return;
    this.urgent = true;
    wake(this);
  }

  /**
   * Whether the queued data waits for more before it is parsed (a timer then wakes the screen at its
   * deadline): plain text nobody waits for, short of the backlog a skip needs, queued less than
   * PLAIN_DELAY_MS ago. A flood is then skipped a backlog at a time instead of parsed as it trickles
   * in (the remainder after a skip too: parsing that at once left half of a `seq` flood parsed).
   */
  private waitFor(): boolean {
    if (this.urgent || this.queued >= SKIP_BACKLOG || this.consumed < this.noSkipBefore) return false;
    const item = this.queue[this.head];
    if (item === undefined) return false;
    item.plain ??= typeof item.data !== "string" && looksPlain(item.data);
    if (!item.plain) return false;
    const left = item.at + PLAIN_DELAY_MS - performance.now();
    if (left <= 0) return false;
    // At the head's deadline (+1: a timer may fire up to a millisecond early by performance.now()).
    this.delay ??= setTimeout(() => {
      this.delay = undefined;
      wake(this);
    }, left + 1).unref();
    return true;
  }

  /**
   * Forgets data queued and not yet parsed (a flood the emulator cannot keep up with). The screen is
   * then wrong until replaced; the caller says so and takes tmux's screen again. Returns the bytes
   * dropped. Callbacks of dropped writes never run.
   */
  dropQueued(): number {
    const dropped = this.queued;
    this.noSkipBefore = this.consumed;
    this.queue.length = 0;
    this.head = 0;
    this.queued = 0;
    this.urgent = false;
    return dropped;
  }

  /**
   * Parses queued writes, in order, until about `bytes` were parsed (at least one write); returns
   * whether more is due now (plain text may wait for more: waitFor). The feeder calls it in turns;
   * a reader calls it after hurry() to catch its pane up now.
   */
  pump(bytes = SLICE_BYTES): boolean {
    if (this.parsing) return this.busy;
    this.parsing = true;
    let parsed = 0;
    let waiting = false;
    try {
      while (this.head < this.queue.length && parsed < bytes) {
        if (this.waitFor()) {
          waiting = true;
          break;
        }
        if (this.queued >= SKIP_MIN_BYTES) {
          const done = this.skipFlood();
          if (done > 0) {
            parsed += done;
            continue;
          }
        }
        const item = this.queue[this.head] as Pending;
        this.queue[this.head++] = EMPTY;
        this.queued -= item.data.length;
        this.consumed += item.data.length;
        parsed += item.data.length;
        if (item.data.length > 0) this.parse(item.data, true);
        item.onApplied?.();
      }
    } finally {
      this.parsing = false;
    }
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
      this.urgent = false;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    return this.busy && !waiting;
  }

  /** Resolves once everything written so far has been applied. */
  flush(): Promise<void> {
    // Nothing queued: every write's callback has run, so the screen is current.
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.write("", resolve));
  }

  resize(cols: number, rows: number): void {
    if (cols === this.cols && rows === this.rows) return;
    this.changes++;
    this.touched = "all";
    this.followTrim();
    const widthChanged = cols !== this.cols;
    try {
      this.term.resize(cols, rows);
    } catch (error) {
      this.fail(error);
      return;
    }
    if (widthChanged) this.shared.widthChanged();
    // Reflow moves the marker both ways without trimming anything: reading it now would count
    // re-wrapped lines as trimmed (or un-trimmed: `top` went to -4 and reads reported a false
    // "overflow" replaying golden/streams/shell-resize.ctl). Keep the count; anchor a fresh marker.
    this.placeMarker();
  }

  /**
   * For the row tracker, once per look: whether screen row `y` may differ from that row at its last
   * look. A row xterm marked in a parse since may; so may every row after a resize, and a row held by
   * another object now (should xterm ever move a row without marking it). The rest are the same: a
   * keystroke's echo reads one or two rows instead of all (a row's text is the dearest part of a look).
   */
  lookAtRows(): (y: number) => boolean {
    const touched = this.touched;
    const before = this.looked;
    const now: unknown[] = [];
    for (let y = 0; y < this.rows; y++) now.push(rowObject(this.term, y));
    this.looked = now;
    this.touched = undefined;
    if (touched === "all" || now.includes(undefined)) return () => true;
    return (y) => (touched !== undefined && y >= touched.from && y <= touched.to) || now[y] !== before[y];
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
    const index = line - this.lineBase - this.trimmed;
    if (line >= top || index < 0) return undefined;
    return textOf(this.buffers.normal.getLine(index), this.cols);
  }

  /** The visible rows as text. */
  visibleRows(): string[] {
    const rows: string[] = [];
    for (let y = 0; y < this.rows; y++) rows.push(this.rowText(y));
    return rows;
  }

  /**
   * The visible rows as a person sees them: trailing blanks removed, except that the cursor's row
   * keeps its blanks up to the cursor (a prompt like ">>> " waiting for input ends with its space).
   */
  displayedRows(): string[] {
    const rows = this.visibleRows();
    const x = Math.min(this.cursorX, this.cols);
    const buffer = this.buffers.active;
    const line = buffer.getLine(buffer.baseY + this.cursorY);
    if (line && x > 0 && this.cursorY < rows.length) {
      const left = line.translateToString(false, 0, x);
      rows[this.cursorY] = left + line.translateToString(true, x, this.cols).replace(/ +$/, "");
    }
    return rows;
  }

  /** The last `count` history lines of the normal buffer (oldest first), then nothing else. */
  historyRows(count: number): string[] {
    const buffer = this.buffers.normal;
    const from = Math.max(0, buffer.baseY - count);
    const lines: string[] = [];
    for (let i = from; i < buffer.baseY; i++) lines.push(textOf(buffer.getLine(i), this.cols));
    return lines;
  }

  /** Visible rows with their colours and attributes as SGR escape sequences. */
  visibleRowsAnsi(): string[] {
    const buffer = this.buffers.active;
    const cell = buffer.getNullCell();
    const rows: string[] = [];
    for (let y = 0; y < this.rows; y++) {
      const line = buffer.getLine(buffer.baseY + y);
      rows.push(line ? lineToAnsi(line, this.cols, cell) : "");
    }
    return rows;
  }

  /** The visible screen; "normal": the one under a full-screen program, which leaving it shows again. */
  snapshot(which: "active" | "normal" = "active"): ScreenSnapshot {
    const buffer = this.buffers[which];
    const cell = buffer.getNullCell();
    const lines: string[] = [];
    const styles: ScreenSnapshot["styles"] = [];
    for (let y = 0; y < this.rows; y++) {
      const line = buffer.getLine(buffer.baseY + y);
      lines.push(textOf(line, this.cols));
      if (line) styles.push(...lineStyles(line, y, this.cols, cell));
    }
    return {
      cols: this.cols,
      rows: this.rows,
      // Under the alternate screen, the normal screen's cursor is where leaving puts it (1049).
      cursorX: which === "active" ? this.cursorX : buffer.cursorX,
      cursorY: buffer.cursorY,
      cursorVisible: !cursorHidden(this.term),
      alternate: which === "active" && this.alternate,
      lines,
      styles,
    };
  }

  dispose(): void {
    clearTimeout(this.delay);
    this.dropQueued();
    this.marker?.dispose();
    this.term.dispose();
  }

  /**
   * Parses now. xterm's public write() parses on a later timer (≥1 ms in Node, and up to 12 ms per
   * slice for each terminal in the same timer phase); its WriteBuffer's writeSync runs the same
   * parser at once, so this screen (with the feeder) decides when parsing happens.
   */
  private parse(data: Uint8Array | string, write = false): void {
    if (this.failed) return;
    this.parsingWrite = write;
    try {
      this.writer.writeSync(data);
    } catch (error) {
      this.fail(error);
      return;
    } finally {
      this.parsingWrite = false;
      // Counted once the parse is over: a look taken inside it (onScroll) saw only part of it.
      this.changes++;
    }
    const rows = lastParseRows(this.term);
    const touched = this.touched;
    if (touched === "all") return;
    if (!rows) this.touched = "all";
    else this.touched = touched ? { from: Math.min(touched.from, rows.from), to: Math.max(touched.to, rows.to) } : rows;
  }

  /**
   * Far behind a plain-text flood: skips the queued lines that the rest of it would push out of
   * this terminal's memory anyway, parses the rest, then runs the covered writes' callbacks in
   * order. The screen, the cursor and every line number end exactly as after parsing it all (the
   * skipped lines count as trimmed). Returns the bytes covered, 0 when there was nothing to skip.
   */
  private skipFlood(): number {
    if (this.consumed < this.noSkipBefore || this.alternate || !atRest(this.term)) return 0;
    const pieces: Uint8Array[] = [];
    let scanned = 0;
    for (let i = this.head; i < this.queue.length && scanned < SKIP_SCAN_BYTES; i++) {
      const data = (this.queue[i] as Pending).data;
      // An empty write marks a point in the stream (a resize, a flush): never run past it.
      if (typeof data === "string" || data.length === 0) break;
      pieces.push(data);
      scanned += data.length;
    }
    const buffer = this.buffers.normal;
    const start = { x: buffer.cursorX, y: buffer.cursorY, cols: this.cols, rows: this.rows, wraparound: this.term.modes.wraparoundMode };
    const plan = planFloodSkip(pieces, start, this.rows + this.scrollback);
    const resume = plan.resume;
    if (resume === undefined) {
      // Walked in vain (LF without CR never returns to column 0, say): not again over these bytes.
      this.noSkipBefore = this.consumed + pieces.slice(0, plan.pieces).reduce((sum, piece) => sum + piece.length, 0);
      return 0;
    }
    const from = this.firstLine;
    // The skipped scrolls count as trimmed lines, in the marker's reckoning too (followTrim).
    this.trimmed += resume.scrolls;
    this.markerAbs += resume.scrolls;
    // Where the skipped bytes would have left the cursor: column 0 of the bottom row.
    this.parse(toBottomRow(this.rows));
    this.parse((pieces[resume.piece] as Uint8Array).subarray(resume.offset));
    for (let p = resume.piece + 1; p < plan.pieces; p++) this.parse(pieces[p] as Uint8Array);
    // Every line held before is gone now (the plan leaves enough scrolls): none of it was lost.
    const passed = this.passedLines;
    this.passedLines = passed.to >= from && passed.to > passed.from ? { from: passed.from, to: this.firstLine } : { from, to: this.firstLine };
    let covered = 0;
    for (let p = 0; p < plan.pieces; p++) {
      const item = this.queue[this.head] as Pending;
      this.queue[this.head++] = EMPTY;
      this.queued -= item.data.length;
      this.consumed += item.data.length;
      covered += item.data.length;
      item.onApplied?.();
    }
    return covered;
  }

  /** xterm threw: its parser and buffers may be half-way through a change, so they are left alone. */
  private fail(error: unknown): void {
    this.failed = true;
    this.touched = "all";
    this.onFailure?.(error);
  }

  /** The normal buffer's history is about to be dropped (CSI 3J, RIS). */
  private historyCleared(): void {
    this.followTrim();
    this.trimmed += this.buffers.normal.baseY;
    this.marker?.dispose();
    this.marker = undefined;
  }

  /** The cell left of the cursor (the first half of a wide one), read while xterm parses. */
  private cellBeforeCursor(): { chars: string; width: number } | undefined {
    const buffer = this.buffers.active;
    const line = buffer.getLine(buffer.baseY + buffer.cursorY);
    let x = buffer.cursorX - 1;
    let cell = line?.getCell(x);
    if (cell && cell.getWidth() === 0 && x > 0) cell = line?.getCell(--x);
    return cell ? { chars: cell.getChars(), width: cell.getWidth() } : undefined;
  }

  private placeMarker(): void {
    if (this.alternate) return; // markers are not available in the alternate buffer (xterm 6.0)
    this.marker?.dispose();
    // registerMarker(offset) is relative to the cursor row; anchor at the bottom screen row.
    const normal = this.buffers.normal;
    this.marker = this.term.registerMarker(this.rows - 1 - normal.cursorY);
    if (this.marker) this.markerAbs = this.trimmed + this.marker.line;
  }

  private followTrim(): void {
    const marker = this.marker;
    if (!marker || marker.isDisposed) {
      // Dropped with the history (historyCleared) or with its line: anchor a new one. Its line is
      // counted from the current trim count, which already includes what was dropped.
      if (!this.alternate) this.placeMarker();
      return;
    }
    this.trimmed = this.markerAbs - marker.line;
    // Near the buffer's top trims soon reach it: re-anchor at the bottom row, unless it sits there
    // already (no history yet: re-placing it on every look cost a marker per read).
    const bottom = this.buffers.normal.baseY + this.rows - 1;
    if (marker.line < this.rows && marker.line < bottom && !this.alternate) this.placeMarker();
  }
}

const EMPTY: Pending = { data: "", onApplied: undefined, at: 0, plain: undefined };

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

function textOf(line: IBufferLine | undefined, cols: number): string {
  // Pass cols: after a shrink, stale cells beyond the new width remain in the line (xterm 6.0).
  // Written spaces are content to xterm; trim them too, as capture-pane -p does.
  return line ? line.translateToString(true, 0, cols).replace(/ +$/, "") : "";
}
