// What a reader can rebuild from capture_since answers alone: the lines it was told about, placed by
// their absolute numbers, a first answer starting over. Tests compare the rebuilt screen with
// tmux's own (`capture-pane -p`) to prove that no change reached a reader unflagged or not at all.
import type { Delta } from "../../src/observe/delta.js";

export class RebuiltScreen {
  private readonly lines = new Map<number, string>();
  private last: Delta["screen"] | undefined;

  apply(delta: Pick<Delta, "first" | "rows" | "screen">): void {
    // A first answer (also one that restarts after a discontinuity) is the whole visible screen:
    // rows it leaves out below the last one are blank.
    if (delta.first) this.lines.clear();
    for (const row of delta.rows) this.lines.set(row.line, row.text);
    this.last = delta.screen;
  }

  /** The visible rows as the reader now believes them, trailing blanks removed. */
  rows(): string[] {
    const screen = this.last;
    if (!screen) return [];
    return Array.from({ length: screen.rows }, (_, y) => (this.lines.get(screen.top + y) ?? "").replace(/ +$/, ""));
  }
}

/** tmux's visible screen as capture-pane prints it, in the form rows() gives (tabs expanded). */
export function tmuxRows(lines: readonly string[]): string[] {
  return lines.map((line) => expandTabs(line).replace(/ +$/, ""));
}

/** tmux 3.6+ keeps tabs in capture-pane output: expand them to 8-column stops as the screen shows. */
function expandTabs(line: string): string {
  if (!line.includes("\t")) return line;
  let out = "";
  for (const ch of line) out += ch === "\t" ? " ".repeat(8 - (out.length % 8)) : ch;
  return out;
}
