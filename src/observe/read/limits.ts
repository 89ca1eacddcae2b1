// Bounds one answer. maxLines keeps the bottom-most changed rows; maxBytes is one budget spent on
// the newest content first, counted as the content is sent: each character at the larger of its
// size in JSON (structuredContent: `\n` is 2 bytes, an ESC 6) and in the fenced text (`\x7f` is 4),
// and each row with the frame around it (`{"line":N,"text":""},` or `N|…\n`). So what the budget
// lets through fits in either form of the answer. Which of rows and raw is served first follows
// what the reader shows (`prefer`): a raw reader gets raw, not the leftovers of the rows.
import type { ReadLimits, Row, Truncation } from "./delta.js";

export interface Limited<T extends { text: string } = Row> {
  rows: T[];
  raw: string;
  truncated: Truncation;
}

/** Bytes of one UTF-16 unit as sent (a surrogate pair counts 4 on its high half, 0 on its low). */
export function unitBytes(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 0x20) return code === 0x09 || code === 0x0a || code === 0x0d || code === 0x08 ? 2 : 6;
  if (code === 0x22 || code === 0x5c) return 2;
  if (code === 0x7f) return 4;
  if (code < 0x80) return 1;
  if (code === 0x85) return 4;
  if (code < 0x800) return 2;
  if (code === 0x2028 || code === 0x2029) return 6;
  if (code >= 0xd800 && code <= 0xdbff) return 4;
  if (code >= 0xdc00 && code <= 0xdfff) return 0;
  return 3;
}

/** What `text` costs as sent (see unitBytes). */
export function sentBytes(text: string): number {
  let total = 0;
  for (let i = 0; i < text.length; i++) total += unitBytes(text, i);
  return total;
}

/** A row's cost: its text plus the frame around it, `{"line":N,"text":""},` (or `N|` … newline). */
export function rowBytes(row: { text: string; line?: number; row?: number }): number {
  return sentBytes(row.text) + 20 + String(row.line ?? row.row ?? 0).length;
}

/** What a history line costs at least, framed by its line number (answer) or by its screen row `line - top` (patch). */
export function historyRowFloor(text: string, line: number, top: number): number {
  return sentBytes(text) + 20 + Math.min(String(line).length, String(line - top).length);
}

/** The longest tail of `text` whose cost fits `budget`, never splitting a surrogate pair. */
function tailWithin(text: string, budget: number): string {
  let start = text.length;
  let used = 0;
  while (start > 0) {
    let next = start - 1;
    let size = unitBytes(text, next);
    if (size === 0 && next > 0) size = unitBytes(text, --next); // a whole surrogate pair
    if (used + size > budget) break;
    used += size;
    start = next;
  }
  return text.slice(start);
}

/** The bottom-most rows whose cost fits `budget`, and what they cost. */
function rowsWithin<T extends { text: string }>(rows: T[], budget: number): { kept: T[]; used: number } {
  let first = rows.length;
  let used = 0;
  while (first > 0) {
    const size = rowBytes(rows[first - 1] as T);
    if (used + size > budget) break;
    used += size;
    first--;
  }
  return { kept: rows.slice(first), used };
}

/** Rows of any shape with a text (answer rows by line, patch rows by screen row). */
export function applyLimits<T extends { text: string }>(rows: T[], raw: string, limits: ReadLimits): Limited<T> {
  let kept = rows;
  if (limits.maxLines !== undefined && kept.length > limits.maxLines) kept = kept.slice(kept.length - limits.maxLines);
  let text = raw;
  if (limits.maxBytes !== undefined) {
    const budget = limits.maxBytes;
    const prefer = limits.prefer ?? "rows";
    if (prefer === "raw") {
      text = tailWithin(raw, budget);
      kept = rowsWithin(kept, budget - sentBytes(text)).kept;
    } else {
      // "both": the rows may take half the budget, or more when the raw needs less than its half.
      const rowBudget = prefer === "rows" ? budget : Math.max(Math.floor(budget / 2), budget - sentBytes(raw));
      const fitted = rowsWithin(kept, rowBudget);
      kept = fitted.kept;
      text = tailWithin(raw, budget - fitted.used);
    }
  }
  return {
    rows: kept,
    raw: text,
    truncated: { rows: rows.length - kept.length, rawChars: raw.length - text.length },
  };
}

/** The limits for the text's rows when the text also shows `raw`: what the raw left of the budget. */
export function afterRaw(limits: ReadLimits, raw: string): ReadLimits {
  if (limits.maxBytes === undefined || (limits.prefer ?? "rows") === "rows") return limits;
  return { ...limits, maxBytes: Math.max(0, limits.maxBytes - sentBytes(raw)), prefer: "rows" };
}
