// The text content an agent reads (structuredContent always carries everything). Pure: data in,
// string out. The grammar, which the tool descriptions explain once:
//   - panescope's own lines start with a letter: the first, when there is one, is the header
//     `cursor=TOKEN %N …`, so the cursor appears once, always first;
//   - every line that came from the pane starts with `N|` (screen row N; negative = history above
//     the screen), `|` (the row after the previous one) or `>` (raw output). Pane text can never
//     start a line (rows hold no line breaks, raw is split at them, and every other character
//     that could end a line is shown escaped), so it can neither imitate nor hide panescope's lines.
import type { Delta, PaneExit, PatchRow, ScreenInfo, ScreenPatch } from "../observe/read/delta.js";

/** How a capture_since wait went, reported next to the delta. */
export interface WaitReport {
  /** The wait used, after clamping to the cap. */
  waitMs: number;
  waitCapMs: number;
  /** "none": no wait asked (or no cursor); "change": woke on news; "timeout"; "aborted": cancelled. */
  waitEnded: "none" | "change" | "timeout" | "aborted";
  /** True when the requested waitMs was above the cap and was lowered to it. */
  waitClamped: boolean;
}

/** What the text shows: changed rows (default), the raw output, or both. */
export type View = "rows" | "raw" | "both";

/**
 * How the caller names the knobs an answer's notes point at: MCP's arguments, or a shell
 * command's flags (a shell user has no `maxLines` to pass: daemon/observer.ts names its flags).
 */
export interface Knobs {
  /** What cut rows from the answer: `cut N rows (…)`. */
  rowLimits: string;
  /** What cut output from the answer: `… not looked at (…)`. */
  byteLimit: string;
  /** What shows the changed rows a raw view leaves out. */
  rowsView: string;
  /** What makes a pattern ignore case, where there is such a knob. */
  ignoreCase?: string;
}

export const MCP_KNOBS: Knobs = { rowLimits: "maxLines/maxBytes", byteLimit: "maxBytes", rowsView: 'view "rows"', ignoreCase: "ignoreCase: true" };

export interface RenderOptions {
  /** The cursor the caller passed: an answer with nothing new and the same cursor omits it. */
  given?: string;
  wait?: WaitReport;
  view?: View;
  /** Words for the header after the pane id (wait_for's outcome), and the header always shown. */
  words?: readonly string[];
  /** panescope's lines (and fenced rows) that come first, before the delta's: an outcome. */
  lead?: readonly string[];
  /** The names of the knobs the notes point at (default: MCP's arguments). */
  knobs?: Knobs;
}

/**
 * Control characters and line separators made visible: \r, \b, \xNN, \u2028 (tab and newline
 * kept). C1 controls too: tmux keeps them in rows as characters, and a terminal may obey them.
 */
