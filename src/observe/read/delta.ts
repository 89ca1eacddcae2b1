// The shape of one read: what a pane printed since a cursor, as raw text and as changed rows.
// This is the capture_since contract of docs/contract.md, independent of MCP.

/** A rendered line. `line` is absolute: it follows the line as it scrolls into history. */
export interface Row {
  line: number;
  text: string;
}

export interface ScreenInfo {
  cols: number;
  rows: number;
  /** Absolute line number of screen row 0; `line - top` is the screen row (negative = history). */
  top: number;
  cursorX: number;
  cursorY: number;
  alternate: boolean;
  /** The pane's real size when it is larger than panescope emulates (geometry.ts): rows and columns beyond cols × rows are not shown. */
  capped?: { cols: number; rows: number };
}

/** Why output between the cursor and now is not (all) in this answer. */
export type MissedReason =
  | "overflow" // retention bound evicted bytes/lines the reader had not seen
  | "paused" // tmux paused the pane (reader fell behind) and dropped output; screen re-seeded
  | "restarted" // the cursor came from an earlier panescope process
  | "server-restarted" // the tmux server restarted since the cursor
  | "respawned" // the pane's process was replaced (respawn-pane)
  | "evicted" // panescope stopped watching the pane (idle or over the cap) and started again
  | "moved" // the pane left the session panescope watched it through (or that view was detached or switched): followed, re-taken
  | "not-streaming" // control mode unavailable: answer built from capture-pane polling
  | "forgotten"; // the shared daemon no longer holds a named reader's kept cursor (let go over its bound, or its saved file could not be read back): from the screen

/** A program's end as tmux reports it (#{pane_dead_status}, #{pane_dead_signal}). */
export interface PaneExit {
  status?: number;
  /** Signal name or number when it was killed by one. */
  signal?: string;
}

export interface Truncation {
  /**
   * Changed rows left out (the oldest/topmost ones): cut by maxLines/maxBytes, or gone from the
   * emulator's history before this read (a flood scrolled them past it; `raw` still has them).
   */
  rows: number;
  /** Characters of `raw` left out by maxBytes (dropped from the start, the newest text is kept). */
  rawChars: number;
}

export interface Delta {
  paneId: string;
  cursor: string;
  /** True when this answer starts a watch (no cursor given, or the cursor could not be continued). */
  first: boolean;
  /**
   * Lines (absolute numbers) whose text panescope took from tmux since the cursor because its
   * emulator had drawn them differently; their new text is among `rows`. Absent when none.
   */
  healed?: number[];
  rows: Row[];
  screen: ScreenInfo;
  raw: string;
  /** Size in bytes of the output stream covered by `raw`, before escapes were removed. */
  rawBytes: number;
  missed: boolean;
  missedBytes: number;
  reason?: MissedReason;
  closed: boolean;
  /** How the pane's program ended, when it has and tmux knew (a pane that keeps its screen). */
  exit?: PaneExit;
  /** False when answers come from capture-pane polling instead of the control-mode stream. */
  streaming: boolean;
  truncated: Truncation;
  /**
   * For a reader that keeps the screen from the previous answer's text: how to turn it into the
   * screen now (scroll, then rows by screen row). Rendered as the text content; not part of
   * structuredContent, whose `rows` already say the same by absolute line number.
   */
  patch?: ScreenPatch;
}

// The text view of a read (screen-patch.ts computes it): see Delta.patch.

/** Rows `from`..`to` (inclusive) move up by `by` (down when negative); blank rows enter. */
export interface Scroll {
  from: number;
  to: number;
  by: number;
}

/** A row to write: `row` is a screen row; negative rows are history above the screen, to read only. */
export interface PatchRow {
  row: number;
  text: string;
}

export interface ScreenPatch {
  /** Start from a blank screen (a first read, a resize, or a reader's screen no longer kept). */
  full: boolean;
  /** Applied to the reader's screen before the rows. */
  scroll?: Scroll;
  /** History rows (negative), then screen rows, top to bottom. */
  rows: PatchRow[];
  /** Rows left out by maxLines/maxBytes (the topmost): the reader's screen is then incomplete. */
  cut: number;
  /** History rows not listed because they scrolled past panescope's history before this read (raw has them). */
  scrolledPast?: number;
  /** Raw output the screen and history rows no longer show: frames overwritten, lines gone. */
  offscreen?: Offscreen;
}

export interface Offscreen {
  frames: number;
  /** UTF-8 bytes of those frames' text. */
  bytes: number;
}

export interface ReadLimits {
  maxLines?: number;
  maxBytes?: number;
  /** Which of rows and raw the maxBytes budget serves first (the reader's view; default rows). */
  prefer?: "rows" | "raw" | "both";
}

/**
 * Nothing new to tell: no row, no raw, no break, not closed, and nothing that limits cut (a wait
 * with maxLines: 0 must still wake on a row change, which shows only as truncated rows).
 */
export function isEmpty(delta: Delta): boolean {
  const cut = delta.truncated.rows > 0 || delta.truncated.rawChars > 0;
  return delta.rows.length === 0 && delta.raw === "" && !delta.missed && !delta.closed && !cut;
}
