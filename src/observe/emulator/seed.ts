// Builds the bytes that put an empty emulator into the state tmux reports for a pane
// (capture-pane -e -N lines, cursor, scroll region, alternate screen). Pure: data in, string out.
import { emulatedSize } from "./geometry.js";

/** A pane's screen as tmux reports it: what a seed puts into an empty emulator. */
export interface ScreenState {
  cols: number;
  rows: number;
  /** History and visible lines of the normal screen, oldest first (capture-pane -e -N -S - -E -). */
  lines: string[];
  cursorX: number;
  cursorY: number;
  /** Scroll region rows (0-based, inclusive), when the program set one. */
  scrollTop?: number;
  scrollBottom?: number;
  /** Terminal modes tmux reports for the pane (#{origin_flag}, #{wrap_flag}, …); absent = defaults. */
  modes?: PaneModes;
  /**
   * Tab stops (#{pane_tabs}: columns, ascending; empty when the program cleared them all); absent =
   * every 8 columns. tmux keeps one set for both screens and resets it when the width changes.
   */
  tabs?: number[];
  /** Present when the pane shows the alternate screen: `lines` is then the saved normal screen. */
  alternate?: {
    lines: string[];
    /** Cursor of the saved normal screen (#{alternate_saved_x}, #{alternate_saved_y}). */
    savedX: number;
    savedY: number;
  };
}

/**
 * What a terminal reset (RIS) loses that output after it goes on relying on: the scroll region, the
 * modes and the tab stops. A recording that starts by drawing the screen on a reset terminal writes
 * these after it (evidence/ansi.ts).
 */
export type ScreenModes = Pick<ScreenState, "scrollTop" | "scrollBottom" | "modes" | "tabs">;

/**
 * The modes a seed can recover, because tmux exposes them as formats. What it cannot recover (tmux
 * has no format for them): G0/G1 character sets, the saved cursor (DECSC), focus reporting, the pen
 * (current colours). The replica audit heals what those make the screen show differently.
 */
export interface PaneModes {
  /** DECOM: cursor addressing relative to the scroll region. */
  origin?: boolean;
  /** DECAWM: false when autowrap was turned off. */
  wrap?: boolean;
  /** IRM: insert instead of overwrite. */
  insert?: boolean;
  /** DECCKM: application cursor keys. */
  cursorKeys?: boolean;
  /** DECKPAM: application keypad. */
  keypad?: boolean;
  /** DECTCEM: false when the program hid the cursor. */
  cursorVisible?: boolean;
  /** Mouse reporting: 1000 standard, 1002 button, 1003 any; SGR (1006) and UTF-8 (1005) encodings. */
  mouse?: { standard?: boolean; button?: boolean; any?: boolean; sgr?: boolean; utf8?: boolean };
  /** Bracketed paste (2004): #{bracket_paste_flag}, tmux 3.7+. */
  bracketedPaste?: boolean;
  /** DECSCUSR cursor style (tmux 3.6+: #{cursor_shape}, #{cursor_blinking}); absent = the default. */
  cursorStyle?: { shape: "block" | "underline" | "bar"; blinking: boolean };
}

const ESC = "\x1b";

function cup(x: number, y: number): string {
  return `${ESC}[${y + 1};${x + 1}H`;
}

/**
 * Lines written one per row; the last without a newline so nothing scrolls past it. capture-pane -e
 * carries the pen from one line to the next (htop's selected row starts with only ESC[46m after a
 * black-on-green header, 3.3a): around each newline the pen is saved (DECSC) and reset, so a scroll
 * fills no line with a colour, then restored (DECRC: back on the row the newline left, so \r and
 * cursor-down reach the next row, at the bottom too).
 */
