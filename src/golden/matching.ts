// How steps read a screen: whether rows show a `wait` match, and a screen framed for an error
// message (blank rows and trailing spaces visible). Pure.

import type { TextMatch } from "./tape.js";

/** The rows as `wait` sees them: joined with "\n", trailing blanks removed. */
export function screenMatches(lines: string[], match: TextMatch): boolean {
  const text = lines.join("\n");
  return match.kind === "text" ? text.includes(match.text) : new RegExp(match.regex.source, match.regex.flags.replace(/[gy]/g, "")).test(text);
}

export function describeMatch(match: TextMatch): string {
  return match.kind === "text" ? JSON.stringify(match.text) : `/${match.regex.source}/${match.regex.flags}`;
}

/** A screen for an error message, framed so blank rows and trailing spaces show. */
export function frameScreen(lines: string[]): string {
  const width = Math.max(0, ...lines.map((line) => line.length));
  return [`┌${"─".repeat(width)}┐`, ...lines.map((line) => `│${line.padEnd(width)}│`), `└${"─".repeat(width)}┘`].join("\n");
}
