// What panescope asks tmux about a pane when it starts watching it, and how it reads the answers.
// Pure: argv lists out, reply lines in. The recipe runs as ONE command line so tmux executes it
// atomically: nothing the pane prints falls between the capture and the resumed stream.
import { PanescopeError } from "../errors.js";
import type { PaneState } from "../observe/seed.js";
import { TmuxFormat } from "../tmux/format.js";

/** Numbers and ids only, so no tmux version is needed to read it; one nonce per process. */
export const PROBE = new TmuxFormat({
  paneId: "pane_id",
  panePid: "pane_pid",
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
  serverPid: "pid",
  serverStart: "start_time",
  sessionId: "session_id",
});

const LIVENESS = new TmuxFormat({ paneId: "pane_id", panePid: "pane_pid", dead: "pane_dead" });

export interface PaneProbe {
  paneId: string;
  panePid: number;
  sessionId: string;
  serverPid: number;
  serverStart: number;
  dead: boolean;
  state: PaneState;
}

/**
 * pause → saved normal screen (-a -q: empty, not an error, when there is none; an error would stop
 * the rest of the line and leave the pane paused) → history + screen → state → continue.
 * Output that arrives before the `%continue` notification is inside the capture (tmux 3.3a).
 */
export function seedCommands(paneId: string): string[][] {
  return [
    ["refresh-client", "-A", `${paneId}:pause`],
    ["capture-pane", "-a", "-q", "-p", "-e", "-N", "-t", paneId],
    ["capture-pane", "-p", "-e", "-N", "-S", "-", "-E", "-", "-t", paneId],
    ["display-message", "-p", "-t", paneId, PROBE.text],
    ["refresh-client", "-A", `${paneId}:continue`],
  ];
}

/** The same state without the pause (for polling when control mode is unavailable). */
export function probeCommands(paneId: string): string[][] {
  return seedCommands(paneId).slice(1, 4);
}

function integer(value: string | undefined, field: string): number {
  const n = Number(value);
  if (value === undefined || value === "" || !Number.isInteger(n)) {
    throw new PanescopeError("protocol", `tmux reported ${field}=${JSON.stringify(value)}, not a number`);
  }
  return n;
}

/** Reads the replies of probeCommands (saved screen, capture, display). */
export function parseProbe([saved, capture, display]: string[][]): PaneProbe {
  const f = PROBE.parseOne(display ?? []);
  if (f === undefined) throw new PanescopeError("protocol", "tmux printed no pane state for the probe: is the pane gone?");
  const cols = integer(f.cols, "pane_width");
  const rows = integer(f.rows, "pane_height");
  const history = integer(f.history, "history_size");
  const lines = capture ?? [];
  const alternate = f.alternate === "1";
  const state: PaneState = {
    cols,
    rows,
    lines: alternate ? [...lines.slice(0, history), ...(saved ?? []).slice(0, rows)] : lines,
    cursorX: integer(f.cursorX, "cursor_x"),
    cursorY: integer(f.cursorY, "cursor_y"),
    scrollTop: integer(f.scrollTop, "scroll_region_upper"),
    scrollBottom: integer(f.scrollBottom, "scroll_region_lower"),
  };
  if (alternate) {
    state.alternate = {
      lines: lines.slice(history),
      savedX: integer(f.savedX, "alternate_saved_x"),
      savedY: integer(f.savedY, "alternate_saved_y"),
    };
  }
  return {
    paneId: f.paneId,
    panePid: integer(f.panePid, "pane_pid"),
    sessionId: f.sessionId,
    serverPid: integer(f.serverPid, "pid"),
    serverStart: integer(f.serverStart, "start_time"),
    dead: f.dead === "1",
    state,
  };
}

/** Whether a pane still exists, its process, and whether that process exited: one short reply. */
export function livenessCommand(paneId: string): string[] {
  return ["display-message", "-p", "-t", paneId, LIVENESS.text];
}

export interface Liveness {
  /** False when tmux answered for another pane: `display-message -t %99` in tmux 3.3a falls back. */
  exists: boolean;
  panePid: number;
  dead: boolean;
}

export function parseLiveness(paneId: string, lines: string[]): Liveness {
  const f = LIVENESS.parseOne(lines);
  return { exists: f?.paneId === paneId, panePid: Number(f?.panePid), dead: f?.dead === "1" };
}
