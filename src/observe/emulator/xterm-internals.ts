// The private parts of @xterm/headless 6.0 the screen relies on (pinned to that exact version in
// package.json): its synchronous parse entry, a look at whether the terminal is at rest between
// plain-text lines (flood-skip.ts), and which rows a parse changed (what xterm's renderers repaint)
// with the line objects behind the rows; its parser's table (C1 printed) and a cell's underline
// (style, colour, link).
// Everything else goes through xterm's public API.
import type { IBufferCell, Terminal as XTerminal } from "@xterm/headless";
import { PanescopeError } from "../../errors.js";

/** xterm's synchronous parse entry (its WriteBuffer without the timer). */
export interface SyncWriter {
  writeSync(data: Uint8Array | string): void;
}

/**
 * xterm's WriteBuffer.writeSync (private: `_core._writeBuffer`). It processes xterm's own queue
 * first, which stays empty: nothing here calls the asynchronous write().
 */
export function syncWriter(term: XTerminal): SyncWriter {
  const buffer = core(term)?._writeBuffer;
  if (typeof buffer?.writeSync !== "function") {
    throw new PanescopeError("internal", "this @xterm/headless has no synchronous parse (WriteBuffer.writeSync, 6.0): install @xterm/headless 6.0");
  }
  return buffer as SyncWriter;
}

interface Core {
  _writeBuffer?: Partial<SyncWriter>;
  _inputHandler?: {
    _parser?: { currentState?: unknown };
    _utf8Decoder?: { interim?: Uint8Array };
    _dirtyRowTracker?: { start?: unknown; end?: unknown };
  };
  _charsetService?: { charset?: unknown };
  buffer?: { scrollTop?: unknown; scrollBottom?: unknown; ybase?: unknown; lines?: { get?: (index: number) => unknown } };
}

function core(term: XTerminal): Core | undefined {
  return (term as unknown as { _core?: Core })._core;
}

/**
 * Whether the next byte starts fresh: the parser in its ground state (not inside an escape
 * sequence), no UTF-8 character half received, no character set mapping, and the whole screen as
 * the scroll region. False when any of it cannot be read (another xterm): then nothing is skipped.
 */
export function atRest(term: XTerminal): boolean {
  const c = core(term);
  const interim = c?._inputHandler?._utf8Decoder?.interim;
  return (
    c?._inputHandler?._parser?.currentState === 0 &&
    interim instanceof Uint8Array &&
    interim[0] === 0 &&
    c._charsetService !== undefined &&
    c._charsetService.charset === undefined &&
    c.buffer?.scrollTop === 0 &&
    c.buffer.scrollBottom === term.rows - 1
  );
}

/**
 * The screen rows xterm marked as changed by its last parse (it starts each parse from the cursor's
 * row; printing, erasing and every scroll mark theirs: its renderers repaint exactly these).
 * Undefined when they cannot be read (another xterm): then every row counts as changed.
 */
export function lastParseRows(term: XTerminal): { from: number; to: number } | undefined {
  const marks = core(term)?._inputHandler?._dirtyRowTracker;
  const from = marks?.start;
  const to = marks?.end;
  return typeof from === "number" && typeof to === "number" ? { from, to } : undefined;
}

/**
 * The object holding screen row `y` of the active buffer. xterm edits a row's cells in place; a
 * scroll, a reset or a buffer switch puts another object there. Undefined when it cannot be read.
 */
export function rowObject(term: XTerminal, y: number): unknown {
  const buffer = core(term)?.buffer;
  const lines = buffer?.lines;
  const ybase = buffer?.ybase;
  return typeof ybase === "number" && typeof lines?.get === "function" ? lines.get(ybase + y) : undefined;
}

/** One xterm buffer's tab stops (`Buffer.tabs`: column → true), cursor, saved cursor and scroll region. */
export interface BufferState {
  tabs: Record<number, boolean>;
  x: number;
  y: number;
  savedX: number;
  savedY: number;
  scrollTop: number;
  scrollBottom: number;
}

/**
 * xterm's two buffers, for their tab stops and scroll regions (`_core.buffers`: a BufferSet, whose reset() makes new
 * buffers, so look them up each time), and its reset of both to every 8 columns. Undefined when
 * they cannot be read (another xterm).
 */