export function showControls(text: string): string {
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]/g, (c) => {
    if (c === "\r") return "\\r";
    if (c === "\b") return "\\b";
    const code = c.charCodeAt(0);
    return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, "0")}`;
  });
}

/** What showControls changes, and a line break: a row without any is fenced as it is (most rows). */
const UNSAFE_IN_ROW = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]/;

/** Rows as fenced pane lines: `N|text` starts a run of consecutive rows, `|text` continues it. */
export function fenceRows(rows: readonly PatchRow[]): string[] {
  let next: number | undefined;
  return rows.map(({ row, text }) => {
    // Rows hold no line breaks; if one ever did, it must not start a line of its own.
    const shown = UNSAFE_IN_ROW.test(text) ? showControls(text).replace(/\n/g, "\\n") : text;
    const line = `${row === next ? "" : row}|${shown}`;
    next = row + 1;
    return line;
  });
}

/** Raw text as fenced pane lines, `>text`, one per line of output (a final newline adds none). */
export function fenceRaw(raw: string): string[] {
  if (raw === "") return [];
  return raw.replace(/\n$/, "").split("\n").map((line) => `>${showControls(line)}`);
}

/** `cursor=TOKEN %N`, then what a reader needs to place rows: the header of every answer. */
export function header(cursor: string, paneId: string, screen: ScreenInfo, words: readonly string[] = []): string {
  return [`cursor=${cursor}`, paneId, ...words, `@${screen.cursorY},${screen.cursorX}`, ...(screen.alternate ? ["alt"] : [])].join(" ");
}

/** `80x24`: a size in a header means the whole screen follows (start from blank rows). */
export function size(screen: ScreenInfo): string {
  return `screen ${screen.cols}x${screen.rows}`;
}

/** `closed`, with how the program ended when tmux said. */
export function ending(exit: PaneExit | undefined): string {
  if (exit?.signal !== undefined) return `closed: killed by signal ${exit.signal}`;
  if (exit?.status !== undefined) return `closed: exit status ${exit.status}`;
  return "closed";
}

function scrollWords(patch: ScreenPatch, rows: number): string[] {
  const scroll = patch.scroll;
  if (!scroll) return [];
  const whole = scroll.from === 0 && scroll.to === rows - 1;
  return [whole ? `scrolled ${scroll.by}` : `rows ${scroll.from}-${scroll.to} scrolled ${scroll.by}`];
}

/** The patch of a delta; a delta made without one (or a first read) gets the whole screen. */
function patchOf(delta: Delta): ScreenPatch {
  if (delta.patch) return delta.patch;
  const rows = delta.rows.map((row) => ({ row: row.line - delta.screen.top, text: row.text }));
  return { full: true, rows: rows.filter((row) => row.row >= 0), cut: delta.truncated.rows };
}

/** What output the text shows nothing of did: left the screen as it was, or changed rows that view "raw" leaves out. */
function unshown(bytes: number, patch: ScreenPatch, knobs: Knobs): string {
  const rows = patch.rows.length + patch.cut;
  if (rows > 0) return `${bytes} B of output, no text: ${rows} rows changed (${knobs.rowsView} shows them)`;
  return patch.scroll ? `${bytes} B of output: no row to write after the scroll` : `${bytes} B of output left the screen as it was`;
}

export function renderDelta(delta: Delta, options: RenderOptions = {}): string {
  const view = options.view ?? "rows";
  const knobs = options.knobs ?? MCP_KNOBS;
  const wait = options.wait;
  const patch = patchOf(delta);
  const out: string[] = [...(options.lead ?? [])];
  if (delta.missed) out.push(`missed${delta.missedBytes > 0 ? ` ${delta.missedBytes} B` : ""}: ${delta.reason ?? "unknown"}`);
  if (delta.healed && delta.healed.length > 0) out.push(`healed rows ${delta.healed.map((line) => line - delta.screen.top).join(",")}: tmux draws them so`);
  const capped = delta.screen.capped;
  if (capped) out.push(`screen capped: the pane is ${capped.cols}x${capped.rows}, panescope shows its first ${delta.screen.cols}x${delta.screen.rows} (rows and columns beyond are not shown)`);
  if (wait?.waitClamped) out.push(`wait capped at ${wait.waitCapMs} ms`);
  // A client that cancels never sees the answer (the SDK drops it): this one was cut by the stop.
  if (wait?.waitEnded === "aborted") out.push("wait cut short: the server is stopping");
  const pane: string[] = [];
  if (view !== "raw") {
    if (patch.cut > 0) out.push(`cut ${patch.cut} rows (${knobs.rowLimits})`);
    if (patch.scrolledPast) out.push(`cut ${patch.scrolledPast} rows: they scrolled past the history before this read (the raw output has them)`);
    pane.push(...fenceRows(patch.rows));
  }
  if (view === "rows") {
    const unseen = delta.patch?.offscreen;
    // Frames are counted in the raw the answer kept: what maxBytes cut before it is said too.
    const cut = delta.truncated.rawChars > 0 ? `${delta.truncated.rawChars} earlier chars of output not looked at (${knobs.byteLimit})` : "";
    if (unseen && unseen.frames > 0) pane.push(`raw not on screen: ${unseen.frames} frames, ${unseen.bytes} B${cut === "" ? "" : `; ${cut}`}`);
    else if (cut !== "") pane.push(cut);
  } else if (delta.raw !== "" || delta.truncated.rawChars > 0) {
    pane.push(`raw${delta.truncated.rawChars > 0 ? `, first ${delta.truncated.rawChars} chars cut` : ""}:`, ...fenceRaw(delta.raw));
  }
  out.push(...pane);
  // Output came and the text shows none of it: said, never "no change" (the reader would think nothing ran).
  if (pane.length === 0 && delta.rawBytes > 0 && (view === "raw" || patch.cut === 0)) out.push(unshown(delta.rawBytes, patch, knobs));
  if (delta.closed) out.push(ending(delta.exit));
  // A whole screen with no row listed is a blank screen, which is news to a first read.
  if (out.length === 0) out.push(patch.full && view !== "raw" ? "the screen is blank" : wait?.waitEnded === "timeout" ? `no change in ${wait.waitMs} ms` : "no change");
  // The same cursor back with nothing to place: the caller's cursor still reads exactly the same.
  if (delta.cursor === options.given && pane.length === 0 && !patch.full && !patch.scroll && !options.words) return out.join("\n");
  const words = [...(options.words ?? []), ...(patch.full ? [size(delta.screen)] : []), ...scrollWords(patch, delta.screen.rows), ...(delta.streaming ? [] : ["polled"])];
  return [header(delta.cursor, delta.paneId, delta.screen, words), ...out].join("\n");
}
