// Waiting on panes, shared by wait_for and send_keys' wait: a condition (a pattern on the screen or
// in the raw output, quiet for a while, closed), one or several panes, and the answer every cursor
// tool gives: the delta since the caller's cursor, read at the moment the outcome was decided, with
// the cursor that follows it. Woken by the observers' changes, never by polling; patterns run in the
// RegexRunner's worker with a time budget (regex-runner.ts).
import { z } from "zod";
import { PanescopeError } from "../errors.js";
import type { Delta, ReadLimits, Row } from "../observe/delta.js";
import { applyLimits, rowBytes } from "../observe/limits.js";
import type { PaneObserver } from "../observe/pane.js";
import type { ToolContext } from "./context.js";
import { compilePattern, keepTail, locateInRaw, locateOnScreen, MAX_PATTERN_CHARS, screenText, type Pattern, type RawMatch, type ScreenMatch } from "./match.js";
import { isEmpty } from "./since.js";

export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The condition fields, as wait_for takes them and send_keys' `wait` object. A new kind of
 * condition (`ready`, a readiness probe) is one more field here, one more line in `conditionOf`'s
 * count and one more check in `holds` below.
 */
export function conditionFields(capMs: number) {
  return {
    pattern: z.string().max(MAX_PATTERN_CHARS, `pattern is at most ${MAX_PATTERN_CHARS} characters`).optional(),
    ignoreCase: z.boolean().optional(),
    in: z.enum(["screen", "raw"]).optional(),
    quietMs: z.number().int("quietMs must be a whole number").min(1, "quietMs must be at least 1").max(capMs, `quietMs is at most ${capMs} (this server's wait cap)`).optional(),
    closed: z.literal(true).optional(),
    timeoutMs: z.number().int("timeoutMs must be a whole number").min(0, "timeoutMs cannot be negative").optional().describe(`Default ${Math.min(DEFAULT_TIMEOUT_MS, capMs)}, capped at ${capMs}.`),
  };
}

export interface ConditionInput {
  pattern?: string | undefined;
  ignoreCase?: boolean | undefined;
  in?: "screen" | "raw" | undefined;
  quietMs?: number | undefined;
  closed?: true | undefined;
  timeoutMs?: number | undefined;
}

export interface Condition {
  pattern?: Pattern;
  /** The pattern is tested on the raw output (since the start), not on the screen. */
  raw: boolean;
  quietMs?: number;
  closed: boolean;
  timeoutMs: number;
  /** The timeout asked for was above the server's cap. */
  timeoutCapped: boolean;
}

export function conditionOf(input: ConditionInput, capMs: number, field = ""): Condition {
  const modes = [input.pattern !== undefined, input.quietMs !== undefined, input.closed !== undefined].filter(Boolean).length;
  if (modes !== 1) throw new PanescopeError("bad-input", `give exactly one of ${field}pattern, ${field}quietMs or ${field}closed: true`);
  const requested = input.timeoutMs ?? Math.min(DEFAULT_TIMEOUT_MS, capMs);
  return {
    ...(input.pattern === undefined ? {} : { pattern: compilePattern(input.pattern, input.ignoreCase) }),
    raw: input.in === "raw",
    ...(input.quietMs === undefined ? {} : { quietMs: input.quietMs }),
    closed: input.closed === true,
    timeoutMs: Math.min(requested, capMs),
    timeoutCapped: requested > capMs,
  };
}

export type Outcome = "matched" | "quiet" | "closed" | "timeout" | "aborted";

export interface Found {
  screen?: ScreenMatch;
  raw?: RawMatch;
}

/** One pane to wait on: where its answer starts (`start`) and where its waiting starts (`watch`). */
export interface Target {
  observer: PaneObserver;
  /** The caller's cursor (or one from the start of the call): the answer's delta is since it. */
  start: string;
  /** Where changes are watched from (send_keys: just before the keys); default `start`. */
  watch?: string;
  /**
   * A cursor from just before the last keys sent to the pane: until the pane changed after it, a
   * screen pattern is not tested (the prompt the keys found is not their answer; their echo may
   * not have arrived yet).
   */
  typed?: string;
}

export interface Decided {
  /** Which target answered (0 when none did: timeout or aborted). */
  index: number;
  outcome: Outcome;
  found?: Found;
  /** The raw text the pattern saw (raw mode), for the timeout's words. */
  rawChars: number;
  /** The answer: everything since the target's start, read when the outcome was decided. */
  delta: Delta;
  /** The screen as displayed at the same moment (the match's rows and the timeout's are from it). */
  shown: { rows: string[]; screen: Delta["screen"] };
  /** The rows the outcome shows (a match's, the screen's on timeout), within their part of maxBytes. */
  outcomeRows: Row[];
  /** Rows of those that maxBytes cut (the topmost). */
  outcomeRowsCut: number;
}

interface Waiting {
  outcome: Outcome;
  found?: Found;
  rawChars: number;
}

/**
 * Waits until the condition holds on one of the targets (the first wins; the others are left as
 * they were), the timeout passes, or the signal aborts; then reads the winner's delta.
 */