export function bothBuffers(term: XTerminal): { normal: BufferState; alt: BufferState; reset(): void } | undefined {
  const set = (term as unknown as { _core?: { buffers?: { normal?: Partial<BufferState>; alt?: Partial<BufferState>; setupTabStops?: (cols?: number) => void } } })._core?.buffers;
  const { normal, alt } = set ?? {};
  if (!set || typeof set.setupTabStops !== "function" || !isBufferState(normal) || !isBufferState(alt)) return undefined;
  return { normal, alt, reset: () => set.setupTabStops?.() };
}

function isBufferState(buffer: Partial<BufferState> | undefined): buffer is BufferState {
  return typeof buffer?.tabs === "object" && buffer.tabs !== null && typeof buffer.x === "number" && typeof buffer.y === "number" && typeof buffer.savedX === "number" && typeof buffer.savedY === "number" && typeof buffer.scrollTop === "number" && typeof buffer.scrollBottom === "number";
}

/**
 * xterm's reverse-wraparound mode (`_core.coreService.decPrivateModes.reverseWraparound`): read, or
 * set when `on` is given. Undefined when it cannot be read (another xterm).
 */
export function reverseWraparound(term: XTerminal, on?: boolean): boolean | undefined {
  const modes = (term as unknown as { _core?: { coreService?: { decPrivateModes?: { reverseWraparound?: unknown } } } })._core?.coreService?.decPrivateModes;
  const now = modes?.reverseWraparound;
  if (!modes || typeof now !== "boolean") return undefined;
  if (on !== undefined) modes.reverseWraparound = on;
  return on ?? now;
}

/**
 * Whether the program hid the cursor (DECTCEM, `ESC[?25l`): `_core.coreService.isCursorHidden`.
 * False when it cannot be read (another xterm): a cursor is then drawn where it stands.
 */
export function cursorHidden(term: XTerminal): boolean {
  return (term as unknown as { _core?: { coreService?: { isCursorHidden?: unknown } } })._core?.coreService?.isCursorHidden === true;
}

/** Calls `listener` after xterm's own reset (RIS) is done (`_core._inputHandler.onRequestReset`); false when it cannot. */
export function afterReset(term: XTerminal, listener: () => void): boolean {
  const handler = (term as unknown as { _core?: { _inputHandler?: { onRequestReset?: (listener: () => void) => unknown } } })._core?._inputHandler;
  if (typeof handler?.onRequestReset !== "function") return false;
  // xterm's Terminal subscribed when it was made: this listener runs after its reset.
  handler.onRequestReset(listener);
  return true;
}

/** A buffer line's cells (`BufferLineApiView._line`: `_data` holds 3 words a cell, its content word first). */
interface LineCells {
  _data?: unknown;
  length?: unknown;
}

/** Content word (xterm 6.0 `Content`): the code point, a flag for a combined string, the cell's width. */
const CODEPOINT = 0x1fffff;
const COMBINED = 0x200000;
const HAS_CONTENT = CODEPOINT | COMBINED;
const WIDTH_SHIFT = 22;
const SPACE = 0x20;

/** One row's characters, reused (grown for a wider row: at most the emulated width, geometry.ts). */
let latin1 = Buffer.alloc(1024);
let units = new Uint16Array(1024);

/**
 * What `line.translateToString(true, 0, cols)` returns with its trailing spaces removed, read
 * straight from the cells. Reading rows' text is most of a flood read's work, and xterm builds it
 * one cell at a time by string concatenation: this is about twice as fast. Undefined when the line
 * holds a combined character (its text lives elsewhere) or when the cells cannot be read (another
 * xterm): the caller then asks xterm.
 */
