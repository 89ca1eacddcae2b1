// Where the replica and tmux disagree on the visible screen: the rows, the cursor, the buffer.
// Pure: our rows as text and tmux's state (a capture-pane -e -N of the screen) in, differences out.
import type { ScreenState } from "./seed.js";

export interface OurScreen {
  cols: number;
  rows: number;
  cursorX: number;
  cursorY: number;
  alternate: boolean;
  /** Visible rows, trailing blanks removed. */
  text: readonly string[];
}

export interface Differences {
  /** Screen rows (0-based) whose text differs. */
  rows: number[];
  cursor: boolean;
  /** Size or alternate screen differ: nothing row by row can fix that. */
  shape: boolean;
}

// capture-pane -e writes SGR colours and (3.4+) OSC 8 hyperlinks; the text is what is left.
const STYLE = /\x1b\[[0-9;:]*m|\x1b\]8;[^\x1b\x07]*(?:\x1b\\|\x07)/g;

/**
 * tmux's visible rows as plain text: styles removed, line drawing drawn, blanks trimmed. A tab tmux 3.6+ kept in a
 * capture (a blank cell as wide as the tab went) stays a "\t": sameRow reads it.
 */
export function visibleText(state: ScreenState): string[] {
  const lines = drawn(state.alternate ? state.alternate.lines : state.lines);
  const screen = lines.slice(Math.max(0, lines.length - state.rows));
  while (screen.length < state.rows) screen.push("");
  return screen.map(trimBlanks);
}

// DEC special graphics (VT100 line drawing), as xterm maps it.
const GRAPHICS: Record<string, string> = {
  "`": "◆", a: "▒", b: "␉", c: "␌", d: "␍", e: "␊", f: "°", g: "±", h: "␤", i: "␋", j: "┘", k: "┐", l: "┌", m: "└", n: "┼", o: "⎺",
  p: "⎻", q: "─", r: "⎼", s: "⎽", t: "├", u: "┤", v: "┴", w: "┬", x: "│", y: "≤", z: "≥", "{": "π", "|": "≠", "}": "£", "~": "·",
};

/**
 * Captured lines as the screen shows them: styles removed, and the line-drawing cells capture-pane -e
 * marks with SO … SI (the shift carries across lines, as in its output) drawn as the emulator draws them.
 */
function drawn(lines: readonly string[]): string[] {
  let shifted = false;
  return lines.map((line) => {
    const text = line.replace(STYLE, "");
    if (!shifted && !text.includes("\x0e")) return text;
    let out = "";
    for (const char of text) {
      if (char === "\x0e") shifted = true;
      else if (char === "\x0f") shifted = false;
      else out += shifted ? (GRAPHICS[char] ?? char) : char;
    }
    return out;
  });
}

/** Without trailing spaces and tabs (loops: a regex like / +$/ is quadratic on a long run of blanks). */
function trimBlanks(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  return text.slice(0, end);
}

function trimLeadingSpaces(text: string): string {
  let start = 0;
  while (text[start] === " ") start++;
  return text.slice(start);
}

/**
 * Whether our row reads as tmux's. Each tab in tmux's row stands for one or more blanks: a capture
 * does not say how wide a tab cell is (the program may have moved the stops since, or CSI P shifted
 * the cell), and the replica draws tabs from the stream with the pane's own stops.
 */
export function sameRow(ours: string, theirs: string): boolean {
  if (!theirs.includes("\t")) return ours === theirs;
  const pieces = theirs.split("\t");
  let at = 0;
  for (const [k, raw] of pieces.entries()) {
    // The blanks on either side of a tab belong to its gap; tabs with only blanks between are one gap.
    const piece = k > 0 ? trimLeadingSpaces(k < pieces.length - 1 ? trimBlanks(raw) : raw) : trimBlanks(raw);
    if (k > 0 && piece === "") continue;
    if (k > 0) {
      const gap = at;
      while (ours[at] === " ") at++;
      if (at === gap) return false;
    }
    if (!ours.startsWith(piece, at)) return false;
    at += piece.length;
  }
  return at === ours.length;
}

export function differences(ours: OurScreen, theirs: ScreenState): Differences {
  const shape = ours.cols !== theirs.cols || ours.rows !== theirs.rows || ours.alternate !== (theirs.alternate !== undefined);
  const text = visibleText(theirs);
  const rows: number[] = [];
  for (let y = 0; y < Math.min(ours.rows, theirs.rows); y++) if (!sameRow(ours.text[y] ?? "", text[y] ?? "")) rows.push(y);
  return { rows, cursor: ours.cursorX !== theirs.cursorX || ours.cursorY !== theirs.cursorY, shape };
}

export function agree(d: Differences): boolean {
  return d.rows.length === 0 && !d.cursor && !d.shape;
}
