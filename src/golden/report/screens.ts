// The two screens a golden report shows: each side read back from its golden text (so masks and
// control pictures look the same on both), with its colours, and the cells where they differ. Pure.

import type { CellRange } from "../../evidence/svg.js";
import { rowCells, rowStyles, styleKey } from "../../evidence/grid.js";
import type { Colour, ScreenSnapshot, StyleRun } from "../../observe/emulator/snapshot.js";
import { parseGolden } from "../format.js";

const FLAGS = ["bold", "dim", "italic", "underline", "inverse", "strikethrough", "hidden"] as const;

function colourOf(text: string): Colour {
  return text.startsWith("#") ? { kind: "rgb", rgb: Number.parseInt(text.slice(1), 16) } : { kind: "palette", index: Number(text) };
}

/** A style line as formatGolden writes it (`2:0-3 fg=1 bg=#ff0000 bold`); undefined if it is not one. */
export function parseStyleLine(line: string): StyleRun | undefined {
  const m = /^(\d+):(\d+)-(\d+) (.+)$/.exec(line);
  if (m === null) return undefined;
  const run: StyleRun = { row: Number(m[1]), start: Number(m[2]), end: Number(m[3]) };
  for (const attr of (m[4] ?? "").split(" ")) {
    if (attr.startsWith("fg=")) run.fg = colourOf(attr.slice(3));
    else if (attr.startsWith("bg=")) run.bg = colourOf(attr.slice(3));
    else if ((FLAGS as readonly string[]).includes(attr)) run[attr as (typeof FLAGS)[number]] = true;
  }
  return run;
}

/**
 * A golden's screen as a snapshot. A hidden cursor stays hidden; `colours`, when the golden pinned
 * none, are the live screen's (a text-only golden still shows a person its colours).
 */
export function goldenScreen(text: string, colours?: StyleRun[]): ScreenSnapshot {
  const g = parseGolden(text);
  const styles = g.colors ? g.styles.flatMap((line) => parseStyleLine(line) ?? []) : (colours ?? []);
  return {
    cols: g.cols,
    rows: g.rows,
    cursorX: g.cursorX,
    cursorY: g.cursorY,
    cursorVisible: g.cursorVisible,
    alternate: g.alternate,
    lines: g.lines.map((line) => line.trimEnd()),
    styles,
  };
}

/** Each column's character ("" for the right half of a wide one) and style, `cols` wide. */
function columns(screen: ScreenSnapshot, row: number, cols: number): string[] {
  const out = new Array<string>(cols).fill(" ");
  for (const cell of rowCells(screen.lines[row] ?? "", undefined, cols)) {
    if (cell.col < cols) out[cell.col] = cell.text;
    if (cell.width === 2 && cell.col + 1 < cols) out[cell.col + 1] = "";
  }
  const styles = row < screen.rows ? rowStyles(screen, row) : [];
  return out.map((text, x) => `${text}\u0000${styleKey(styles[x])}`);
}

/** Cells whose character or style differ, as ranges per row; cells outside one screen differ too. */
export function differingCells(expected: ScreenSnapshot, actual: ScreenSnapshot): CellRange[] {
  const rows = Math.max(expected.rows, actual.rows);
  const cols = Math.max(expected.cols, actual.cols);
  const ranges: CellRange[] = [];
  for (let row = 0; row < rows; row++) {
    const a = columns(expected, row, cols);
    const b = columns(actual, row, cols);
    let start = -1;
    for (let x = 0; x <= cols; x++) {
      const inside = x < cols && row < expected.rows && row < actual.rows && x < expected.cols && x < actual.cols;
      const differs = x < cols && (!inside || a[x] !== b[x]);
      if (differs && start < 0) start = x;
      if (!differs && start >= 0) {
        ranges.push({ row, start, end: x });
        start = -1;
      }
    }
  }
  return ranges;
}

/** The ranges that fall on a screen of this size (each side highlights only its own cells). */
export function within(ranges: readonly CellRange[], screen: Pick<ScreenSnapshot, "cols" | "rows">): CellRange[] {
  return ranges.flatMap((r) => (r.row < screen.rows && r.start < screen.cols ? [{ ...r, end: Math.min(r.end, screen.cols) }] : []));
}
