// A cast played the way a player built on xterm.js plays it: into a plain @xterm/headless, none of
// panescope's tmux rules (shared tab stops, widths) added; and a terminal's cells with every
// attribute xterm holds, read through xterm's own cell methods, to compare two terminals cell by cell.
import { createRequire } from "node:module";
import type { IBufferCell, Terminal } from "@xterm/headless";
import { parseSize, type Cast } from "../../src/evidence/cast.js";

const { Terminal: XTerminal } = createRequire(import.meta.url)("@xterm/headless") as typeof import("@xterm/headless");

/** A plain xterm of `cols` × `rows` (the proposed API on, to read its buffer). */
export function plainXterm(cols: number, rows: number): Terminal {
  return new XTerminal({ cols, rows, allowProposedApi: true, logLevel: "off" });
}

export function writeTo(term: Terminal, data: string): Promise<void> {
  return new Promise((done) => term.write(data, done));
}

/** The cast's "o" events written in order into a fresh plain xterm, "r" events resizing it. */
export async function playInXterm(cast: Cast): Promise<Terminal> {
  const term = plainXterm(cast.header.width, cast.header.height);
  for (const [, code, data] of cast.events) {
    if (code === "o") await writeTo(term, data);
    const size = code === "r" ? parseSize(data) : undefined;
    if (size) term.resize(size.cols, size.rows);
  }
  return term;
}

/** xterm 6.0's cell methods beyond the typings (AttributeData): the underline's style and colour. */
interface FullCell extends IBufferCell {
  getUnderlineStyle(): number;
  isUnderlineColorDefault(): boolean;
  getUnderlineColorMode(): number;
  getUnderlineColor(): number;
}

function describe(c: FullCell): string {
  const flags = { bold: c.isBold(), dim: c.isDim(), italic: c.isItalic(), blink: c.isBlink(), inverse: c.isInverse(), hidden: c.isInvisible(), strike: c.isStrikethrough(), overline: c.isOverline() };
  const on = Object.entries(flags).filter(([, v]) => v !== 0).map(([k]) => k);
  const underline = c.getUnderlineStyle();
  if (underline !== 0) on.push(`underline${underline}`, c.isUnderlineColorDefault() ? "ul=default" : `ul=${c.getUnderlineColorMode()}/${c.getUnderlineColor()}`);
  // An empty cell shows as a written space does (the second half of a wide character stays "").
  const text = c.getChars() || (c.getWidth() === 0 ? "" : " ");
  return [JSON.stringify(text), `fg=${c.getFgColorMode()}/${c.getFgColor()}`, `bg=${c.getBgColorMode()}/${c.getBgColor()}`, ...on].join(" ");
}

/** Each visible cell as "text fg bg attributes…", row by row. */
export function xtermCells(term: Terminal): string[][] {
  const buffer = term.buffer.active;
  const cell = buffer.getNullCell() as FullCell;
  return Array.from({ length: term.rows }, (_, y) => {
    const line = buffer.getLine(buffer.viewportY + y);
    return Array.from({ length: term.cols }, (_, x) => (line?.getCell(x, cell) ? describe(cell) : "none"));
  });
}

/** Where two terminals' cells differ, as "row,col: a ≠ b" (empty when every cell agrees). */
export function xtermCellDifferences(a: Terminal, b: Terminal): string[] {
  const [ca, cb] = [xtermCells(a), xtermCells(b)];
  const out: string[] = [];
  for (let y = 0; y < Math.max(ca.length, cb.length); y++) {
    for (let x = 0; x < Math.max(ca[y]?.length ?? 0, cb[y]?.length ?? 0); x++) {
      if (ca[y]?.[x] !== cb[y]?.[x]) out.push(`${y},${x}: ${ca[y]?.[x]} ≠ ${cb[y]?.[x]}`);
    }
  }
  return out;
}

/** The visible rows' text, trailing blanks removed (written ones too, as capture-pane -p removes them). */
export function xtermLines(term: Terminal): string[] {
  const buffer = term.buffer.active;
  return Array.from({ length: term.rows }, (_, y) => buffer.getLine(buffer.viewportY + y)?.translateToString(true).trimEnd() ?? "");
}
