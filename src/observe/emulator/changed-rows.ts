// Which screen rows may have changed since the row tracker last looked: the rows xterm marked in
// each parse since (what its renderers repaint), every row after a resize or a failure, and a row
// held by another object now (should xterm ever move a row without marking it). A keystroke's echo
// then reads one or two rows instead of all (a row's text is the dearest part of a look).
import type { Terminal as XTerminal } from "@xterm/headless";
import { lastParseRows, rowObject } from "./xterm-internals.js";

export class ChangedRows {
  /** Rows changed since the last look, "all" when unknown. */
  private touched: { from: number; to: number } | "all" | undefined = "all";
  /** The row objects at that look, by screen row. */
  private looked: unknown[] = [];

  constructor(private readonly term: XTerminal) {}

  /** Every row may have changed (a resize, a failed parse). */
  all(): void {
    this.touched = "all";
  }

  /** A parse just ended: adds the rows it changed. */
  parsed(): void {
    const touched = this.touched;
    if (touched === "all") return;
    const rows = lastParseRows(this.term);
    if (!rows) this.touched = "all";
    else this.touched = touched ? { from: Math.min(touched.from, rows.from), to: Math.max(touched.to, rows.to) } : rows;
  }

  /** Screen.lookAtRows: once per look, whether row `y` may differ from that row at the last look. */
  look(): (y: number) => boolean {
    const touched = this.touched;
    const before = this.looked;
    const now: unknown[] = [];
    for (let y = 0; y < this.term.rows; y++) now.push(rowObject(this.term, y));
    this.looked = now;
    this.touched = undefined;
    if (touched === "all" || now.includes(undefined)) return () => true;
    return (y) => (touched !== undefined && y >= touched.from && y <= touched.to) || now[y] !== before[y];
  }
}
