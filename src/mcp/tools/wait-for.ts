// wait_for: block until a regex matches the screen as displayed (or the raw output since a cursor),
// the pane has been quiet for a while, or it closes. Woken by the observer's changes, never by
// polling; the regex runs in a worker with a time budget (regex-runner.ts).
import { z } from "zod";
import { PanescopeError } from "../../errors.js";
import type { Delta } from "../../observe/delta.js";
import type { PaneObserver } from "../../observe/pane.js";
import { ANNOTATIONS, TITLES, type ToolRegistrar } from "../context.js";
import { compilePattern, keepTail, locateInRaw, locateOnScreen, MAX_PATTERN_CHARS, RAW_WINDOW_CHARS, screenText, type RawMatch, type ScreenMatch } from "../match.js";
import { ending, fenceRaw, fenceRows, header } from "../render.js";
import { fail, ok } from "../results.js";
import * as s from "../schemas.js";

export const DEFAULT_TIMEOUT_MS = 10_000;

const DESCRIPTION = `Block until something happens in a pane, instead of polling. Give one of:
- pattern: a JavaScript regex, in "screen" (default): the screen as displayed, now and after each change: rows joined by newlines (^ $ per row), trailing blanks kept only on the cursor's row, up to the cursor (">>> $" matches a Python prompt); or in "raw": output since the cursor (or this call), escapes removed, the newest ${RAW_WINDOW_CHARS / 1024}K characters. A pattern that backtracks too long is an error.
- quietMs: nothing printed for this many ms.
- closed: true: the pane or its program ended.
Answer: outcome; a match's text, where (in words), its rows or raw line; on timeout the non-blank rows; a cursor. Text as capture_since's.`;

type Outcome = "matched" | "quiet" | "closed" | "timeout" | "aborted";

interface Found {
  screen?: ScreenMatch;
  raw?: RawMatch;
}


function changed(delta: Delta): boolean {
  return delta.rows.length > 0 || delta.raw !== "" || delta.missed || delta.closed || delta.truncated.rows > 0 || delta.truncated.rawChars > 0;
}

export const registerWaitFor: ToolRegistrar = (mcp, ctx) => {
  mcp.registerTool(
    "wait_for",
    {
      title: TITLES.wait_for,
      description: DESCRIPTION,
      inputSchema: {
        paneId: s.paneId.optional(),
        cursor: s.cursor.optional(),
        pattern: z.string().max(MAX_PATTERN_CHARS, `pattern is at most ${MAX_PATTERN_CHARS} characters`).optional(),
        ignoreCase: z.boolean().optional(),
        in: z.enum(["screen", "raw"]).optional(),
        quietMs: z.number().int("quietMs must be a whole number").min(1, "quietMs must be at least 1").max(ctx.maxWaitMs, `quietMs is at most ${ctx.maxWaitMs} (this server's wait cap)`).optional(),
        closed: z.literal(true).optional(),
        timeoutMs: z.number().int("timeoutMs must be a whole number").min(0, "timeoutMs cannot be negative").optional().describe(`Default ${Math.min(DEFAULT_TIMEOUT_MS, ctx.maxWaitMs)}, capped at ${ctx.maxWaitMs}.`),
      },
      outputSchema: s.part({
        outcome: z.enum(["matched", "quiet", "closed", "timeout", "aborted"]),
        paneId: z.string(),
        cursor: z.string(),
        match: z.string(),
        matchedIn: z.string(),
        where: z.string(),
        rows: z.array(s.row),
        rawContext: z.string(),
        screenRows: z.array(s.row),
        screen: s.object,
        closed: z.boolean(),
        exit: s.exit,
        timeoutMs: s.int,
        timeoutCapped: z.boolean(),
      }),
      annotations: ANNOTATIONS.wait_for,
    },
    async (input, extra) => {
      try {
        const modes = [input.pattern !== undefined, input.quietMs !== undefined, input.closed !== undefined].filter(Boolean).length;
        if (modes !== 1) throw new PanescopeError("bad-input", "give exactly one of pattern, quietMs or closed: true");
        const pattern = input.pattern === undefined ? undefined : compilePattern(input.pattern, input.ignoreCase);
        const requested = input.timeoutMs ?? Math.min(DEFAULT_TIMEOUT_MS, ctx.maxWaitMs);
        const timeoutMs = Math.min(requested, ctx.maxWaitMs);
        const paneId = await ctx.hub.resolvePane(input.paneId, input.cursor);
        const observer = await ctx.hub.observer(paneId);
        const start = await observer.read(input.cursor);
        const state = { cursor: start.cursor, raw: start.first ? "" : start.raw };
        const deadline = Date.now() + timeoutMs;

        // The match runs in the RegexRunner's worker: a pattern that backtracks stalls only itself.
        const test = async (): Promise<Found | undefined> => {
          if (!pattern) return undefined;
          if (input.in === "raw") {
            const m = await ctx.regex.exec(pattern.source, pattern.flags, state.raw);
            return m && { raw: locateInRaw(m, state.raw) };
          }
          const { rows, screen } = await observer.displayedScreen();
          const m = await ctx.regex.exec(pattern.source, pattern.flags, screenText(rows));
          return m && { screen: locateOnScreen(m, rows, screen.top) };
        };
        const next = async (ms: number): Promise<boolean> => {
          const delta = await observer.waitForChange(state.cursor, Math.max(0, ms), extra.signal);
          state.cursor = delta.cursor;
          state.raw = keepTail(state.raw + delta.raw);
          return changed(delta);
        };

        let outcome: Outcome | undefined;
        let found: Found | undefined;
        let quietSince = Date.now();
        while (outcome === undefined) {
          found = await test();
          const now = Date.now();
          if (found) outcome = "matched";
          else if (input.quietMs !== undefined && now - quietSince >= input.quietMs) outcome = "quiet";
          else if (observer.closed) outcome = "closed";
          else if (extra.signal.aborted) outcome = "aborted";
          else if (now >= deadline) outcome = "timeout";
          else {
            const until = input.quietMs === undefined ? deadline : Math.min(deadline, quietSince + input.quietMs);
            if (await next(until - now)) quietSince = Date.now();
          }
        }
        return await answer(observer, outcome, state, found, input.in === "raw" && pattern !== undefined, { timeoutMs, timeoutCapped: requested > ctx.maxWaitMs });
      } catch (error) {
        return fail(error, ctx.failContext);
      }
    },
  );
};

