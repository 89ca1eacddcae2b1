// Seed: what panescope asks tmux about a pane when it starts watching it, and how it reads the
// answers. Pure (argv lists out, reply lines in) but for one seam: the end of a pane panescope
// opened is read from its process (watch/opened-pane.ts). The recipe runs as ONE command line so
// tmux executes it atomically: nothing the pane prints falls between the capture and the resumed
// stream.
import { PanescopeError } from "../../errors.js";
import type { PaneExit } from "../../observe/read/delta.js";
import type { PaneModes, ScreenState } from "../../observe/emulator/seed.js";
import { TmuxFormat } from "../../tmux/format.js";
import { parseExit } from "../../tmux/exit.js";
import { STATUS_OPTION } from "../../tmux/server.js";
import { MAX_EMULATED_ROWS } from "../../observe/emulator/geometry.js";
import { openedPane } from "../opened-pane.js";

/** Numbers and ids only, so no tmux version is needed to read it; one nonce per process. */
export const PROBE = new TmuxFormat({
  paneId: "pane_id",
  panePid: "pane_pid",
  paneTty: "pane_tty",
  cols: "pane_width",
  rows: "pane_height",
  cursorX: "cursor_x",
  cursorY: "cursor_y",
  alternate: "alternate_on",
  savedX: "alternate_saved_x",
  savedY: "alternate_saved_y",
  scrollTop: "scroll_region_upper",
  scrollBottom: "scroll_region_lower",
  history: "history_size",
  dead: "pane_dead",
  deadStatus: "pane_dead_status",
  deadSignal: "pane_dead_signal",
  heldStatus: STATUS_OPTION,
  windowId: "window_id",
  serverPid: "pid",
  serverStart: "start_time",
  serverSocket: "socket_path",
  sessionId: "session_id",
  origin: "origin_flag",
  wrap: "wrap_flag",
  insert: "insert_flag",
  cursorKeys: "keypad_cursor_flag",
  keypad: "keypad_flag",
  cursorVisible: "cursor_flag",
  mouseStandard: "mouse_standard_flag",
  mouseButton: "mouse_button_flag",
  // mouse_any_flag is "any mouse mode on"; 1003 (all motion) is mouse_all_flag.
  mouseAny: "mouse_all_flag",
  mouseSgr: "mouse_sgr_flag",
  mouseUtf8: "mouse_utf8_flag",
  tabs: "pane_tabs",
  // Newer formats (empty on versions without them): 3.7+ and 3.6+.
  bracketedPaste: "bracket_paste_flag",
  cursorShape: "cursor_shape",
  cursorBlinking: "cursor_blinking",
});

const LAST_ROW = String(MAX_EMULATED_ROWS - 1);

export interface PaneProbe {
  paneId: string;
  panePid: number;
  /** #{pane_tty}: the pane's pty, e.g. /dev/pts/3 (confirm/pane-process.ts). */
  paneTty: string;
  sessionId: string;
  windowId: string;
  /** Lines in tmux's history (#{history_size}), of which the capture holds at most what was asked. */
  historySize: number;
  /** How the program ended, for a dead pane when tmux recorded it. */
  exit?: PaneExit;
  serverPid: number;
  serverStart: number;
  serverSocket: string;
  dead: boolean;
  state: ScreenState;
}

/**
 * pause → saved normal screen (-a -q: empty, not an error, when there is none; an error would stop
 * the rest of the line and leave the pane paused) → history + screen → state → continue.
 * Output that arrives before the `%continue` notification is inside the capture (tmux 3.3a).
 * `history`: lines of scrollback to take, no more than the replica keeps (a pane with 200k lines
 * of history took 3.3 s to seed whole and held every other call meanwhile).
 */
export function seedCommands(paneId: string, history: number): string[][] {
  return [
    ["refresh-client", "-A", `${paneId}:pause`],
    ...probeCommands(paneId, history),
    ["refresh-client", "-A", `${paneId}:continue`],
  ];
}

/** The same state without the pause (the audit at rest; polling when control mode is unavailable). */
export function probeCommands(paneId: string, history: number): string[][] {
  const start = history > 0 ? `-${Math.floor(history)}` : "0";
  return [
    // Down to the emulator's last row at most: a pane resized to 10000 rows is not captured whole.
    ["capture-pane", "-a", "-q", "-p", "-e", "-N", "-E", LAST_ROW, "-t", paneId],
    ["capture-pane", "-p", "-e", "-N", "-S", start, "-E", LAST_ROW, "-t", paneId],
    ["display-message", "-p", "-t", paneId, PROBE.text],
  ];
}

