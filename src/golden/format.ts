// The golden file format: a rendered screen as versioned, deterministic plain text (header, the
// rows framed in a box so trailing spaces survive editors, optional sparse style runs). Pure.

import { PanescopeError } from "../errors.js";
import type { Colour, ScreenSnapshot, StyleRun } from "../observe/emulator/snapshot.js";
import { charWidth, displayWidth, visibleChar, visibleText } from "./cells.js";

/**
 * v2 added `cursor: hidden`: a program that hid its cursor (curs_set(0)) pins no cursor position,
 * so an invisible cursor that moves does not fail a golden. v1 files are still read; a v1 golden
 * is compared with the screen written as v1 (the position pinned as before) until it is updated.
 */
export const GOLDEN_VERSION = 2;
const MAGIC = "panescope golden v";

/**
 * Text on the screen that changes from run to run (clocks, spinners, temp paths) is replaced by
 * `placeholder` as is, not fitted to the match's width: "took 5ms" and "took 120ms" must give the
 * same golden. Text right of a match, the cursor and style runs shift to follow, never past the
 * screen's right edge: a placeholder that would push text past it is refused (formatGolden throws).
 */
export interface Mask {
  pattern: RegExp;
  placeholder: string;
}

export interface FormatOptions {
  masks?: Mask[];
  /** Write the style runs section (default false: text only). */
  colors?: boolean;
  /** The snapshot name, written in the header for the reader of a diff. */
  name?: string;
  /** Write this format version (default GOLDEN_VERSION): 1 pins a hidden cursor's position too. */
  version?: 1 | 2;
}

export interface GoldenHeader {
  version: number;
  name?: string;
  cols: number;
  rows: number;
  cursorX: number;
  cursorY: number;
  /** The cursor stood inside masked text; its column is the start of the placeholder. */
  cursorMasked: boolean;
  /** False for `cursor: hidden` (v2): no position is recorded, cursorX and cursorY are 0. */
  cursorVisible: boolean;
  alternate: boolean;
  colors: boolean;
}

export interface ParsedGolden extends GoldenHeader {
  /** The framed rows, padding included, frame removed. */
  lines: string[];
  /** The style run lines as written (empty when colors are off). */
  styles: string[];
}

/** A stretch of the row: original cell columns [o0, o1) became output columns [n0, n1). */
interface Segment {
  o0: number;
  o1: number;
  n0: number;
  n1: number;
  masked: boolean;
}

interface Row {
  text: string;
  segments: Segment[];
}

function globalCopy(pattern: RegExp): RegExp {
  const flags = pattern.flags.replace(/[gy]/g, "");
  return new RegExp(pattern.source, `${flags}g`);
}