async function answer(
  observer: PaneObserver,
  outcome: Outcome,
  state: { cursor: string; raw: string },
  found: Found | undefined,
  rawMode: boolean,
  timeout: { timeoutMs: number; timeoutCapped: boolean },
) {
  const { rows, screen } = await observer.displayedScreen();
  const screenRows = outcome === "timeout" ? rows.flatMap((text, y) => (text.trim() === "" ? [] : [{ line: screen.top + y, text }])) : undefined;
  const matched = found?.screen
    ? { match: found.screen.text, matchedIn: "screen" as const, where: found.screen.where, rows: found.screen.rows }
    : found?.raw
      ? { match: found.raw.text, matchedIn: "raw" as const, where: found.raw.where, rawContext: found.raw.context }
      : {};
  const exit = observer.exitInfo;
  const structured = { outcome, paneId: observer.paneId, cursor: state.cursor, ...matched, ...(screenRows ? { screenRows } : {}), screen, closed: observer.closed, ...(exit ? { exit } : {}), ...timeout };
  const lines = [header(state.cursor, observer.paneId, screen, [outcome])];
  const rowsOf = (rows: ReadonlyArray<{ line: number; text: string }>) => fenceRows(rows.map((r) => ({ row: r.line - screen.top, text: r.text })));
  if (found?.screen) {
    lines.push(`matched at ${found.screen.where}:`, ...rowsOf(found.screen.rows));
  } else if (found?.raw) {
    lines.push(`matched in the ${found.raw.where}; the line(s) around it:`, ...fenceRaw(found.raw.context));
  }
  if (outcome === "timeout") {
    const tested = rawMode ? `; tested the raw output since the cursor (${state.raw.length} characters)` : "";
    lines.push(`nothing matched within ${timeout.timeoutMs} ms${timeout.timeoutCapped ? " (the server's cap)" : ""}${tested}`);
    if (screenRows && screenRows.length > 0) lines.push("the screen as displayed (blank rows left out):", ...rowsOf(screenRows));
    else lines.push("the screen is blank");
  }
  if (observer.closed) lines.push(ending(exit));
  return ok(structured, lines.join("\n"));
}
