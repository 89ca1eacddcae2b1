// Waiting on panes, shared by wait_for and send_keys' wait: a condition (a pattern on the screen or
// in the raw output, quiet for a while, closed), one or several panes, and the answer every cursor
// tool gives: the delta since the caller's cursor, read at the moment the outcome was decided, with
// the cursor that follows it. Woken by the observers' changes; patterns run in the RegexRunner's
// workers with a time budget (regex-runner.ts). `ready` alone also looks at /proc while the pane is
// quiet (watch/ready.ts): a program starts reading its terminal without printing anything.
import { z } from "zod";
import { PanescopeError } from "../errors.js";
import { isEmpty, type Delta, type ReadLimits, type Row } from "../observe/read/delta.js";
import { applyLimits, rowBytes } from "../observe/read/limits.js";
import type { PaneObserver } from "../observe/pane/observer.js";
import type { ToolContext } from "./context.js";
import { compilePattern, keepTail, locateInRaw, locateOnScreen, MAX_PATTERN_CHARS, screenText, type Pattern, type RawMatch, type ScreenMatch } from "./match.js";
import { paneTtyIds, readiness, READY_QUIET_MS, type PaneTtyIds, type Readiness } from "../watch/ready.js";

export const DEFAULT_TIMEOUT_MS = 10_000;
/** How often a quiet pane's /proc is looked at while a wait on `ready` finds it not reading yet. */
export const READY_LOOK_MS = 100;

/**
 * The condition fields, as wait_for takes them and send_keys' `wait` object. A new kind of
 * condition is one more field here, one more line in `conditionOf`'s count and one more check in
 * `waitOne` below.
 */
export function conditionFields(capMs: number) {
  return {
    pattern: z.string().max(MAX_PATTERN_CHARS, `pattern is at most ${MAX_PATTERN_CHARS} characters`).optional(),
    ignoreCase: z.boolean().optional(),
    in: z.enum(["screen", "raw"]).optional(),
    quietMs: z.number().int("quietMs must be a whole number").min(1, "quietMs must be at least 1").max(capMs, `quietMs is at most ${capMs} (this server's wait cap)`).optional(),
    closed: z.literal(true).optional(),
    ready: z.literal(true).optional(),
    timeoutMs: z.number().int("timeoutMs must be a whole number").min(0, "timeoutMs cannot be negative").optional().describe(`Default ${Math.min(DEFAULT_TIMEOUT_MS, capMs)}, capped at ${capMs}.`),
  };
}

export interface ConditionInput {
  pattern?: string | undefined;
  ignoreCase?: boolean | undefined;
  in?: "screen" | "raw" | undefined;
  quietMs?: number | undefined;
  closed?: true | undefined;
  ready?: true | undefined;
  timeoutMs?: number | undefined;
}

export interface Condition {
  pattern?: Pattern;
  /** The pattern is tested on the raw output (since the start), not on the screen. */
  raw: boolean;
  quietMs?: number;
  closed: boolean;
  /** The foreground program reads its terminal and output has been quiet (watch/ready.ts). */
  ready: boolean;
  timeoutMs: number;
  /** The timeout asked for was above the server's cap. */
  timeoutCapped: boolean;
}

export function conditionOf(input: ConditionInput, capMs: number, field = ""): Condition {
  const modes = [input.pattern !== undefined, input.quietMs !== undefined, input.closed !== undefined, input.ready !== undefined].filter(Boolean).length;
  if (modes !== 1) throw new PanescopeError("bad-input", `give exactly one of ${field}pattern, ${field}quietMs, ${field}closed: true or ${field}ready: true`);
  const requested = input.timeoutMs ?? Math.min(DEFAULT_TIMEOUT_MS, capMs);
  return {
    ...(input.pattern === undefined ? {} : { pattern: compilePattern(input.pattern, input.ignoreCase) }),
    raw: input.in === "raw",
    ...(input.quietMs === undefined ? {} : { quietMs: input.quietMs }),
    closed: input.closed === true,
    ready: input.ready === true,
    timeoutMs: Math.min(requested, capMs),
    timeoutCapped: requested > capMs,
  };
}

export type Outcome = "matched" | "quiet" | "ready" | "closed" | "timeout" | "aborted";

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
  /** A wait on `ready`: what the last look at the pane's process said (and on what evidence). */
  readiness?: Readiness;
  /** A screen pattern never tested: the pane had not changed since the caller's keys (Target.typed). */
  untested?: boolean;
  /** The answer: everything since the target's start, read when the outcome was decided. */
  delta: Delta;
  /** The screen as displayed at the same moment (the match's rows and the timeout's are from it). */
  shown: { rows: string[]; wraps: (string | undefined)[]; screen: Delta["screen"] };
  /** The rows the outcome shows (a match's, the screen's on timeout), within their part of maxBytes. */
  outcomeRows: Row[];
  /** Rows of those that maxBytes cut (the topmost). */
  outcomeRowsCut: number;
}

