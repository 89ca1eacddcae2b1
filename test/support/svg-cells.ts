// Reads an SVG screenshot back into cells (text, colours, attributes) so tests can compare it with
// a screen cell by cell; and the same cells computed from a snapshot, as the SVG should show them.
import { rowCells, rowStyles } from "../../src/evidence/grid.js";
import { colourHex, DEFAULT_FG, paint } from "../../src/evidence/palette.js";
import { cellSize } from "../../src/evidence/svg.js";
import type { ScreenSnapshot } from "../../src/observe/emulator/snapshot.js";

export interface ShownCell {
  text: string;
  fg: string;
  bg: string;
  bold?: true;
  italic?: true;
  underline?: true;
  /** An underline other than a single line, by its CSS name (wavy for curly). */
  underlineStyle?: string;
  underlineColour?: string;
  overline?: true;
  blink?: true;
  strikethrough?: true;
  dim?: true;
}

const CSS_UNDERLINES = { double: "double", curly: "wavy", dotted: "dotted", dashed: "dashed" } as const;

function unescape(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

/** Blank cells show only their background (and lines drawn through them): the rest is noise. */
function normal(cell: ShownCell): ShownCell {
  if (cell.text !== " " || cell.underline || cell.overline || cell.strikethrough) return cell;
  return { text: " ", fg: DEFAULT_FG, bg: cell.bg };
}

/** The cells an SVG made by screenToSvg shows, row by row (a wide character's second cell is ""). */
export function cellsOfSvg(svg: string): ShownCell[][] {
  const cols = Number(attr(svg, "data-cols"));
  const rows = Number(attr(svg, "data-rows"));
  const { width: cw, height: ch } = cellSize(Number(/font-size="([\d.]+)"/.exec(svg)?.[1]));
  const bgOf = (row: number, col: number): string => background[row]?.[col] ?? "#000000";
  const background: string[][] = Array.from({ length: rows }, () => new Array<string>(cols).fill("#000000"));
  for (const [tag] of svg.matchAll(/<rect x="[^"]*" y="[^"]*" width="[^"]*" height="[^"]*" fill="[^"]*"\/>/g)) {
    const x = Math.round(Number(attr(tag, "x")) / cw);
    const n = Math.round(Number(attr(tag, "width")) / cw);
    const row = Math.round(Number(attr(tag, "y")) / ch);
    for (let i = x; i < x + n; i++) background[row]![i] = attr(tag, "fill")!;
  }
  const cells: ShownCell[][] = background.map((line) => line.map((bg) => ({ text: " ", fg: DEFAULT_FG, bg })));
  for (const [, y, body] of svg.matchAll(/<text y="([^"]*)">(.*?)<\/text>/g)) {
    const row = Math.floor(Number(y) / ch);
    for (const [, tag, text] of body!.matchAll(/<tspan([^>]*)>([^<]*)<\/tspan>/g)) {
      const start = Math.round(Number(attr(tag!, "x")) / cw);
      for (const cell of rowCells(unescape(text!))) {
        const col = start + cell.col;
        const decoration = attr(tag!, "text-decoration") ?? "";
        const shown: ShownCell = { text: cell.text, fg: attr(tag!, "fill") ?? DEFAULT_FG, bg: bgOf(row, col) };
        if (attr(tag!, "font-weight") === "bold") shown.bold = true;
        if (attr(tag!, "font-style") === "italic") shown.italic = true;
        const css = attr(tag!, "style") ?? "";
        if (attr(tag!, "class") === "blink") shown.blink = true;
        if (decoration.includes("underline")) shown.underline = true;
        const underlineStyle = /text-decoration-style:(\w+)/.exec(css)?.[1];
        if (underlineStyle !== undefined) shown.underlineStyle = underlineStyle;
        const underlineColour = /text-decoration-color:(#[0-9a-f]{6})/.exec(css)?.[1];
        if (underlineColour !== undefined) shown.underlineColour = underlineColour;
        if (decoration.includes("overline")) shown.overline = true;
        if (decoration.includes("line-through")) shown.strikethrough = true;
        if (attr(tag!, "fill-opacity") !== undefined) shown.dim = true;
        cells[row]![col] = shown;
        if (cell.width === 2) cells[row]![col + 1] = { text: "", fg: shown.fg, bg: bgOf(row, col + 1) };
      }
    }
  }
  return cells.map((line) => line.map(normal));
}

/** The cells a snapshot should show, in the form cellsOfSvg reads them. */
export function cellsOfSnapshot(snapshot: ScreenSnapshot): ShownCell[][] {
  return Array.from({ length: snapshot.rows }, (_, row) => {
    const styles = rowStyles(snapshot, row);
    const line: ShownCell[] = [];
    for (const cell of rowCells(snapshot.lines[row] ?? "", undefined, snapshot.cols)) {
      const style = styles[cell.col];
      const p = paint(style ?? {});
      // Hidden text (SGR 8) shows as its background alone.
      if (style?.hidden) {
        line.push({ text: " ", fg: DEFAULT_FG, bg: p.bg });
        if (cell.width === 2) line.push({ text: " ", fg: DEFAULT_FG, bg: paint(styles[cell.col + 1] ?? {}).bg });
        continue;
      }
      const shown: ShownCell = { text: cell.text, fg: p.fg, bg: p.bg };
      if (style?.bold) shown.bold = true;
      if (style?.italic) shown.italic = true;
      if (style?.blink) shown.blink = true;
      if (style?.underline) shown.underline = true;
      if (style?.underline && style.underlineStyle) shown.underlineStyle = CSS_UNDERLINES[style.underlineStyle];
      if (style?.underline && style.underlineColour) shown.underlineColour = colourHex(style.underlineColour, p.fg);
      if (style?.overline) shown.overline = true;
      if (style?.strikethrough) shown.strikethrough = true;
      if (style?.dim) shown.dim = true;
      line.push(shown);
      if (cell.width === 2) line.push({ text: "", fg: p.fg, bg: paint(styles[cell.col + 1] ?? {}).bg });
    }
    return line.slice(0, snapshot.cols).map(normal);
  });
}

/** Where two cell grids differ, as "row,col: a ≠ b" lines (empty when they agree). */
export function cellDifferences(a: ShownCell[][], b: ShownCell[][]): string[] {
  const out: string[] = [];
  for (let row = 0; row < Math.max(a.length, b.length); row++) {
    for (let col = 0; col < Math.max(a[row]?.length ?? 0, b[row]?.length ?? 0); col++) {
      const x = JSON.stringify(a[row]?.[col]);
      const y = JSON.stringify(b[row]?.[col]);
      if (x !== y) out.push(`${row},${col}: ${x} ≠ ${y}`);
    }
  }
  return out;
}
