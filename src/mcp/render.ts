// Compact text renderings of results, for the `text` content an agent reads (structuredContent
// always carries everything). Pure: data in, string out.
import type { Delta, Row, ScreenInfo } from "../observe/delta.js";
import { UNTRUSTED_NOTE } from "./context.js";

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

/** `80x24 · cursor row 3 col 10 · alternate screen` */
export function describeScreen(screen: ScreenInfo): string {
  const parts = [`${screen.cols}x${screen.rows}`, `cursor row ${screen.cursorY} col ${screen.cursorX}`];
  if (screen.alternate) parts.push("alternate screen (full-screen program)");
  return parts.join(" · ");
}

export function deltaHeader(delta: Delta, wait?: WaitReport): string {
  const parts = [`pane ${delta.paneId}`, describeScreen(delta.screen)];
  if (delta.first) parts.push("first read: whole screen");
  if (delta.healed) parts.push(`healed rows ${delta.healed.map((line) => line - delta.screen.top).join(",")} from tmux's screen`);
  if (delta.missed) parts.push(`MISSED ${delta.missedBytes} bytes (${delta.reason ?? "unknown"})`);
  if (delta.closed) {
    const exit = delta.exit;
    const how = exit ? [exit.status !== undefined && `exit ${exit.status}`, exit.signal !== undefined && `signal ${exit.signal}`].filter(Boolean).join(", ") : "";
    parts.push(how === "" ? "CLOSED" : `CLOSED (${how})`);
  }
  if (!delta.streaming) parts.push("not streaming (polled)");
  const { rows, rawChars } = delta.truncated;
  if (rows > 0 || rawChars > 0) parts.push(`truncated ${rows} rows, ${rawChars} raw chars`);
  if (wait && wait.waitEnded !== "none") {
    parts.push(`waited up to ${wait.waitMs} ms${wait.waitClamped ? ` (capped at ${wait.waitCapMs})` : ""}: ${wait.waitEnded}`);
  }
  return parts.join(" · ");
}

/** Rows as `screenRow│text`, the number right-aligned; negative rows have scrolled into history. */
export function renderRows(rows: readonly Row[], top: number): string[] {
  const labels = rows.map((row) => String(row.line - top));
  const width = Math.max(0, ...labels.map((label) => label.length));
  return rows.map((row, i) => `${(labels[i] ?? "").padStart(width)}│${row.text}`);
}

/** Control characters made visible: \r, \b, \xNN (tab and newline kept). */
export function showControls(text: string): string {
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => {
    if (c === "\r") return "\\r";
    if (c === "\b") return "\\b";
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
  });
}

/**
 * Why the raw text adds something the rows do not show, or undefined if it does not:
 * frames overwritten in place (\r or backspace within a line), or lines not among the rows
 * (scrolled out of history, cut by limits, overwritten later). Full-screen programs: never.
 */
export function rawAdds(delta: Pick<Delta, "raw" | "rows" | "screen">): string | undefined {
  if (delta.raw === "" || delta.screen.alternate) return undefined;
  const lines = delta.raw.split("\n").map((line) => line.replace(/\r+$/, ""));
  if (lines.some((line) => /[\r\b]/.test(line))) return "frames overwritten in place";
  const squash = (s: string): string => s.replace(/\s+/g, "");
  const shown = squash(delta.rows.map((row) => row.text).join(""));
  if (lines.some((line) => squash(line) !== "" && !shown.includes(squash(line)))) return "lines the rows no longer show";
  return undefined;
}

export function renderDelta(delta: Delta, wait?: WaitReport): string {
  const out = [deltaHeader(delta, wait)];
  if (delta.rows.length === 0 && delta.raw === "") {
    out.push("no change since the cursor");
  } else {
    out.push(`(${UNTRUSTED_NOTE})`);
  }
  if (delta.rows.length > 0) {
    out.push(`changed rows (screen row│text; negative = scrolled into history):`);
    out.push(...renderRows(delta.rows, delta.screen.top));
  }
  const why = rawAdds(delta);
  if (why !== undefined) {
    const body = delta.raw.replace(/\r\n/g, "\n").replace(/\n$/, "");
    out.push(`raw output since the cursor (${delta.rawBytes} bytes; ${why}; \\r = carriage return):`);
    out.push(showControls(body));
  } else if (delta.raw !== "") {
    const what = delta.screen.alternate ? "of full-screen drawing: the rows are the screen" : "nothing the rows do not show";
    out.push(`raw: ${delta.rawBytes} bytes, ${what} (full text in structuredContent.raw)`);
  }
  out.push(`cursor: ${delta.cursor}`);
  return out.join("\n");
}