function integer(value: string | undefined, field: string): number {
  const n = Number(value);
  if (value === undefined || value === "" || !Number.isInteger(n)) {
    throw new PanescopeError("protocol", `tmux reported ${field}=${JSON.stringify(value)}, not a number`);
  }
  return n;
}

/** #{pane_tabs}: stop columns, comma-separated; empty when the program cleared every stop. */
function tabStops(value: string): number[] {
  if (value === "") return [];
  const stops = value.split(",").map(Number);
  if (!stops.every((n) => Number.isInteger(n) && n >= 0)) throw new PanescopeError("protocol", `tmux reported pane_tabs=${JSON.stringify(value)}, not columns`);
  return stops;
}

/** #{cursor_shape} and #{cursor_blinking} (tmux 3.6+): nothing for the default or an older tmux. */
function cursorStyle(shape: string, blinking: string): Pick<PaneModes, "cursorStyle"> {
  if (shape !== "block" && shape !== "underline" && shape !== "bar") return {};
  return { cursorStyle: { shape, blinking: blinking === "1" } };
}

/** How a pane panescope opened ended, from its process (watch/opened-pane.ts); undefined while it runs. */
export type HeldEnd = (panePid: number) => number | undefined;
export const heldEnd: HeldEnd = (panePid) => openedPane(panePid)?.ended;

/**
 * Reads the replies of probeCommands (saved screen, capture, display). STATUS_OPTION is only a
 * hint (any program can set it, at any scope): `held` looks at the pane's process when it is set.
 */
export function parseProbe([saved, capture, display]: string[][], held: HeldEnd = heldEnd): PaneProbe {
  const f = PROBE.parseOne(display ?? []);
  if (f === undefined) throw new PanescopeError("protocol", "tmux printed no pane state for the probe: is the pane gone?");
  const cols = integer(f.cols, "pane_width");
  const rows = integer(f.rows, "pane_height");
  const lines = capture ?? [];
  // The capture is the history lines asked for (at most history_size) then the screen's rows (as
  // many as the emulator has: geometry.ts).
  const captured = Math.min(rows, MAX_EMULATED_ROWS);
  const history = Math.min(integer(f.history, "history_size"), Math.max(0, lines.length - captured));
  const alternate = f.alternate === "1";
  const state: ScreenState = {
    cols,
    rows,
    lines: alternate ? [...lines.slice(0, history), ...(saved ?? []).slice(0, captured)] : lines,
    cursorX: integer(f.cursorX, "cursor_x"),
    cursorY: integer(f.cursorY, "cursor_y"),
    scrollTop: integer(f.scrollTop, "scroll_region_upper"),
    scrollBottom: integer(f.scrollBottom, "scroll_region_lower"),
    modes: {
      origin: f.origin === "1",
      wrap: f.wrap !== "0",
      insert: f.insert === "1",
      cursorKeys: f.cursorKeys === "1",
      keypad: f.keypad === "1",
      cursorVisible: f.cursorVisible !== "0",
      mouse: { standard: f.mouseStandard === "1", button: f.mouseButton === "1", any: f.mouseAny === "1", sgr: f.mouseSgr === "1", utf8: f.mouseUtf8 === "1" },
      bracketedPaste: f.bracketedPaste === "1",
      ...cursorStyle(f.cursorShape, f.cursorBlinking),
    },
    tabs: tabStops(f.tabs),
  };
  if (alternate) {
    state.alternate = {
      lines: lines.slice(history),
      savedX: integer(f.savedX, "alternate_saved_x"),
      savedY: integer(f.savedY, "alternate_saved_y"),
    };
  }
  // A pane panescope opened is held open after its program ends, the status in its process's argv.
  const panePid = integer(f.panePid, "pane_pid");
  const heldStatus = f.heldStatus === "" ? undefined : held(panePid);
  const ended = heldStatus !== undefined;
  const exit: PaneExit | undefined = ended ? { status: heldStatus } : parseExit(f.deadStatus, f.deadSignal);
  return {
    paneId: f.paneId,
    panePid,
    paneTty: f.paneTty,
    sessionId: f.sessionId,
    windowId: f.windowId,
    historySize: integer(f.history, "history_size"),
    ...((f.dead === "1" || ended) && exit ? { exit } : {}),
    serverPid: integer(f.serverPid, "pid"),
    serverStart: integer(f.serverStart, "start_time"),
    serverSocket: f.serverSocket,
    dead: f.dead === "1" || ended,
    state,
  };
}
