// Output that draws a screen on a fresh terminal: how a recording begins, and how it goes on after
// panescope took tmux's screen (a gap, a resync). Pure: a snapshot or tmux's pane state in, text out.
import { defaultTabs, modeBytes, seedBytes, tabBytes, type ScreenModes, type ScreenState } from "../observe/emulator/seed.js";
import type { ScreenSnapshot } from "../observe/emulator/snapshot.js";
import { styleSgr } from "../observe/emulator/style.js";
import { rowCells, rowStyles, styleKey, type WidthOf } from "./grid.js";

const ESC = "\x1b";
/** RIS: a full reset, so what follows draws on a blank terminal whatever the player showed before. */
const RESET = `${ESC}c`;

/** The rows of a snapshot with their colours, each placed with CUP (autowrap must be off). */
function rowsAnsi(snapshot: ScreenSnapshot, widthOf?: WidthOf): string {
  let out = "";
  for (let row = 0; row < snapshot.rows; row++) {
    const styles = rowStyles(snapshot, row);
    const cells = rowCells(snapshot.lines[row] ?? "", widthOf, snapshot.cols);
    // Up to the last cell that shows something: a character, or a style (a coloured blank).
    let last = -1;
    for (const [i, cell] of cells.entries()) if (cell.text !== " " || styles[cell.col]) last = i;
    if (last < 0) continue;
    out += `${ESC}[${row + 1};1H`;
    let key = "";
    for (const cell of cells.slice(0, last + 1)) {
      const style = styles[cell.col];
      if (styleKey(style) !== key) out += style ? styleSgr(style) : `${ESC}[0m`;
      key = styleKey(style);
      out += cell.text;
    }
    if (key !== "") out += `${ESC}[0m`;
  }
  return out;
}

/**
 * The cursor. Just past the last column (a row printed to its end: the next character wraps),
 * where no CUP reaches (it stops on the last column), the row's last cell is printed again and
 * leaves the cursor where the program's printing did.
 */
function cup(s: ScreenSnapshot, widthOf?: WidthOf, regionTop = 0): string {
  // With origin mode on, CUP counts rows from the scroll region's top.
  const row = s.cursorY - regionTop + 1;
  const last = s.cursorX >= s.cols ? rowCells(s.lines[s.cursorY] ?? "", widthOf, s.cols).at(-1) : undefined;
  if (!last) return `${ESC}[${row};${s.cursorX + 1}H`;
  const style = rowStyles(s, s.cursorY)[last.col];
  return `${ESC}[${row};${last.col + 1}H${style ? `${styleSgr(style)}${last.text}${ESC}[0m` : last.text}`;
}

/** The tab stops when they are not the default ones, for the active buffer (xterm keeps a set per buffer). */
function tabsAnsi(s: ScreenSnapshot, modes?: ScreenModes): string {
  return modes?.tabs !== undefined && !defaultTabs(modes.tabs, s.cols) ? tabBytes(modes.tabs, s.cols) : "";
}

/**
 * After the rows: the tab stops, scroll region and modes the pane's output goes on relying on (a
 * reset dropped them), then the cursor. Insert mode last: the cursor may print a cell again.
 */
function modesAnsi(s: ScreenSnapshot, modes: ScreenModes, widthOf?: WidthOf): string {
  let out = tabsAnsi(s, modes);
  const { scrollTop: top, scrollBottom: bottom } = modes;
  const region = top !== undefined && bottom !== undefined && (top > 0 || bottom < s.rows - 1);
  if (region) out += `${ESC}[${top + 1};${bottom + 1}r`;
  // A hidden cursor is the snapshot's to say (snapshotToAnsi), once.
  out += modeBytes({ ...modes.modes, insert: false, cursorVisible: true });
  out += cup(s, widthOf, modes.modes?.origin === true && region ? top : 0);
  return modes.modes?.insert === true ? `${out}${ESC}[4h` : out;
}

/**
 * Draws a snapshot on a reset terminal: rows with their colours (autowrap off while painting),
 * then `modes` (scroll region, modes, tab stops: what the output that follows relies on), cursor
 * last. Under a full-screen program, `normal` (the screen beneath it) is drawn first and the
 * alternate screen entered from its cursor, so the program's exit shows what tmux shows.
 */
export function snapshotToAnsi(snapshot: ScreenSnapshot, widthOf?: WidthOf, normal?: ScreenSnapshot, modes?: ScreenModes): string {
  let out = `${RESET}${ESC}[?7l`;
  // tmux keeps one set of tab stops for both screens; xterm.js one per buffer, so a player built on
  // it would give the program back default stops when it leaves: set them before entering too.
  if (snapshot.alternate) out += `${tabsAnsi(snapshot, modes)}${normal ? `${rowsAnsi(normal, widthOf)}${cup(normal, widthOf)}` : ""}${ESC}[?1049h`;
  out += `${rowsAnsi(snapshot, widthOf)}${ESC}[?7h${modes ? modesAnsi(snapshot, modes, widthOf) : cup(snapshot, widthOf)}`;
  return snapshot.cursorVisible ? out : `${out}${ESC}[?25l`;
}

/** Draws tmux's view of a pane (what a seed writes), its visible rows only: history is not replayed. */
export function stateToAnsi(state: ScreenState): string {
  const visible = (lines: string[]): string[] => lines.slice(Math.max(0, lines.length - state.rows));
  const alternate = state.alternate ? { alternate: { ...state.alternate, lines: visible(state.alternate.lines) } } : {};
  return RESET + seedBytes({ ...state, lines: visible(state.lines), ...alternate });
}