export async function waitOn(ctx: ToolContext, targets: readonly Target[], condition: Condition, limits: ReadLimits, signal: AbortSignal): Promise<Decided> {
  const deadline = Date.now() + condition.timeoutMs;
  for (;;) {
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    let winner: { index: number; waiting: Waiting } | undefined;
    try {
      await Promise.all(
        targets.map(async (target, index) => {
          const waiting = await waitOne(ctx, target, condition, deadline, stop.signal);
          if (winner === undefined && waiting.outcome !== "timeout" && waiting.outcome !== "aborted") {
            winner = { index, waiting };
            stop.abort();
          }
        }),
      );
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    const index = winner?.index ?? 0;
    const target = targets[index] as Target;
    const waiting = winner?.waiting ?? { outcome: signal.aborted ? "aborted" : "timeout", rawChars: 0 };
    // Read the screen and the answer at one moment (no I/O between them), so a match's rows and
    // the delta's agree; a screen match that this moment no longer shows is tested again. The rows
    // the outcome shows (a match's, the screen on timeout) take up to half of maxBytes first.
    const observer = await ctx.hub.observer(target.observer.paneId);
    const shown = await observer.displayedScreen();
    const candidates = waiting.outcome === "timeout" ? nonBlank(shown) : waiting.found?.screen ? rowsAt(shown, waiting.found.screen.rows) : [];
    const reserve = limits.maxBytes === undefined ? undefined : sum(applyLimits(candidates, "", { maxBytes: Math.floor(limits.maxBytes / 2) }).rows);
    const delta = await observer.read(target.start, reserve === undefined || limits.maxBytes === undefined ? limits : { ...limits, maxBytes: limits.maxBytes - reserve });
    let found = waiting.found;
    if (found?.screen && condition.pattern) {
      const again = await ctx.regex.exec(condition.pattern.source, condition.pattern.flags, screenText(shown.rows));
      found = again ? { screen: locateOnScreen(again, shown.rows, shown.screen.top) } : undefined;
      if (!found && Date.now() < deadline && !signal.aborted) continue;
    }
    const outcome: Outcome = waiting.outcome === "matched" && !found ? "timeout" : waiting.outcome;
    const outcomeRows = outcome === "timeout" ? nonBlank(shown) : (found?.screen?.rows ?? []);
    const kept = reserve === undefined ? outcomeRows : applyLimits(outcomeRows, "", { maxBytes: reserve }).rows;
    if (found?.screen) found = { screen: { ...found.screen, rows: kept } };
    return { index, outcome, ...(found ? { found } : {}), rawChars: waiting.rawChars, delta, shown, outcomeRows: kept, outcomeRowsCut: outcomeRows.length - kept.length };
  }
}

/** The screen's non-blank rows as displayed, by absolute line (what a timeout shows). */
function nonBlank(shown: Decided["shown"]): Row[] {
  return shown.rows.flatMap((text, y) => (text.trim() === "" ? [] : [{ line: shown.screen.top + y, text }]));
}

/** The rows now at the lines given. */
function rowsAt(shown: Decided["shown"], rows: readonly Row[]): Row[] {
  return rows.map((row) => ({ line: row.line, text: shown.rows[row.line - shown.screen.top] ?? "" }));
}

const sum = (rows: readonly Row[]): number => rows.reduce((total, row) => total + rowBytes(row), 0);

/** One pane's wait: the loop of test, then sleep until the next change (or quiet, or deadline). */
async function waitOne(ctx: ToolContext, target: Target, condition: Condition, deadline: number, signal: AbortSignal): Promise<Waiting> {
  const observer = target.observer;
  // Rows are not needed to wait (maxLines 0 still counts them as changed): only raw, for raw patterns.
  const first = await observer.read(target.watch ?? target.start, { maxLines: 0 });
  const typed = target.typed === undefined ? undefined : await observer.read(target.typed, { maxLines: 0, maxBytes: 0 });
  const state = { cursor: first.cursor, raw: first.first ? "" : keepTail(first.raw), changed: typed === undefined || !isEmpty(typed) };
  const pattern = condition.pattern;

  const test = async (): Promise<Found | undefined> => {
    if (!pattern) return undefined;
    if (condition.raw) {
      const m = await ctx.regex.exec(pattern.source, pattern.flags, state.raw);
      return m && { raw: locateInRaw(m, state.raw) };
    }
    if (!state.changed) return undefined;
    const { rows, screen } = await observer.displayedScreen();
    const m = await ctx.regex.exec(pattern.source, pattern.flags, screenText(rows));
    return m && { screen: locateOnScreen(m, rows, screen.top) };
  };
  const next = async (ms: number): Promise<boolean> => {
    const delta = await observer.waitForChange(state.cursor, Math.max(0, ms), signal, { maxLines: 0 });
    state.cursor = delta.cursor;
    state.raw = keepTail(state.raw + delta.raw);
    const news = delta.rawBytes > 0 || delta.truncated.rows > 0 || delta.missed || delta.closed;
    if (news) state.changed = true;
    return news;
  };

  let quietSince = Date.now();
  for (;;) {
    const found = await test();
    const now = Date.now();
    if (found) return { outcome: "matched", found, rawChars: state.raw.length };
    if (condition.quietMs !== undefined && now - quietSince >= condition.quietMs) return { outcome: "quiet", rawChars: state.raw.length };
    // `ready` (a readiness probe) will be one more check here, like quiet.
    if (observer.closed) return { outcome: "closed", rawChars: state.raw.length };
    if (signal.aborted) return { outcome: "aborted", rawChars: state.raw.length };
    if (now >= deadline) return { outcome: "timeout", rawChars: state.raw.length };
    const until = condition.quietMs === undefined ? deadline : Math.min(deadline, quietSince + condition.quietMs);
    if (await next(until - now)) quietSince = Date.now();
  }
}
