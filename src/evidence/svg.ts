// A screen as an SVG picture: backgrounds as rects, each row as one selectable <text>, the cursor
// when the program shows it, and optional highlighted cells (class "diff") for reports. Pure and
// deterministic: the same snapshot and options give the same bytes.
import type { ScreenSnapshot, UnderlineStyle } from "../observe/emulator/snapshot.js";
import { rowCells, rowStyles, styleKey, type Cell, type WidthOf } from "./grid.js";
import { colourHex, CURSOR, DEFAULT_BG, DEFAULT_FG, paint, type CellStyle } from "./palette.js";

/** Cells on one row, end exclusive. */
export interface CellRange {
  row: number;
  start: number;
  end: number;
}

export interface SvgOptions {
  /** Font size in px (default 14); a cell is 0.6 × 1.2 of it. */
  fontSize?: number;
  /** Cells to mark with a `<rect class="diff">` each (adjacent ranges on a row merge). */
  highlight?: readonly CellRange[];
  /** Columns per code point; default: the newest tmux's widths. */
  widthOf?: WidthOf;
}

export const FONT_FAMILY = "ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace";

/** The size of one cell in px for a font size. */
export function cellSize(fontSize = 14): { width: number; height: number } {
  return { width: round(fontSize * 0.6), height: Math.round(fontSize * 1.2) };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

// XML 1.0 forbids C0 controls other than tab/newline and lone surrogates; a cell never holds them
// after xterm, but a snapshot is plain data.
function escapeXml(text: string): string {
  return text
    .replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"))
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

interface Segment {
  start: number;
  end: number;
  style: CellStyle | undefined;
}

/** Cuts a row's columns into runs of one style. */
function segments(styles: Array<CellStyle | undefined>): Segment[] {
  const out: Segment[] = [];
  for (let x = 0; x < styles.length; x++) {
    const last = out[out.length - 1];
    if (last && styleKey(last.style) === styleKey(styles[x])) last.end = x + 1;
    else out.push({ start: x, end: x + 1, style: styles[x] });
  }
  return out;
}

function merged(ranges: readonly CellRange[]): CellRange[] {
  const sorted = [...ranges].filter((r) => r.end > r.start).sort((a, b) => a.row - b.row || a.start - b.start);
  const out: CellRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && last.row === r.row && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/** CSS's names for the underline styles (text-decoration-style). */
const DECORATION_STYLES: Record<UnderlineStyle, string> = { double: "double", curly: "wavy", dotted: "dotted", dashed: "dashed" };

/**
 * A run's glyph attributes. Blink is drawn steady (the text as it shows half the time; a picture of
 * a moment need not flash) and marked `class="blink"` for a page that wants to animate it. An
 * underline's style and colour go in CSS (`text-decoration-style`, `-color`), which browsers draw;
 * a renderer without them (resvg, for PNG) still draws a line in the text's colour.
 */
function glyphAttrs(style: CellStyle | undefined): string {
  const p = paint(style ?? {});
  let attrs = style?.blink ? ` class="blink"` : "";
  if (p.fg !== DEFAULT_FG) attrs += ` fill="${p.fg}"`;
  if (style?.bold) attrs += ` font-weight="bold"`;
  if (style?.italic) attrs += ` font-style="italic"`;
  const lines = [style?.underline ? "underline" : "", style?.overline ? "overline" : "", style?.strikethrough ? "line-through" : ""].filter(Boolean);
  if (lines.length > 0) attrs += ` text-decoration="${lines.join(" ")}"`;
  const css = [
    style?.underline && style.underlineStyle ? `text-decoration-style:${DECORATION_STYLES[style.underlineStyle]}` : "",
    style?.underline && style.underlineColour ? `text-decoration-color:${colourHex(style.underlineColour, p.fg)}` : "",
  ].filter(Boolean);
  if (css.length > 0) attrs += ` style="${css.join(";")}"`;
  if (p.opacity !== 1) attrs += ` fill-opacity="${p.opacity}"`;
  return attrs;
}

/**
 * The tspans of one style run: narrow cells together, each wide cell alone (pinned to 2 cells).
 * `text` spans the row's text, from its first to past its last non-blank cell.
 */
function tspans(cells: Cell[], seg: Segment, cw: number, text: { from: number; to: number }): string {
  // Hidden text (SGR 8) is drawn as a terminal draws it: not at all, its background only.
  if (seg.style?.hidden === true) return "";
  const decorated = seg.style?.underline === true || seg.style?.overline === true || seg.style?.strikethrough === true;
  const inRun = cells.filter((c) => c.col >= seg.start && c.col < seg.end);
  // Blanks before and after the row's text show nothing unless a line is drawn under or through
  // them. Those between its words stay, in whichever run: copied text keeps its spaces (a run that
  // began with one lost it, and "RED <&>" in two colours was copied as "RED<&>").
  while (!decorated && inRun.length > 0 && inRun[0]?.text === " " && (inRun[0]?.col ?? 0) < text.from) inRun.shift();
  while (!decorated && inRun.length > 0 && inRun[inRun.length - 1]?.text === " " && (inRun[inRun.length - 1]?.col ?? 0) >= text.to) inRun.pop();
  const attrs = glyphAttrs(seg.style);
  const out: string[] = [];
  let group: Cell[] = [];
  const flush = (): void => {
    const first = group[0];
    if (!first) return;
    const cols = group.reduce((n, c) => n + c.width, 0);
    const text = group.map((c) => c.text).join("");
    const length = cols > 1 ? ` textLength="${round(cols * cw)}"` : "";
    out.push(`<tspan x="${round(first.col * cw)}"${length}${attrs}>${escapeXml(text)}</tspan>`);
    group = [];
  };
  for (const cell of inRun) {
    const last = group[group.length - 1];
    const contiguous = !last || last.col + last.width === cell.col;
    if (cell.width === 2 || last?.width === 2 || !contiguous) flush();
    group.push(cell);
  }
  flush();
  return out.join("");
}

/** The snapshot as a standalone SVG document. */
export function screenToSvg(snapshot: ScreenSnapshot, options: SvgOptions = {}): string {
  const fontSize = options.fontSize ?? 14;
  const { width: cw, height: ch } = cellSize(fontSize);
  const baseline = Math.round(fontSize * 0.95);
  const width = round(snapshot.cols * cw);
  const height = snapshot.rows * ch;
  const backgrounds: string[] = [];
  const texts: string[] = [];
  // Just past the last column (a row printed to its end), the cursor is drawn on its last cell, as
  // xterm.js and tmux draw it.
  const cursorX = Math.min(snapshot.cursorX, snapshot.cols - 1);
  let cursorWidth = 1;
  for (let row = 0; row < snapshot.rows; row++) {
    const cells = rowCells(snapshot.lines[row] ?? "", options.widthOf, snapshot.cols);
    if (row === snapshot.cursorY) cursorWidth = cells.find((c) => c.col === cursorX)?.width ?? 1;
    const runs = segments(rowStyles(snapshot, row));
    for (const seg of runs) {
      const bg = paint(seg.style ?? {}).bg;
      if (bg !== DEFAULT_BG) {
        backgrounds.push(`<rect x="${round(seg.start * cw)}" y="${row * ch}" width="${round((seg.end - seg.start) * cw)}" height="${ch}" fill="${bg}"/>`);
      }
    }
    const words = cells.filter((c) => c.text !== " ");
    const text = { from: words[0]?.col ?? 0, to: (words.at(-1)?.col ?? -1) + (words.at(-1)?.width ?? 1) };
    const spans = runs.map((seg) => tspans(cells, seg, cw, text)).join("");
    if (spans !== "") texts.push(`<text y="${row * ch + baseline}">${spans}</text>`);
  }
  const marks = merged(options.highlight ?? []).map(
    (r) => `<rect class="diff" x="${round(r.start * cw)}" y="${r.row * ch}" width="${round((r.end - r.start) * cw)}" height="${ch}" fill="#ffd700" fill-opacity="0.35" stroke="#ffd700"/>`,
  );
  const cursor =
    snapshot.cursorVisible && cursorX >= 0 && snapshot.cursorY < snapshot.rows
      ? [`<rect class="cursor" x="${round(cursorX * cw + 0.5)}" y="${snapshot.cursorY * ch + 0.5}" width="${round(cursorWidth * cw - 1)}" height="${ch - 1}" fill="none" stroke="${CURSOR}"/>`]
      : [];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" data-cols="${snapshot.cols}" data-rows="${snapshot.rows}">`,
    `<rect width="100%" height="100%" fill="${DEFAULT_BG}"/>`,
    ...backgrounds,
    ...marks,
    `<g font-family="${FONT_FAMILY}" font-size="${fontSize}" fill="${DEFAULT_FG}" xml:space="preserve">`,
    ...texts,
    `</g>`,
    ...cursor,
    `</svg>`,
    "",
  ].join("\n");
}
