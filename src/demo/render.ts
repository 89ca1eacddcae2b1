// Pure formatting for the demo: one capture_since answer as rendered rows and raw output, side by
// side when both fit the terminal, stacked (rows above raw) when it is narrower.
import type { Delta } from "../observe/read/delta.js";

/** Widest a side-by-side column gets. */
const COLUMN = 46;
const INDENT = "   ";
const GUTTER = " ┊ ";

/** Display width: the demo's text is ASCII plus a few one-cell symbols (│ ┊ ⏎ … ■ ·). */
function width(text: string): number {
  return [...text].length;
}

/** Cuts or pads to a display column count; a cut ends in "…". */
function fit(text: string, columns: number): string {
  const chars = [...text];
  return chars.length > columns ? `${chars.slice(0, Math.max(0, columns - 1)).join("")}…` : text + " ".repeat(columns - chars.length);
}

/** Cuts only: a stacked line needs no padding. */
function cut(text: string, columns: number): string {
  return width(text) > columns ? fit(text, columns) : text;
}

/** Words wrapped to `columns`, continuation lines indented; a word longer than a line is cut. */
export function wrap(text: string, columns: number, indent = INDENT): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line === "" ? word : `${line} ${word}`;
    if (width(next) <= columns || line === "") line = next;
    else {
      lines.push(line);
      line = `${indent}${word}`;
    }
  }
  lines.push(line);
  return lines.map((l) => cut(l, columns));
}

/** Raw output as display lines: `\r` frames made visible, so overwritten frames can be counted. */
export function rawLines(raw: string): string[] {
  // Each `\r` starts a frame that overwrites the line in place: one display line per frame.
  return raw
    .replace(/\r/g, "\n⏎")
    .split("\n")
    .filter((line) => line !== "");
}

export function byteSize(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * A line cut into pieces of `columns`: a full-screen program's raw output has no newlines (its
 * cursor moves are stripped), so its first cut would show only its top row and hide the jumble.
 */
function pieces(line: string, columns: number): string[] {
  const chars = [...line];
  const out: string[] = [];
  for (let at = 0; at < chars.length; at += columns) out.push(chars.slice(at, at + columns).join(""));
  return out.length === 0 ? [""] : out;
}

/** At most `height` lines, the last one saying how many more there were. */
function clip(lines: string[], height: number, what: string): string[] {
  return lines.length <= height ? lines : [...lines.slice(0, height - 1), `… ${lines.length - height + 1} more ${what}`];
}

export function renderDelta(title: string, delta: Delta, maxLines = 8, terminalCols = 100): string {
  const rows = delta.rows.map((row) => `${String(row.line - delta.screen.top).padStart(2)} │ ${row.text}`);
  const raw = rawLines(delta.raw);
  const rowsBytes = delta.rows.reduce((sum, row) => sum + byteSize(row.text), 0);
  const flags = [
    delta.first ? "first read: the visible screen" : "",
    delta.screen.alternate ? "alternate screen" : "",
    delta.missed ? `missed (${delta.reason ?? "?"})` : "",
    delta.closed ? "closed" : "",
  ].filter(Boolean);
  const out = wrap(`── capture_since ${delta.paneId} · ${title}${flags.length ? ` · ${flags.join(" · ")}` : ""}`, terminalCols);
  const rowsHead = `rows: ${delta.rows.length} changed, ${rowsBytes} B`;
  const rawHead = `raw: ${delta.rawBytes} B printed, ${byteSize(delta.raw)} B text`;
  const height = Math.min(maxLines, Math.max(rows.length, raw.length));
  const left = clip(rows, height, "rows");
  const right = clip(raw, height, "lines");

  // Side by side only when neither column has to cut a line: a cut hides the end of a row, which
  // is where a progress bar shows its point (the percentage).
  const column = Math.min(COLUMN, Math.floor((terminalCols - INDENT.length - GUTTER.length) / 2));
  const sideBySide = [rowsHead, ...left].every((l) => width(l) <= column) && [rawHead, ...right].every((l) => width(l) <= column);
  if (sideBySide) {
    out.push(`${INDENT}${fit(rowsHead, column)}${GUTTER}${rawHead}`);
    for (let i = 0; i < height; i++) out.push(`${INDENT}${fit(left[i] ?? "", column)}${GUTTER}${right[i] ?? ""}`.trimEnd());
    return out.join("\n");
  }
  // Stacked: each part gets the whole width, headings at two spaces and their lines at four; a
  // raw line wider than that goes on over the next lines, as a terminal would wrap it.
  for (const [head, lines] of [
    [rowsHead, clip(rows, maxLines, "rows")],
    [rawHead, clip(raw.flatMap((line) => pieces(line, Math.max(1, terminalCols - 4))), maxLines, "lines")],
  ] as const) {
    out.push(`  ${cut(head, terminalCols - 2)}`, ...lines.map((line) => `    ${cut(line, terminalCols - 4)}`.trimEnd()));
  }
  return out.join("\n");
}
