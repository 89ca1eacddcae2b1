// `capture-pane -p` text as the screen shows it. tmux 3.6+ keeps a tab the program printed as one
// "\t" in a capture (grid.c: GRID_FLAG_TAB cells; earlier versions print the blanks it covers), so
// a consumer comparing a capture with rendered rows expands it first. Pure.

const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
const MARK = /\p{M}/u;

/** Columns a character takes (0, 1 or 2) by the common wcwidth rules; only tab positions need it. */
export function columnsOf(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  // Combining marks, zero-width spaces and joiners, variation selectors: no column of their own.
  if (MARK.test(char) || (code >= 0x200b && code <= 0x200f) || (code >= 0xfe00 && code <= 0xfe0f)) return 0;
  return WIDE.test(char) ? 2 : 1;
}

/**
 * Replaces each tab with the spaces up to the next tab stop (every 8 columns: tmux's default; a
 * capture does not say where a program moved the stops). A line without tabs is returned as is.
 */
export function expandTabs(line: string, tabWidth = 8): string {
  if (!line.includes("\t")) return line;
  let out = "";
  let column = 0;
  for (const char of line) {
    if (char === "\t") {
      const spaces = tabWidth - (column % tabWidth);
      out += " ".repeat(spaces);
      column += spaces;
    } else {
      out += char;
      column += columnsOf(char);
    }
  }
  return out;
}
