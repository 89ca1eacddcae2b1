// Pure helpers of wait_for: check an agent's regex, and say where a match lies in screen rows or raw
// text. Matching itself runs in regex-runner.ts, off the event loop.
import { PanescopeError, messageOf } from "../errors.js";
import type { Row } from "../observe/read/delta.js";
import type { RegexMatch } from "./regex-runner.js";

export const MAX_PATTERN_CHARS = 1000;
/** Raw text kept for matching in `raw` mode: the newest this many characters. */
export const RAW_WINDOW_CHARS = 64 * 1024;

/** A checked pattern, to be run by the RegexRunner (never on the event loop: it may backtrack). */
export interface Pattern {
  source: string;
  flags: string;
}

export function compilePattern(pattern: string, ignoreCase = false): Pattern {
  if (pattern.length === 0) throw new PanescopeError("bad-input", "pattern is empty: pass a regular expression, or use `quietMs` or `closed: true`");
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new PanescopeError("bad-input", `pattern is ${pattern.length} characters, more than ${MAX_PATTERN_CHARS}: use a shorter regular expression`);
  }
  // m: ^ and $ match at every row (screen) or line (raw) boundary.
  const flags = ignoreCase ? "mi" : "m";
  try {
    // Only parsed here (V8 compiles a regex on its first exec): a syntax check in linear time.
    new RegExp(pattern, flags);
  } catch (error) {
    throw new PanescopeError("bad-input", `pattern is not a valid JavaScript regular expression (${messageOf(error)}): fix it, or escape special characters like ( [ . * with \\`);
  }
  return { source: pattern, flags };
}

/**
 * Screen rows as they are matched: one text line per line of output, so a match may span rows. A
 * row the next one continues (`wraps[y]`: a soft wrap, the row as printed) is joined to it with no
 * newline: a long path or URL wrapped by a narrow pane still matches, and ^/$ are a line's ends.
 */
export function screenText(rows: readonly string[], wraps: readonly (string | undefined)[] = []): string {
  return rowStarts(rows, wraps).text;
}

/** The joined text and where each row begins in it. */
function rowStarts(rows: readonly string[], wraps: readonly (string | undefined)[]): { text: string; starts: number[] } {
  let text = "";
  const starts: number[] = [];
  rows.forEach((row, y) => {
    starts.push(text.length);
    const tail = wraps[y];
    text += tail ?? row;
    if (tail === undefined && y < rows.length - 1) text += "\n";
  });
  return { text, starts };
}

export interface ScreenMatch {
  text: string;
  /** The rows the match touches, with absolute line numbers. */
  rows: Row[];
  /** In words: "screen row 3" or "screen rows 3-4". */
  where: string;
}

/** Where a match found in screenText(rows, wraps) lies on the screen. */
export function locateOnScreen(found: RegexMatch, rows: readonly string[], top: number, wraps: readonly (string | undefined)[] = []): ScreenMatch {
  const { starts } = rowStarts(rows, wraps);
  const rowAt = (index: number): number => Math.max(0, starts.findLastIndex((start) => start <= index));
  const first = rowAt(found.index);
  const last = Math.max(first, rowAt(found.index + Math.max(0, found.text.length - 1)));
  const touched: Row[] = [];
  for (let y = first; y <= last; y++) touched.push({ line: top + y, text: rows[y] ?? "" });
  return { text: found.text, rows: touched, where: first === last ? `screen row ${first}` : `screen rows ${first}-${last}` };
}

export interface RawMatch {
  text: string;
  /** The whole raw line(s) around the match, \r\n folded to \n. */
  context: string;
  /** In words: which line of the raw output since the cursor. */
  where: string;
}

/** Where a match found in the raw text lies: its line(s), and which line of how many. */
export function locateInRaw(found: RegexMatch, raw: string): RawMatch {
  const start = raw.lastIndexOf("\n", found.index - 1) + 1;
  const endAt = raw.indexOf("\n", found.index + found.text.length);
  const context = raw.slice(start, endAt === -1 ? raw.length : endAt).replace(/\r$/, "").replace(/\r\n/g, "\n");
  const line = raw.slice(0, found.index).split("\n").length;
  const lines = raw.replace(/\n$/, "").split("\n").length;
  return { text: found.text, context, where: `raw output since the cursor, line ${line} of ${lines}` };
}

/** Keeps the newest `limit` characters of accumulated raw text (never splitting a surrogate pair). */
export function keepTail(text: string, limit = RAW_WINDOW_CHARS): string {
  if (text.length <= limit) return text;
  let start = text.length - limit;
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  return text.slice(start);
}
