// What a reader can rebuild from capture_since answers alone: the lines it was told about, placed by
// their absolute numbers, a first answer starting over. Tests compare the rebuilt screen with
// tmux's own (`capture-pane -p`) to prove that no change reached a reader unflagged or not at all.
import type { Delta } from "../../src/observe/read/delta.js";

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

/**
 * What a reader can rebuild from the TEXT of capture_since answers alone, as a model reads it: the
 * header's cursor, size and scroll, then the fenced rows (`N|text`, `|text` for the next row).
 * Raw lines (`>`) and panescope's notes do not touch the screen.
 */
export class TextScreen {
  private screen: string[] = [];
  /** The cursor to pass next: the header's, or the one held when an answer omits it. */
  cursor: string | undefined;
  /** Every pane line of the last answer (rows and raw), fence included. */
  paneLines: string[] = [];

  apply(text: string): void {
    const lines = text.split("\n");
    this.paneLines = [];
    const head = lines[0] ?? "";
    if (head.startsWith("cursor=")) this.header(head);
    let next = 0;
    for (const line of lines.slice(1)) {
      const m = /^(-?\d+)?\|(.*)$/.exec(line);
      if (m) {
        const row = m[1] === undefined ? next : Number(m[1]);
        next = row + 1;
        if (row >= 0 && row < this.screen.length) this.screen[row] = m[2] ?? "";
        else if (row >= this.screen.length) throw new Error(`row ${row} is below a ${this.screen.length}-row screen: ${line}`);
      }
      if (m || line.startsWith(">")) this.paneLines.push(line);
    }
  }

  /** The visible rows as the reader now believes them, trailing blanks removed. */
  rows(): string[] {
    return this.screen.map((row) => row.replace(/ +$/, ""));
  }

  private header(line: string): void {
    const words = line.split(" ");
    this.cursor = (words[0] ?? "").slice("cursor=".length);
    for (let i = 1; i < words.length; i++) {
      const word = words[i] ?? "";
      if (word === "screen") {
        const size = /^(\d+)x(\d+)$/.exec(words[++i] ?? "");
        if (!size) throw new Error(`bad size in ${line}`);
        this.screen = Array.from({ length: Number(size[2]) }, () => "");
      } else if (word === "scrolled") {
        this.scroll(0, this.screen.length - 1, Number(words[++i]));
      } else if (word === "rows" && words[i + 2] === "scrolled") {
        const [from, to] = (words[i + 1] ?? "").split("-").map(Number);
        this.scroll(from ?? 0, to ?? 0, Number(words[i + 3]));
        i += 3;
      }
    }
  }

  private scroll(from: number, to: number, by: number): void {
    const before = [...this.screen];
    for (let y = from; y <= to; y++) {
      const source = y + by;
      this.screen[y] = source >= from && source <= to ? (before[source] ?? "") : "";
    }
  }
}