export function cellText(line: unknown, cols: number): string | undefined {
  const cells = (line as { _line?: LineCells } | undefined)?._line;
  const data = cells?._data;
  const length = cells?.length;
  if (!(data instanceof Uint32Array) || typeof length !== "number") return undefined;
  // xterm's getTrimmedLength: just past the last cell with content (a written space counts).
  let end = 0;
  for (let x = Math.min(length, data.length / 3) - 1; x >= 0; x--) {
    const content = data[x * 3] as number;
    if (content & HAS_CONTENT) {
      end = x + (content >> WIDTH_SHIFT);
      break;
    }
  }
  end = Math.min(end, cols);
  if (latin1.length < end) latin1 = Buffer.alloc(end);
  // Most rows are Latin-1 (ASCII above all): one byte a character, made a string natively.
  let n = 0;
  let kept = 0;
  for (let x = 0; x < end; ) {
    const content = data[x * 3] as number;
    const code = content & CODEPOINT;
    if (content & COMBINED || code > 0xff) return wideText(data, end);
    // An empty cell reads as a space (xterm's WHITESPACE_CELL_CHAR).
    latin1[n++] = code === 0 ? SPACE : code;
    if (code !== 0 && code !== SPACE) kept = n;
    x += content >> WIDTH_SHIFT || 1;
  }
  return kept === 0 ? "" : latin1.toString("latin1", 0, kept);
}

/**
 * Whether cellText would read the row as "" (no character but spaces in its first `cols` cells),
 * without making its text: a read counts the changed rows its limits cut without reading them.
 * Undefined when the cells cannot be read (another xterm): the caller then reads the text.
 */
export function cellBlank(line: unknown, cols: number): boolean | undefined {
  const cells = (line as { _line?: LineCells } | undefined)?._line;
  const data = cells?._data;
  const length = cells?.length;
  if (!(data instanceof Uint32Array) || typeof length !== "number") return undefined;
  const end = Math.min(length, data.length / 3, cols);
  for (let x = 0; x < end; x++) {
    const content = data[x * 3] as number;
    const code = content & CODEPOINT;
    // A combined character is text; so is any code point but an empty cell's 0 and a space.
    if (content & COMBINED || (code !== 0 && code !== SPACE)) return false;
  }
  return true;
}

/** cellText for a row with characters beyond Latin-1: as UTF-16 units. */
function wideText(data: Uint32Array, end: number): string | undefined {
  if (units.length < end * 2) units = new Uint16Array(end * 2);
  let n = 0;
  let kept = 0;
  for (let x = 0; x < end; ) {
    const content = data[x * 3] as number;
    if (content & COMBINED) return undefined;
    const code = content & CODEPOINT;
    if (code > 0xffff) {
      // Beyond the BMP: a surrogate pair, as String.fromCodePoint gives it.
      units[n++] = 0xd800 + ((code - 0x10000) >> 10);
      units[n++] = 0xdc00 + ((code - 0x10000) & 0x3ff);
      kept = n;
    } else {
      units[n++] = code === 0 ? SPACE : code;
      if (code !== 0 && code !== SPACE) kept = n;
    }
    x += content >> WIDTH_SHIFT || 1;
  }
  return kept === 0 ? "" : String.fromCharCode.apply(null, units.subarray(0, kept) as unknown as number[]);
}

/** A buffer line's maps of combined characters and extended attributes, by column (xterm 6.0). */
interface LineMaps {
  _combined?: unknown;
  _extendedAttrs?: unknown;
  copyFrom?: (source: LineMaps) => void;
}

const keptMaps = new WeakSet<object>();

/**
 * xterm's BufferLine.copyFrom, which a full scrollback runs on the line it recycles at every scroll,
 * gives the line two new empty objects (its combined characters and extended attributes). They live
 * as long as the line, past scavenges of the young heap: under twenty floods, two thirds of what
 * each scavenge copied. Wrapped, a line whose maps were empty and stay empty keeps its old ones;
 * the new ones die at once. Once per BufferLine class; false when it cannot be (another xterm).
 */
export function keepEmptyLineMaps(term: XTerminal): boolean {
  const line = (term.buffer.normal.getLine(0) as { _line?: LineMaps } | undefined)?._line;
  if (line === undefined || !("_combined" in line && "_extendedAttrs" in line)) return false;
  const proto = Object.getPrototypeOf(line) as LineMaps | null;
  const copyFrom = proto?.copyFrom;
  if (!proto || typeof copyFrom !== "function") return false;
  if (keptMaps.has(proto)) return true;
  keptMaps.add(proto);
  proto.copyFrom = function (this: LineMaps, source: LineMaps): void {
    const { _combined: combined, _extendedAttrs: extended } = this;
    copyFrom.call(this, source);
    if (isEmptyMap(combined) && isEmptyMap(this._combined)) this._combined = combined;
    if (isEmptyMap(extended) && isEmptyMap(this._extendedAttrs)) this._extendedAttrs = extended;
  };
  return true;
}