interface Waiting {
  outcome: Outcome;
  found?: Found;
  rawChars: number;
  readiness?: Readiness;
  untested?: boolean;
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
    let first: Waiting | undefined;
    try {
      await Promise.all(
        targets.map(async (target, index) => {
          const waiting = await waitOne(ctx, target, condition, deadline, stop.signal);
          if (index === 0) first = waiting;
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
    // None answered: the outcome is the caller's timeout or cancel; a lone pane's last look stays (its raw, its readiness).
    const waiting: Waiting = winner?.waiting ?? { ...(targets.length === 1 ? first : {}), outcome: signal.aborted ? "aborted" : "timeout", rawChars: targets.length === 1 ? (first?.rawChars ?? 0) : 0 };
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
      const again = await ctx.regex.exec(condition.pattern.source, condition.pattern.flags, screenText(shown.rows, shown.wraps));
      found = again ? { screen: locateOnScreen(again, shown.rows, shown.screen.top, shown.wraps) } : undefined;
      if (!found && Date.now() < deadline && !signal.aborted) continue;
    }
    const outcome: Outcome = waiting.outcome === "matched" && !found ? "timeout" : waiting.outcome;
    const outcomeRows = outcome === "timeout" ? nonBlank(shown) : (found?.screen?.rows ?? []);
    const kept = reserve === undefined ? outcomeRows : applyLimits(outcomeRows, "", { maxBytes: reserve }).rows;
    if (found?.screen) found = { screen: { ...found.screen, rows: kept } };
    return { index, outcome, ...(found ? { found } : {}), rawChars: waiting.rawChars, ...(waiting.readiness ? { readiness: waiting.readiness } : {}), ...(waiting.untested ? { untested: true } : {}), delta, shown, outcomeRows: kept, outcomeRowsCut: outcomeRows.length - kept.length };
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
    const { rows, wraps, screen } = await observer.displayedScreen();
    const m = await ctx.regex.exec(pattern.source, pattern.flags, screenText(rows, wraps));
    return m && { screen: locateOnScreen(m, rows, screen.top, wraps) };
  };
  const next = async (ms: number): Promise<boolean> => {
    const delta = await observer.waitForChange(state.cursor, Math.max(0, ms), signal, { maxLines: 0 });
    state.cursor = delta.cursor;
    state.raw = keepTail(state.raw + delta.raw);
    const news = delta.rawBytes > 0 || delta.truncated.rows > 0 || delta.missed || delta.closed;
    if (news) state.changed = true;
    return news;
  };

  // Ready: quiet for READY_QUIET_MS, then the kernel's word that the foreground program reads its
  // terminal (looked at again every READY_LOOK_MS while quiet); where /proc shows nothing, quiet alone.
  const quietMs = condition.ready ? READY_QUIET_MS : condition.quietMs;
  let ids: PaneTtyIds | undefined | null = null;
  let looked: Readiness | undefined;
  const look = async (): Promise<Readiness> => {
    if (ids === null) ids = await paneTtyIds(ctx.server, observer.paneId).catch(() => undefined);
    return ids ? readiness(ids) : { ready: undefined, evidence: "none", detail: `tmux did not report ${observer.paneId}'s process` };
  };
  let quietSince = Date.now();
  // What the program wrote before the quiet was seen may still be on its way (in tmux, in the
  // confirm gate): once it is in, the pane was not quiet after all, and the wait goes on. Quiet for
  // real, the replica is audited now, so the answer shows tmux's screen, not the next audit's.
  const stillQuiet = async (): Promise<boolean> => {
    await ctx.hub.caughtUp(observer.paneId);
    if (await next(0)) {
      quietSince = Date.now();
      return false;
    }
    await ctx.hub.atRest(observer.paneId);
    return true;
  };
  for (;;) {
    const found = await test();
    const now = Date.now();
    const untested = pattern !== undefined && !condition.raw && !state.changed;
    const result = (outcome: Outcome): Waiting => ({ outcome, ...(found ? { found } : {}), rawChars: state.raw.length, ...(looked ? { readiness: looked } : {}), ...(untested ? { untested } : {}) });
    if (found) return result("matched");
    const quiet = quietMs !== undefined && now - quietSince >= quietMs;
    if (quiet && condition.quietMs !== undefined) {
      if (await stillQuiet()) return result("quiet");
      continue;
    }
    // After our keys, ready also needs the program's reaction (any output since them, its echo at
    // least): until tmux and the kernel deliver the keys, the program still sleeps in the read it
    // was in before them (3.6a under load: "ready" before python had read the line it was sent).
    if (quiet && condition.ready && !observer.closed && state.changed) {
      looked = await look();
      if (looked.ready !== false) {
        if (await stillQuiet()) return result("ready");
        continue;
      }
    }
    if (observer.closed) return result("closed");
    if (signal.aborted) return result("aborted");
    if (now >= deadline) return result("timeout");
    const until = quietMs === undefined ? deadline : Math.min(deadline, quiet ? now + READY_LOOK_MS : quietSince + quietMs);
    if (await next(until - now)) quietSince = Date.now();
  }
}
