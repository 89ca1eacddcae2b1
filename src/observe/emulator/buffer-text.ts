// What an xterm buffer shows, read out: rows as text trimmed the way capture-pane -p trims them, as
// a person sees them (the cursor's row keeps its blanks up to the cursor), with SGR colours, or as a
// snapshot with style runs. Reads only; the screen decides which buffer and where the cursor is.
import type { IBuffer, IBufferLine } from "@xterm/headless";
import type { ScreenSnapshot } from "./snapshot.js";
import { lineStyles, lineToAnsi } from "./style.js";
import { cellBlank, cellText } from "./xterm-internals.js";

/** A line's text, trailing blanks removed; "" for a line the buffer does not hold. */
export function textOf(line: IBufferLine | undefined, cols: number): string {
  // Pass cols: after a shrink, stale cells beyond the new width remain in the line (xterm 6.0).
  // Written spaces are content to xterm; trim them too, as capture-pane -p does.
  if (!line) return "";
  return cellText(line, cols) ?? line.translateToString(true, 0, cols).replace(/ +$/, "");
}

/** Whether textOf(line, cols) is "" (undefined: the buffer does not hold the line). */
export function blankOf(line: IBufferLine | undefined, cols: number): boolean | undefined {
  if (!line) return undefined;
  return cellBlank(line, cols) ?? textOf(line, cols) === "";
}

/** The `rows` visible rows of `buffer` as text. */
export function visibleText(buffer: IBuffer, cols: number, rows: number): string[] {
  const lines: string[] = [];
  for (let y = 0; y < rows; y++) lines.push(textOf(buffer.getLine(buffer.baseY + y), cols));
  return lines;
}

/**
 * The visible rows as a person sees them: trailing blanks removed, except that the cursor's row
 * keeps its blanks up to the cursor (a prompt like ">>> " waiting for input ends with its space).
 */
export function displayedText(buffer: IBuffer, cols: number, rows: number, cursor: { x: number; y: number }): string[] {
  const lines = visibleText(buffer, cols, rows);
  const x = Math.min(cursor.x, cols);
  const line = buffer.getLine(buffer.baseY + cursor.y);
  if (line && x > 0 && cursor.y < lines.length) {
    const left = line.translateToString(false, 0, x);
    lines[cursor.y] = left + line.translateToString(true, x, cols).replace(/ +$/, "");
  }
  return lines;
}

/**
 * For each visible row that the next row continues (a soft wrap: the line was longer than the
 * pane), the row as printed, trailing blanks kept since they are part of the line, less the blank
 * cell a wide character leaves in the last column when it does not fit; undefined for a row that
 * ends its line. Wait patterns match a wrapped line as one (mcp/match.ts).
 */
export function wrapTails(buffer: IBuffer, cols: number, rows: number): (string | undefined)[] {
  const tails: (string | undefined)[] = [];
  for (let y = 0; y < rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    if (!line || y + 1 >= rows || buffer.getLine(buffer.baseY + y + 1)?.isWrapped !== true) {
      tails.push(undefined);
      continue;
    }
    const last = line.getCell(cols - 1);
    const filler = last !== undefined && last.getChars() === "" && last.getWidth() === 1;
    tails.push(line.translateToString(false, 0, filler ? cols - 1 : cols));
  }
  return tails;
}

/** The last `count` history lines of `buffer` (oldest first), then nothing else. */
export function historyText(buffer: IBuffer, cols: number, count: number): string[] {
  const from = Math.max(0, buffer.baseY - count);
  const lines: string[] = [];
  for (let i = from; i < buffer.baseY; i++) lines.push(textOf(buffer.getLine(i), cols));
  return lines;
}

/** The visible rows with their colours and attributes as SGR escape sequences. */
export function visibleAnsi(buffer: IBuffer, cols: number, rows: number): string[] {
  const cell = buffer.getNullCell();
  const lines: string[] = [];
  for (let y = 0; y < rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    lines.push(line ? lineToAnsi(line, cols, cell) : "");
  }
  return lines;
}

/** The visible rows as text and style runs, with what `screen` says of the cursor and buffer. */
export function snapshotOf(buffer: IBuffer, screen: Omit<ScreenSnapshot, "lines" | "styles">): ScreenSnapshot {
  const cell = buffer.getNullCell();
  const lines: string[] = [];
  const styles: ScreenSnapshot["styles"] = [];
  for (let y = 0; y < screen.rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    lines.push(textOf(line, screen.cols));
    if (line) styles.push(...lineStyles(line, y, screen.cols, cell));
  }
  return { ...screen, lines, styles };
}
