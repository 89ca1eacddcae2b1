// The outcome lines of a wait's text (wait_for, send_keys with a wait), placed before the delta:
// a match and the rows it touches, or on timeout the screen as displayed. Pure. The rows are those
// of the moment the delta was read (wait.ts), so a reader applying the answer's rows ends right.
import type { Row } from "../observe/read/delta.js";
import { fenceRaw, fenceRows, MCP_KNOBS, type Knobs } from "./render.js";
import type { Readiness } from "../watch/ready.js";
import type { Condition, Decided } from "./wait.js";

/** On timeout, the screen's non-blank rows as displayed (by absolute line), else undefined. */
export function screenRowsOf(decided: Decided): Row[] | undefined {
  return decided.outcome === "timeout" ? decided.outcomeRows : undefined;
}

/**
 * A screen match on rows that have not changed since the answer's start (the caller's cursor, or
 * the call's): the text was already there. Said, since the agent may have waited for new output.
 */
function alreadyShown(rows: readonly Row[], delta: Decided["delta"]): boolean {
  if (delta.first || delta.missed || delta.truncated.rows > 0) return false;
  const changed = new Set(delta.rows.map((row) => row.line));
  return rows.length > 0 && !rows.some((row) => changed.has(row.line));
}

/** A pattern written as a JavaScript regex literal: its slashes and flags are matched as text. */
const REGEX_LITERAL = /^\/.+\/[dgimsuvy]*$/;

/** What did not happen in time, as the condition asked it. */
function notInTime(condition: Pick<Condition, "quietMs" | "closed" | "ready">, within: string): string {
  if (condition.quietMs !== undefined) return `the pane was never quiet for ${condition.quietMs} ms ${within}`;
  if (condition.closed) return `the pane did not close ${within}`;
  if (condition.ready) return `the program did not turn ready ${within}`;
  return `nothing matched ${within}`;
}

export function outcomeLines(decided: Decided, condition: Pick<Condition, "timeoutMs" | "timeoutCapped" | "raw" | "pattern" | "quietMs" | "closed" | "ready">, screenRows: readonly Row[] | undefined, knobs: Knobs = MCP_KNOBS): string[] {
  const top = decided.shown.screen.top;
  const rowsOf = (rows: readonly Row[]) => fenceRows(rows.map((r) => ({ row: r.line - top, text: r.text })));
  const found = decided.found;
  const cut = decided.outcomeRowsCut > 0 ? [`cut ${decided.outcomeRowsCut} rows of these (${knobs.byteLimit})`] : [];
  if (found?.screen) {
    const old = alreadyShown(found.screen.rows, decided.delta) ? ", unchanged since the cursor (or the call's start): it was already there" : "";
    return [`matched at ${found.screen.where}${old}:`, ...cut, ...rowsOf(found.screen.rows)];
  }
  if (found?.raw) return [`matched in the ${found.raw.where}; the line(s) around it:`, ...fenceRaw(found.raw.context)];
  const readiness = decided.readiness && readinessLine(decided.readiness);
  if (decided.outcome === "ready") return readiness ? [readiness] : [];
  if (decided.outcome !== "timeout") return [];
  const tested =
    condition.raw && condition.pattern !== undefined ? `; tested the raw output since the cursor (${decided.rawChars} characters)`
    : decided.untested ? `; the screen was not tested: ${decided.delta.paneId} has not changed since the keys sent to it from here (the screen they found is not their answer)`
    : "";
  const lines = [`${notInTime(condition, `within ${condition.timeoutMs} ms`)}${condition.timeoutCapped ? " (the server's cap)" : ""}${tested}`, ...(readiness ? [readiness] : [])];
  if (condition.pattern && REGEX_LITERAL.test(condition.pattern.source)) {
    lines.push(`the pattern's / at both ends (and any letters after the last) are matched as text: give the regex without /.../ and its flags${knobs.ignoreCase === undefined ? "" : ` (for i: ${knobs.ignoreCase})`}`);
  }
  if (screenRows && screenRows.length > 0) lines.push("the screen as displayed (blank rows left out):", ...cut, ...rowsOf(screenRows));
  else lines.push("the screen is blank");
  return lines;
}

/** What the last look at a pane's process said, and what it rests on (a person can check it). */
export function readinessLine(readiness: Readiness): string {
  if (readiness.evidence === "proc") return `${readiness.ready ? "ready" : "not ready"} (from /proc): ${readiness.detail}`;
  return `ready by quiet alone (nothing shows whether it reads its terminal): ${readiness.detail}`;
}