/** Mask matches on one row, earlier masks first, leftmost first, overlaps dropped; sorted by start. */
function maskMatches(text: string, masks: Mask[]): { start: number; end: number; placeholder: string }[] {
  const taken: { start: number; end: number; placeholder: string }[] = [];
  for (const mask of masks) {
    for (const m of text.matchAll(globalCopy(mask.pattern))) {
      const start = m.index;
      const end = start + m[0].length;
      if (end === start) continue; // an empty match masks nothing
      if (taken.some((t) => start < t.end && t.start < end)) continue;
      taken.push({ start, end, placeholder: mask.placeholder });
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}

function renderRow(text: string, masks: Mask[]): Row {
  const segments: Segment[] = [];
  let out = "";
  let o = 0;
  let n = 0;
  const push = (oWidth: number, shown: string, masked: boolean): void => {
    const nWidth = displayWidth(shown);
    segments.push({ o0: o, o1: o + oWidth, n0: n, n1: n + nWidth, masked });
    out += shown;
    o += oWidth;
    n += nWidth;
  };
  const plain = (piece: string): void => {
    for (const char of piece) push(charWidth(char), visibleChar(char), false);
  };
  let at = 0;
  for (const match of maskMatches(text, masks)) {
    plain(text.slice(at, match.start));
    push(displayWidth(text.slice(match.start, match.end)), visibleText(match.placeholder), true);
    at = match.end;
  }
  plain(text.slice(at));
  return { text: out, segments };
}

/** Output column of original column `col` used as a start (a masked cell maps to its placeholder start). */
function mapStart(row: Row, col: number): { col: number; masked: boolean } {
  for (const s of row.segments) {
    if (col >= s.o0 && col < s.o1) return s.masked ? { col: s.n0, masked: true } : { col: Math.min(s.n0 + col - s.o0, s.n1), masked: false };
  }
  const last = row.segments.at(-1);
  return { col: last === undefined ? col : last.n1 + col - last.o1, masked: false };
}

/** Output column of original column `col` used as an exclusive end. */
function mapEnd(row: Row, col: number): number {
  for (const s of row.segments) {
    if (col > s.o0 && col <= s.o1) return s.masked ? s.n1 : Math.min(s.n0 + col - s.o0, s.n1);
  }
  return mapStart(row, col).col;
}

/** The error for a row whose masks would push its text past the screen's right edge. */
function maskTooWide(line: string, y: number, cols: number, masks: Mask[]): PanescopeError {
  const cells = (text: string): string => {
    const n = displayWidth(visibleText(text));
    return `${JSON.stringify(text)} (${n} cell${n === 1 ? "" : "s"})`;
  };
  // One of them is wider than its match: the row is wider than without masks.
  const texts = maskMatches(line, masks).map((m) => ({ placeholder: m.placeholder, matched: line.slice(m.start, m.end) }));
  const wider = texts.find((t) => displayWidth(visibleText(t.placeholder)) > displayWidth(visibleText(t.matched))) ?? { placeholder: "", matched: "" };
  return new PanescopeError(
    "golden",
    `row ${y}: the mask placeholder ${cells(wider.placeholder)} is wider than the text it masks, ${cells(wider.matched)}, and would push the row past the screen's ${cols} columns; use a placeholder no wider than the shortest text the mask matches`,
  );
}

function colour(c: Colour | undefined): string | undefined {
  if (c === undefined || c.kind === "default") return undefined;
  if (c.kind === "palette") return String(c.index);
  return `#${c.rgb.toString(16).padStart(6, "0")}`;
}

const FLAGS = ["bold", "dim", "italic", "underline", "inverse", "strikethrough", "hidden"] as const;

/** A run's attributes in a fixed order; undefined for a run with nothing to say. */
function styleAttrs(run: StyleRun): string | undefined {
  const attrs: string[] = [];
  const fg = colour(run.fg);
  const bg = colour(run.bg);
  if (fg !== undefined) attrs.push(`fg=${fg}`);
  if (bg !== undefined) attrs.push(`bg=${bg}`);
  for (const flag of FLAGS) if (run[flag] === true) attrs.push(flag);
  return attrs.length === 0 ? undefined : attrs.join(" ");
}

/**
 * Style lines, `row:start-end attributes`, sorted. Neighbouring runs whose written attributes are the
 * same are one line: the snapshot also splits runs where a golden writes nothing (blink, an
 * underline's style or colour), and a golden recorded before it did must still match.
 */
function styleLines(runs: { row: number; start: number; end: number; attrs: string }[]): string[] {
  const sorted = [...runs].sort((a, b) => a.row - b.row || a.start - b.start || a.end - b.end || (a.attrs < b.attrs ? -1 : a.attrs > b.attrs ? 1 : 0));
  const merged: typeof sorted = [];
  for (const run of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && last.row === run.row && last.end === run.start && last.attrs === run.attrs) last.end = run.end;
    else merged.push({ ...run });
  }
  return merged.map((run) => `${run.row}:${run.start}-${run.end} ${run.attrs}`);
}

/** The golden text of a screen: deterministic, ends with a newline. */
export function formatGolden(snapshot: ScreenSnapshot, opts: FormatOptions = {}): string {
  const { cols, rows } = snapshot;
  if (snapshot.lines.length !== rows) {
    throw new PanescopeError("bad-input", `snapshot has ${snapshot.lines.length} lines for ${rows} rows; it must have one line per row`);
  }
  if (opts.name !== undefined && /[\n\r]/.test(opts.name)) throw new PanescopeError("bad-input", "golden name must be one line");
  const masks = opts.masks ?? [];
  const rendered = snapshot.lines.map((line, y) => {
    const row = renderRow(line, masks);
    const width = displayWidth(row.text);
    if (width > cols && width > displayWidth(visibleText(line))) throw maskTooWide(line, y, cols, masks);
    return row;
  });
  // What a wider placeholder shifts right stops at the row's edge (the blanks after its text give way).
  const edge = (row: Row | undefined): number => (row?.segments.some((s) => s.masked) === true ? Math.max(cols, displayWidth(row.text)) : Infinity);
  const cursorRow = rendered[snapshot.cursorY];
  const mapped = cursorRow === undefined ? { col: snapshot.cursorX, masked: false } : mapStart(cursorRow, snapshot.cursorX);
  const cursor = { ...mapped, col: Math.min(mapped.col, edge(cursorRow)) };
  const colors = opts.colors === true;
  const version = opts.version ?? GOLDEN_VERSION;

  const out: string[] = [`${MAGIC}${version}`];
  if (opts.name !== undefined) out.push(`name: ${opts.name}`);
  out.push(`size: ${cols}x${rows}`);
  if (version >= 2 && !snapshot.cursorVisible) out.push("cursor: hidden");
  else out.push(`cursor: ${cursor.col},${snapshot.cursorY}${cursor.masked ? " masked" : ""}`);
  out.push(`alternate: ${snapshot.alternate ? "yes" : "no"}`);
  out.push(`colors: ${colors ? "on" : "off"}`);
  out.push(`┌${"─".repeat(cols)}┐`);
  for (const row of rendered) out.push(`│${row.text}${" ".repeat(Math.max(0, cols - displayWidth(row.text)))}│`);
  out.push(`└${"─".repeat(cols)}┘`);
  if (colors) {
    out.push("styles:");
    const runs: { row: number; start: number; end: number; attrs: string }[] = [];
    for (const run of snapshot.styles) {
      const row = rendered[run.row];
      const start = row === undefined ? run.start : Math.min(mapStart(row, run.start).col, edge(row));
      // A run to the right edge (a status bar) stays there: the blanks a narrower placeholder
      // frees at the row's end are the bar's, or its end would follow the masked text's width.
      const end = row === undefined ? run.end : run.end === cols ? cols : Math.min(mapEnd(row, run.end), edge(row));
      const attrs = styleAttrs(run);
      if (attrs !== undefined && end > start) runs.push({ row: run.row, start, end, attrs });
    }
    out.push(...styleLines(runs));
  }
  return `${out.join("\n")}\n`;
}

function bad(lineNo: number, what: string): never {
  throw new PanescopeError("golden", `golden line ${lineNo}: ${what}`);
}

/** The format version a golden's first line names, undefined when it is not a golden's first line. */
export function goldenVersion(text: string): number | undefined {
  const first = text.split("\n", 1)[0] ?? "";
  const digits = first.startsWith(MAGIC) ? first.slice(MAGIC.length).trimEnd() : "";
  return /^\d{1,6}$/.test(digits) ? Number(digits) : undefined;
}

/** Read a golden back: header fields, framed rows and style lines. Reads v1 and v2, rejects others. */
export function parseGolden(text: string): ParsedGolden {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  const first = lines[0] ?? "";
  const version = goldenVersion(first) ?? bad(1, `not a panescope golden (expected "${MAGIC}${GOLDEN_VERSION}", found ${JSON.stringify(first.slice(0, 40))})`);
  if (version < 1 || version > GOLDEN_VERSION) {
    bad(1, `golden format v${version} is not supported (this panescope reads v1 to v${GOLDEN_VERSION}); upgrade panescope or re-record with --update`);
  }
  const fields = new Map<string, string>();
  let i = 1;
  for (; i < lines.length && !(lines[i] ?? "").startsWith("┌"); i++) {
    const m = /^([a-z]+): (.*)$/.exec(lines[i] ?? "");
    if (m?.[1] === undefined || m[2] === undefined) bad(i + 1, `expected "key: value" or the top of the frame`);
    if (!["name", "size", "cursor", "alternate", "colors"].includes(m[1])) bad(i + 1, `unknown header field "${m[1]}"`);
    if (fields.has(m[1])) bad(i + 1, `header field "${m[1]}" given twice`);
    fields.set(m[1], m[2]);
  }
  const need = (key: string, form: RegExp): RegExpExecArray => {
    const m = form.exec(fields.get(key) ?? "");
    return m ?? bad(1, `header field "${key}" missing or malformed`);
  };
  const size = need("size", /^(\d+)x(\d+)$/);
  const cur = need("cursor", version >= 2 ? /^(?:(\d+),(\d+)( masked)?|hidden)$/ : /^(\d+),(\d+)( masked)?$/);
  const alt = need("alternate", /^(yes|no)$/);
  const col = need("colors", /^(on|off)$/);
  const rows = Number(size[2]);
  const body: string[] = [];
  for (let r = 0; r < rows; r++) {
    const line = lines[i + 1 + r];
    if (line === undefined || !line.startsWith("│") || !line.endsWith("│") || line.length < 2) bad(i + 2 + r, `expected screen row ${r} framed by │`);
    body.push(line.slice(1, -1));
  }
  const bottom = i + 1 + rows;
  if (!(lines[bottom] ?? "").startsWith("└")) bad(bottom + 1, `expected the bottom of the frame after ${rows} rows`);
  const colors = col[1] === "on";
  let styles: string[] = [];
  if (colors) {
    if (lines[bottom + 1] !== "styles:") bad(bottom + 2, `expected "styles:"`);
    styles = lines.slice(bottom + 2);
  } else if (lines.length > bottom + 1) bad(bottom + 2, "unexpected text after the frame (colors are off)");
  const name = fields.get("name");
  return {
    version,
    ...(name === undefined ? {} : { name }),
    cols: Number(size[1]),
    rows,
    cursorX: Number(cur[1] ?? 0),
    cursorY: Number(cur[2] ?? 0),
    cursorMasked: cur[3] !== undefined,
    cursorVisible: cur[1] !== undefined,
    alternate: alt[1] === "yes",
    colors,
    lines: body,
    styles,
  };
}
