// Builds the bytes that put an empty emulator into the state tmux reports for a pane
// (capture-pane -e -N lines, cursor, scroll region, alternate screen). Pure: data in, string out.

export interface PaneState {
  cols: number;
  rows: number;
  /** History and visible lines of the normal screen, oldest first (capture-pane -e -N -S - -E -). */
  lines: string[];
  cursorX: number;
  cursorY: number;
  /** Scroll region rows (0-based, inclusive), when the program set one. */
  scrollTop?: number;
  scrollBottom?: number;
  /** Present when the pane shows the alternate screen: `lines` is then the saved normal screen. */
  alternate?: {
    lines: string[];
    /** Cursor of the saved normal screen (#{alternate_saved_x}, #{alternate_saved_y}). */
    savedX: number;
    savedY: number;
  };
}

const ESC = "\x1b";

function cup(x: number, y: number): string {
  return `${ESC}[${y + 1};${x + 1}H`;
}

/** Lines written one per row; the last without a newline so nothing scrolls past it. */
function paint(lines: string[]): string {
  return lines.map((line) => `${line}${ESC}[0m`).join("\r\n");
}

/** The visible part of a capture whose last `rows` lines are the screen (blank padding trimmed by tmux is restored). */
function fitScreen(lines: string[], rows: number): string[] {
  const fitted = lines.slice();
  while (fitted.length < rows) fitted.push("");
  return fitted;
}

export function seedBytes(state: PaneState): string {
  // Written to a fresh emulator: history lines scroll into its scrollback, the last `rows` stay on screen.
  let out = paint(fitScreen(state.lines, state.rows));
  if (state.alternate) {
    out += cup(state.alternate.savedX, state.alternate.savedY);
    out += `${ESC}[?1049h${ESC}[H`;
    out += paint(fitScreen(state.alternate.lines, state.rows).slice(-state.rows));
  }
  if (state.scrollTop !== undefined && state.scrollBottom !== undefined) {
    const full = state.scrollTop === 0 && state.scrollBottom === state.rows - 1;
    if (!full) out += `${ESC}[${state.scrollTop + 1};${state.scrollBottom + 1}r`;
  }
  out += cup(state.cursorX, state.cursorY);
  return out;
}
