// Pure helpers of wait_for: compile an agent's regex safely, find it in screen rows or raw text.
import { PanescopeError, messageOf } from "../errors.js";
import type { Row } from "../observe/delta.js";

export const MAX_PATTERN_CHARS = 1000;
/** Raw text kept for matching in `raw` mode: the newest this many characters. */
export const RAW_WINDOW_CHARS = 64 * 1024;

export function compilePattern(pattern: string, ignoreCase = false): RegExp {
  if (pattern.length === 0) throw new PanescopeError("bad-input", "pattern is empty: pass a regular expression, or use quietMs or closed");
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new PanescopeError("bad-input", `pattern is ${pattern.length} characters, more than ${MAX_PATTERN_CHARS}: use a shorter regular expression`);
  }
  if (hasNestedQuantifier(pattern)) {
    throw new PanescopeError(
      "bad-input",
      "pattern repeats a group that itself repeats (like (a+)+ or (x*)*), which can take exponential time on a long screen: rewrite it without the nesting (e.g. a+)",
    );
  }
  try {
    // m: ^ and $ match at every row (screen) or line (raw) boundary.
    return new RegExp(pattern, ignoreCase ? "mi" : "m");
  } catch (error) {
    throw new PanescopeError("bad-input", `pattern is not a valid JavaScript regular expression (${messageOf(error)}): fix it, or escape special characters like ( [ . * with \\`);
  }
}

/**
 * True when a quantified group contains a quantifier — (a+)+, (a|b*)*, (x{2,}){3} — the shape
 * behind catastrophic backtracking. JavaScript regexes cannot be given a time limit, and one slow
 * match would stall every pane this server watches, so such patterns are refused up front.
 */
export function hasNestedQuantifier(pattern: string): boolean {
  const groups: boolean[] = []; // per open group: does it contain a quantifier?
  let closedWithQuantifier = false; // the group that just closed contained one
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      closedWithQuantifier = false;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") {
      inClass = true;
      closedWithQuantifier = false;
      continue;
    }
    if (c === "(") {
      groups.push(false);
      if (pattern[i + 1] === "?") i++; // (?: (?= (?! (?<name>: a group modifier, not a quantifier
      closedWithQuantifier = false;
      continue;
    }
    if (c === ")") {
      const had = groups.pop() ?? false;
      if (had && groups.length > 0) groups[groups.length - 1] = true;
      closedWithQuantifier = had;
      continue;
    }
    const quantifier = c === "*" || c === "+" || c === "?" || (c === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)));
    if (quantifier) {
      if (closedWithQuantifier && c !== "?") return true;
      if (groups.length > 0) groups[groups.length - 1] = true;
    }
    closedWithQuantifier = false;
  }
  return false;
}

export interface ScreenMatch {
  text: string;
  /** The rows the match touches, with absolute line numbers. */
  rows: Row[];
}

/** Looks for the pattern in the screen rows joined by newlines (so a match may span rows). */
export function matchScreen(regex: RegExp, rows: readonly string[], top: number): ScreenMatch | undefined {
  const joined = rows.join("\n");
  const m = regex.exec(joined);
  if (m === null) return undefined;
  const rowAt = (index: number): number => joined.slice(0, index).split("\n").length - 1;
  const first = rowAt(m.index);
  const last = rowAt(m.index + Math.max(0, m[0].length - 1));
  const touched: Row[] = [];
  for (let y = first; y <= Math.max(first, last); y++) touched.push({ line: top + y, text: rows[y] ?? "" });
  return { text: m[0], rows: touched };
}

export interface RawMatch {
  text: string;
  /** The whole raw line(s) around the match, \r\n folded to \n. */
  context: string;
}

export function matchRaw(regex: RegExp, raw: string): RawMatch | undefined {
  const m = regex.exec(raw);
  if (m === null) return undefined;
  const start = raw.lastIndexOf("\n", m.index - 1) + 1;
  const endAt = raw.indexOf("\n", m.index + m[0].length);
  const context = raw.slice(start, endAt === -1 ? raw.length : endAt).replace(/\r$/, "");
  return { text: m[0], context };
}

/** Keeps the newest `limit` characters of accumulated raw text (never splitting a surrogate pair). */
export function keepTail(text: string, limit = RAW_WINDOW_CHARS): string {
  if (text.length <= limit) return text;
  let start = text.length - limit;
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  return text.slice(start);
}
