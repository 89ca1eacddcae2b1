// Where the replica and tmux disagree on the visible screen: the rows, the cursor, the buffer.
// Pure: our rows as text and tmux's state (a capture-pane -e -N of the screen) in, differences out.
import type { PaneState } from "./seed.js";

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

/** tmux's visible rows as plain text: styles removed, tabs expanded (3.6+ keeps them), blanks trimmed. */
export function visibleText(state: PaneState): string[] {
  const lines = state.alternate ? state.alternate.lines : state.lines;
  const screen = lines.slice(Math.max(0, lines.length - state.rows));
  while (screen.length < state.rows) screen.push("");
  return screen.map((line) => expandTabs(line.replace(STYLE, "")).replace(/ +$/, ""));
}

function expandTabs(line: string): string {
  if (!line.includes("\t")) return line;
  let out = "";
  let column = 0;
  for (const ch of line) {
    if (ch === "\t") {
      const pad = 8 - (column % 8);
      out += " ".repeat(pad);
      column += pad;
    } else {
      out += ch;
      column++;
    }
  }
  return out;
}

export function differences(ours: OurScreen, theirs: PaneState): Differences {
  const shape = ours.cols !== theirs.cols || ours.rows !== theirs.rows || ours.alternate !== (theirs.alternate !== undefined);
  const text = visibleText(theirs);
  const rows: number[] = [];
  for (let y = 0; y < Math.min(ours.rows, theirs.rows); y++) if ((ours.text[y] ?? "") !== (text[y] ?? "")) rows.push(y);
  return { rows, cursor: ours.cursorX !== theirs.cursorX || ours.cursorY !== theirs.cursorY, shape };
}

export function agree(d: Differences): boolean {
  return d.rows.length === 0 && !d.cursor && !d.shape;
}