function paint(lines: string[]): string {
  return `${lines.join(`${ESC}7${ESC}[0m\r\n${ESC}8\r${ESC}[B`)}${ESC}[0m`;
}

/** The visible part of a capture whose last `rows` lines are the screen (blank padding trimmed by tmux is restored). */
function fitScreen(lines: string[], rows: number): string[] {
  const fitted = lines.slice();
  while (fitted.length < rows) fitted.push("");
  return fitted;
}

/** Whether `tabs` are tmux's default stops for `cols` columns (every 8, from 8). */
export function defaultTabs(tabs: readonly number[], cols: number): boolean {
  const expected = Math.max(0, Math.ceil((cols - 8) / 8));
  return tabs.length === expected && tabs.every((column, i) => column === (i + 1) * 8);
}

/** Clears every stop and sets the given ones (in the active buffer: xterm keeps one set per buffer). */
export function tabBytes(tabs: readonly number[], cols: number): string {
  let out = `${ESC}[3g`;
  for (const column of tabs) if (column > 0 && column < cols) out += `${ESC}[${column + 1}G${ESC}H`;
  return `${out}${ESC}[1G`;
}

export function seedBytes(state: ScreenState): string {
  // Written to a fresh emulator: history lines scroll into its scrollback, the last `rows` stay on
  // screen. Autowrap is off while painting: a captured line can be wider than the pane (tmux 3.7c
  // after CSI P deleted half of a wide character: "中文中文" and blanks, 41 columns in 40), and a
  // wrap would push every later row down. A pane beyond the emulator's cap (geometry.ts) was
  // captured down to the cap's last row only. Tab stops first: tmux 3.6+ captures a tab as "\t", which
  // the emulator then expands to the pane's stops.
  const { cols, rows } = emulatedSize(state);
  const tabs = state.tabs !== undefined && !defaultTabs(state.tabs, cols) ? tabBytes(state.tabs, cols) : "";
  // capture-pane -e marks line-drawing cells (ESC ( 0) with SO … SI, for a terminal whose G1 is
  // DEC graphics: make it so while painting, then back to ASCII (the pane's own charsets are not known).
  let out = `${ESC}[?7l${ESC})0${tabs}`;
  out += paint(fitScreen(state.lines, rows));
  const visible = fitScreen(state.alternate ? state.alternate.lines : state.lines, rows).slice(-rows);
  if (state.alternate) {
    // Entered with 1047 (no cursor saved: tmux reports UINT_MAX), leaving with 1049 keeps the cursor.
    const { savedX, savedY } = state.alternate;
    const saved = savedX <= cols && savedY < rows;
    out += saved ? `${cup(savedX, savedY)}${ESC}[?1049h` : `${ESC}[?1047h`;
    out += `${tabs}${ESC}[H`;
    out += paint(visible);
  }
  out += `\x0f${ESC})B${ESC}[?7h`;
  let regionTop = 0;
  if (state.scrollTop !== undefined && state.scrollBottom !== undefined) {
    const full = state.scrollTop === 0 && state.scrollBottom === state.rows - 1;
    if (!full) {
      out += `${ESC}[${state.scrollTop + 1};${state.scrollBottom + 1}r`;
      regionTop = state.scrollTop;
    }
  }
  const modes = state.modes ?? {};
  out += modeBytes(modes);
  // Last, the cursor: with origin mode on, its row is counted from the scroll region's top.
  const row = modes.origin === true ? state.cursorY - regionTop : state.cursorY;
  if (state.cursorX >= state.cols && modes.wrap !== false) {
    // Just after the last column (tmux reports cursor_x = width): the next character wraps. Only
    // printing gets there: paint the cursor's row again, autowrap off, ending past its last cell.
    // Insert mode cannot shift it (the whole row is written from its first column).
    out += `${cup(0, row)}${ESC}[?7l${paint([visible[state.cursorY] ?? ""])}${ESC}[?7h`;
  } else {
    out += cup(state.cursorX, row);
  }
  return out;
}

/** Mode sequences after the screen is painted (painting needs the defaults: wrap on, insert off). */
export function modeBytes(modes: PaneModes): string {
  let out = "";
  if (modes.wrap === false) out += `${ESC}[?7l`;
  if (modes.insert === true) out += `${ESC}[4h`;
  if (modes.cursorKeys === true) out += `${ESC}[?1h`;
  if (modes.keypad === true) out += `${ESC}=`;
  if (modes.cursorVisible === false) out += `${ESC}[?25l`;
  const mouse = modes.mouse ?? {};
  if (mouse.standard === true) out += `${ESC}[?1000h`;
  if (mouse.button === true) out += `${ESC}[?1002h`;
  if (mouse.any === true) out += `${ESC}[?1003h`;
  if (mouse.utf8 === true) out += `${ESC}[?1005h`;
  if (mouse.sgr === true) out += `${ESC}[?1006h`;
  if (modes.bracketedPaste === true) out += `${ESC}[?2004h`;
  if (modes.cursorStyle) {
    const { shape, blinking } = modes.cursorStyle;
    out += `${ESC}[${{ block: 1, underline: 3, bar: 5 }[shape] + (blinking ? 0 : 1)} q`;
  }
  if (modes.origin === true) out += `${ESC}[?6h`;
  return out;
}
