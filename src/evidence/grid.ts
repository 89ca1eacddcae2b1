// A snapshot row as cells: which characters sit in which column (wide characters take two, marks
// join the cell before) and each column's style. Shared by the SVG renderer and the cast's screen.
import type { ScreenSnapshot } from "../observe/snapshot.js";
import { widthPolicy } from "../observe/width-policy.js";
import type { CellStyle } from "./palette.js";

/** One cell of a row: its column, its characters (a base and any marks) and 1 or 2 columns. */
export interface Cell {
  col: number;
  text: string;
  width: 1 | 2;
}

/** Columns one code point takes, as tmux lays it out (0 joins the cell before). */
export type WidthOf = (codePoint: number) => number;

let newest: WidthOf | undefined;

/** The newest tmux's widths (glibc's table and tmux's wide emoji); built once, on first use. */
export function defaultWidthOf(cp: number): number {
  if (cp >= 0x20 && cp < 0x300) return 1;
  newest ??= widthPolicy({ version: "3.7" }).widthOf;
  return newest(cp);
}

/** The cells of a row's text, left to right, padded with blank cells (" ") to `cols` if given. */
export function rowCells(text: string, widthOf: WidthOf = defaultWidthOf, cols = 0): Cell[] {
  const cells: Cell[] = [];
  let col = 0;
  for (const char of text) {
    const width = widthOf(char.codePointAt(0) ?? 0);
    const last = cells[cells.length - 1];
    if (width === 0 && last) {
      last.text += char;
      continue;
    }
    if (width === 0) continue;
    cells.push({ col, text: char, width: width >= 2 ? 2 : 1 });
    col += width >= 2 ? 2 : 1;
  }
  for (; col < cols; col++) cells.push({ col, text: " ", width: 1 });
  return cells;
}

/** Each column's style on one row (undefined: plain), from the snapshot's runs. */
export function rowStyles(snapshot: ScreenSnapshot, row: number): Array<CellStyle | undefined> {
  const styles = new Array<CellStyle | undefined>(snapshot.cols).fill(undefined);
  for (const run of snapshot.styles) {
    if (run.row !== row) continue;
    const { row: _row, start, end, ...style } = run;
    for (let x = Math.max(0, start); x < Math.min(end, snapshot.cols); x++) styles[x] = style;
  }
  return styles;
}

/** A key equal for equal styles, to cut a row into runs of one style. */
export function styleKey(style: CellStyle | undefined): string {
  return style ? JSON.stringify(style) : "";
}
