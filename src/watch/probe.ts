// What panescope asks tmux about a pane when it starts watching it, and how it reads the answers.
// Pure: argv lists out, reply lines in. The recipe runs as ONE command line so tmux executes it
// atomically: nothing the pane prints falls between the capture and the resumed stream.
import { PanescopeError } from "../errors.js";
import type { PaneState } from "../observe/seed.js";

const FIELDS = [
  "pane_id",
  "pane_pid",
  "pane_width",
  "pane_height",
  "cursor_x",
  "cursor_y",
  "alternate_on",
  "alternate_saved_x",
  "alternate_saved_y",
  "scroll_region_upper",
  "scroll_region_lower",
  "history_size",
  "pane_dead",
  "pid",
  "start_time",
  "session_id",
] as const;

export const PROBE_FORMAT = FIELDS.map((field) => `#{${field}}`).join(" ");

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
    ["display-message", "-p", "-t", paneId, PROBE_FORMAT],
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
  const values = (display?.[0] ?? "").split(" ");
  const field = (name: (typeof FIELDS)[number]): string | undefined => values[FIELDS.indexOf(name)];
  const cols = integer(field("pane_width"), "pane_width");
  const rows = integer(field("pane_height"), "pane_height");
  const history = integer(field("history_size"), "history_size");
  const lines = capture ?? [];
  const alternate = field("alternate_on") === "1";
  const state: PaneState = {
    cols,
    rows,
    lines: alternate ? [...lines.slice(0, history), ...(saved ?? []).slice(0, rows)] : lines,
    cursorX: integer(field("cursor_x"), "cursor_x"),
    cursorY: integer(field("cursor_y"), "cursor_y"),
    scrollTop: integer(field("scroll_region_upper"), "scroll_region_upper"),
    scrollBottom: integer(field("scroll_region_lower"), "scroll_region_lower"),
  };
  if (alternate) {
    state.alternate = {
      lines: lines.slice(history),
      savedX: integer(field("alternate_saved_x"), "alternate_saved_x"),
      savedY: integer(field("alternate_saved_y"), "alternate_saved_y"),
    };
  }
  return {
    paneId: field("pane_id") ?? "",
    panePid: integer(field("pane_pid"), "pane_pid"),
    sessionId: field("session_id") ?? "",
    serverPid: integer(field("pid"), "pid"),
    serverStart: integer(field("start_time"), "start_time"),
    dead: field("pane_dead") === "1",
    state,
  };
}

/** Whether a pane still exists, its process, and whether that process exited: one short reply. */
export function livenessCommand(paneId: string): string[] {
  return ["display-message", "-p", "-t", paneId, "#{pane_id} #{pane_pid} #{pane_dead}"];
}

export interface Liveness {
  /** False when tmux answered for another pane: `display-message -t %99` in tmux 3.3a falls back. */
  exists: boolean;
  panePid: number;
  dead: boolean;
}

export function parseLiveness(paneId: string, [line]: string[]): Liveness {
  const [id, pid, dead] = (line ?? "").split(" ");
  return { exists: id === paneId, panePid: Number(pid), dead: dead === "1" };
}
