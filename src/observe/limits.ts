// Bounds one answer. maxLines keeps the bottom-most changed rows; maxBytes is one budget (UTF-8
// bytes of row text, then of raw) spent on the newest content first. What is cut is counted.
import type { ReadLimits, Row, Truncation } from "./delta.js";

export interface Limited<T extends { text: string } = Row> {
  rows: T[];
  raw: string;
  truncated: Truncation;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8"); // counts without encoding a copy
}

/** UTF-8 size of the UTF-16 unit at `i` (a surrogate pair counts 4 on its high half, 0 on its low). */
function unitBytes(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) return 4;
  if (code >= 0xdc00 && code <= 0xdfff) return 0;
  return 3;
}

/** The longest tail of `text` whose UTF-8 size fits `budget`, never splitting a surrogate pair. */
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

/** Rows of any shape with a text (answer rows by line, patch rows by screen row). */
export function applyLimits<T extends { text: string }>(rows: T[], raw: string, limits: ReadLimits): Limited<T> {
  let kept = rows;
  if (limits.maxLines !== undefined && kept.length > limits.maxLines) kept = kept.slice(kept.length - limits.maxLines);
  let text = raw;
  if (limits.maxBytes !== undefined) {
    let budget = limits.maxBytes;
    let first = kept.length;
    while (first > 0) {
      const size = byteLength(kept[first - 1]?.text ?? "") + 1;
      if (size > budget) break;
      budget -= size;
      first--;
    }
    kept = kept.slice(first);
    text = tailWithin(raw, budget);
  }
  return {
    rows: kept,
    raw: text,
    truncated: { rows: rows.length - kept.length, rawChars: raw.length - text.length },
  };
}
