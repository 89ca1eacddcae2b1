// How steps read a screen: whether rows show a `wait` match, and a screen framed for an error
// message (blank rows visible). Pure.

import { displayWidth } from "./cells.js";
import type { TextMatch } from "./tape.js";

/** How `wait` reads the rows, for a message: as MCP wait_for does (PaneSession.displayedLines). */
export const MATCHED_ROWS = "rows are matched without trailing blanks, except the cursor's row, which keeps them up to the cursor";

/** Whether the rows, joined with "\n" (so /^…$/m matches a row), show `match`. */
export function screenMatches(lines: string[], match: TextMatch): boolean {
  const text = lines.join("\n");
  return match.kind === "text" ? text.includes(match.text) : new RegExp(match.regex.source, match.regex.flags.replace(/[gy]/g, "")).test(text);
}

export function describeMatch(match: TextMatch): string {
  return match.kind === "text" ? JSON.stringify(match.text) : `/${match.regex.source}/${match.regex.flags}`;
}

/**
 * A screen of `cols` columns for an error message, framed so its edges and blank rows show. A run of two or more blank rows
 * is folded into one line naming the rows (an 80x24 screen with one line of text is 3 lines, not 26).
 */
export function frameScreen(lines: string[], cols = 0): string {
  // Measured in cells (a wide character takes two), as wide as the screen: its right edge shows.
  const width = Math.max(cols, ...lines.map(displayWidth));
  const out = [`┌${"─".repeat(width)}┐`];
  for (let y = 0; y < lines.length; ) {
    let end = y;
    while (end < lines.length && (lines[end] ?? "").trim() === "") end++;
    if (end - y >= 2) {
      out.push(`┆ rows ${y}–${end - 1} blank`);
      y = end;
    } else {
      const line = lines[y] ?? "";
      out.push(`│${line}${" ".repeat(width - displayWidth(line))}│`);
      y++;
    }
  }
  out.push(`└${"─".repeat(width)}┘`);
  return out.join("\n");
}