/** A plain object with no keys (xterm's maps are keyed by column; Object.prototype has none to enumerate). */
function isEmptyMap(map: unknown): boolean {
  if (typeof map !== "object" || map === null) return false;
  for (const _ in map) return false; // one key is enough
  return true;
}

/** xterm's parser (`_core._inputHandler._parser`): its transition table, [state << 8 | code] → action << 4 | next state. */
interface ParserTable {
  _transitions?: { table?: unknown };
}

const GROUND = 0;
const PRINT = 2;

/** xterm's table (one, shared by its parsers) → the same with C1 printing: one copy for every terminal. */
const printing = new WeakMap<Uint8Array, Uint8Array>();

/**
 * Makes the code points U+0080–U+009F print instead of acting as C1 controls. They only reach
 * the parser as UTF-8 (a lone byte 0x85 is invalid UTF-8), and tmux prints them as characters
 * (3.2a: one column; 3.3a drops them; 3.4+: zero columns, docs/widths.md), while xterm obeyed
 * them: U+0085 moved to the next line, U+009B started a CSI that swallowed the text after it. A
 * heal painted tmux's captured row back through the same parser, so the replica stayed wrong.
 * xterm's own table is left as it is; ours is a changed copy. False when it cannot.
 */
export function printC1(term: XTerminal): boolean {
  const parser = core(term)?._inputHandler?._parser as ParserTable | undefined;
  const transitions = parser?._transitions;
  const table = transitions?.table;
  if (!parser || !transitions || !(table instanceof Uint8Array) || table.length < 0xa0) return false;
  let own = printing.get(table);
  if (own === undefined) {
    own = table.slice();
    own.fill((PRINT << 4) | GROUND, (GROUND << 8) | 0x80, (GROUND << 8) | 0xa0);
    printing.set(table, own);
  }
  // The same kind of object with our table: parse() reads only `table`, the rest stays as it was.
  parser._transitions = Object.assign(Object.create(Object.getPrototypeOf(transitions) as object) as object, transitions, { table: own });
  return true;
}

/** A cell's extended attributes (`cell.extended`, current only when `hasExtendedAttrs()`). */
interface ExtendedCell {
  hasExtendedAttrs?: () => number;
  extended?: { _ext?: unknown };
}

/** A cell's underline as the program set it: its style and SGR 58's colour (mode as getFgColorMode, 0 default). */
export interface CellUnderline {
  /** As xterm numbers SGR 4's styles: 0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed. */
  style: 0 | 1 | 2 | 3 | 4 | 5;
  colourMode: number;
  colour: number;
}

const NO_UNDERLINE: CellUnderline = { style: 0, colourMode: 0, colour: 0 };

/**
 * A cell's underline, read from xterm 6.0's `_ext` (style in bits 26–28, SGR 58's colour mode and
 * value in bits 0–25). Not xterm's public answer: it reports an OSC 8 link's cells as underlined
 * (dashed; its renderers draw links so), while tmux keeps no attribute for a link (3.4+ stores it;
 * 3.2a–3.3a drop it), so a screenshot or golden would show a line tmux does not. xterm keeps SGR
 * 58 only on underlined cells. Single and uncoloured when `_ext` cannot be read (another xterm).
 */
export function underlineOf(cell: IBufferCell): CellUnderline {
  const { hasExtendedAttrs, extended } = cell as IBufferCell & ExtendedCell;
  const ext = typeof hasExtendedAttrs === "function" && hasExtendedAttrs.call(cell) !== 0 ? extended?._ext : undefined;
  if (typeof ext !== "number") return cell.isUnderline() !== 0 ? { ...NO_UNDERLINE, style: 1 } : NO_UNDERLINE;
  const style = Math.min((ext >>> 26) & 0b111, 5) as CellUnderline["style"];
  if (style === 0) return NO_UNDERLINE;
  return { style, colourMode: ext & 0x3000000, colour: ext & 0xffffff };
}
