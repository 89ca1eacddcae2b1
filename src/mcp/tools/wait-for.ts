// wait_for: block until a regex matches the screen as displayed (or the raw output since a cursor),
// the pane has been quiet for a while, or it closes — on one pane or the first of several. Like
// every tool that takes a cursor it answers everything since it (the delta, as capture_since) with
// the cursor that follows: what it waited for is in its answer, never skipped (wait.ts waits).
import { z } from "zod";
import { PanescopeError } from "../../errors.js";
import { ANNOTATIONS, callSignal, TITLES, type ToolContext, type ToolRegistrar } from "../context.js";
import { RAW_WINDOW_CHARS } from "../match.js";
import { outcomeLines, screenRowsOf } from "../outcome.js";
import { renderDelta, type Knobs, type View } from "../render.js";
import { fail, ok } from "../results.js";
import * as s from "../schemas.js";
import { limitsOf, sameLimitFields, structured } from "../since.js";
import { READY_QUIET_MS } from "../../watch/ready.js";
import { conditionFields, conditionOf, waitOn, type Condition, type Decided, type Target } from "../wait.js";

export { DEFAULT_TIMEOUT_MS } from "../wait.js";

export const MAX_PANES = 16;

const DESCRIPTION = `Block until something happens in a pane, instead of polling. Give one of:
- pattern: a JavaScript regex source (no /.../ or flags: ignoreCase), in "screen" (default): the screen as displayed, now (text already shown matches; after send_keys: once the pane changed since the keys) and after each change: rows joined by newlines (^ $ per row), trailing blanks only on the cursor's row, up to the cursor (">>> $" matches a Python prompt); or in "raw": output since the cursor (or this call), typed echo included, escapes removed, the newest ${RAW_WINDOW_CHARS / 1024}K characters.
- quietMs: nothing printed for this many ms.
- closed: true: the pane/program ended.
- ready: true: reads its terminal (Linux), quiet ${READY_QUIET_MS} ms.
Answer: the outcome (a match and its rows; on timeout the screen), then all since your cursor (or this call) as capture_since, and the cursor after it.
Several panes (cursors, paneIds): the first whose condition holds answers; cursors: each pane's to wait again.`;

export const registerWaitFor: ToolRegistrar = (mcp, ctx) => {
  mcp.registerTool(
    "wait_for",
    {
      title: TITLES.wait_for,
      description: DESCRIPTION,
      inputSchema: {
        paneId: s.paneId.optional(),
        cursor: s.bareCursor.optional(),
        cursors: z.array(s.bareCursor, "cursors is a list of cursors (for one pane, pass cursor)").max(MAX_PANES).optional(),
        paneIds: z.array(s.paneId, 'paneIds is a list of pane ids like ["%3"] (for one pane, pass paneId)').max(MAX_PANES).optional(),
        ...conditionFields(ctx.maxWaitMs),
        ...sameLimitFields,
      },
      outputSchema: s.part({
        outcome: z.enum(["matched", "quiet", "ready", "closed", "timeout", "aborted"]),
        paneId: z.string(),
        cursor: z.string(),
        cursors: z.array(z.string()),
        match: z.string(),
        matchedIn: z.string(),
        where: z.string(),
        rows: z.array(s.row),
        rawContext: z.string(),
        screenRows: z.array(s.row),
        rowsCut: s.int,
        screen: s.object,
        closed: z.boolean(),
        readiness: s.object,
        exit: s.exit,
        timeoutMs: s.int,
        timeoutCapped: z.boolean(),
        delta: s.object,
      }),
      annotations: ANNOTATIONS.wait_for,
    },
    async (input, extra) => {
      try {
        const condition = conditionOf(input, ctx.maxWaitMs);
        const targets = await targetsOf(ctx, input);
        const limits = limitsOf(input);
        const decided = await waitOn(ctx, targets, condition, limits, callSignal(ctx, extra));
        const several = targets.length > 1;
        // Several panes and none answered: every cursor back as given (they still read the same).
        if (several && (decided.outcome === "timeout" || decided.outcome === "aborted")) return unchanged(targets, decided, condition.timeoutMs);
        const cursors = several ? targets.map((t, i) => (i === decided.index ? decided.delta.cursor : t.start)) : undefined;
        return answer(decided, condition, { view: input.view, knobs: ctx.knobs }, cursors);
      } catch (error) {
        return fail(error, ctx.failContext);
      }
    },
  );
};

interface WhereInput {
  paneId?: string | undefined;
  cursor?: string | undefined;
  cursors?: string[] | undefined;
  paneIds?: string[] | undefined;
}

/** The panes to wait on, in the order given (cursor(s), then pane id(s)), each with its start. */
async function targetsOf(ctx: ToolContext, input: WhereInput): Promise<Target[]> {
  const listed = input.cursors !== undefined || input.paneIds !== undefined;
  const single = input.cursor !== undefined || input.paneId !== undefined || !listed ? [{ cursor: input.cursor, paneId: input.paneId }] : [];
  const given = [...single, ...(input.cursors ?? []).map((cursor) => ({ cursor, paneId: undefined })), ...(input.paneIds ?? []).map((paneId) => ({ cursor: undefined, paneId }))];
  if (given.length === 0) throw new PanescopeError("bad-input", "cursors and paneIds name no pane: give at least one cursor or pane id (or omit both to wait on the active pane)");
  const targets: Target[] = [];
  for (const one of given) {
    const paneId = await ctx.hub.resolvePane(one.paneId, one.cursor);
    if (targets.some((t) => t.observer.paneId === paneId)) throw new PanescopeError("bad-input", `pane ${paneId} is named twice: give each pane once, by its cursor or its id`);
    const observer = await ctx.hub.observer(paneId);
    // No cursor: the answer starts at this call (a first read also starts watching the pane).
    const start = one.cursor ?? (await observer.read(undefined, { maxLines: 0 })).cursor;
    // Keys sent here and nothing shown since: the prompt still on the screen is not their answer.
    const typed = ctx.typed.get(paneId);
    targets.push({ observer, start, ...(typed === undefined ? {} : { typed }) });
  }
  return targets;
}

function answer(decided: Decided, condition: Condition, { view, knobs }: { view: View | undefined; knobs: Knobs }, cursors: string[] | undefined) {
  const { delta, shown, outcome, found } = decided;
  const screenRows = screenRowsOf(decided);
  const matched = found?.screen
    ? { match: found.screen.text, matchedIn: "screen" as const, where: found.screen.where, rows: found.screen.rows }
    : found?.raw
      ? { match: found.raw.text, matchedIn: "raw" as const, where: found.raw.where, rawContext: found.raw.context }
      : {};
  const structuredContent = {
    outcome,
    paneId: delta.paneId,
    cursor: delta.cursor,
    ...(cursors ? { cursors } : {}),
    ...matched,
    ...(screenRows ? { screenRows } : {}),
    ...(decided.outcomeRowsCut > 0 ? { rowsCut: decided.outcomeRowsCut } : {}),
    screen: shown.screen,
    closed: delta.closed,
    ...(decided.readiness ? { readiness: decided.readiness } : {}),
    ...(delta.exit ? { exit: delta.exit } : {}),
    timeoutMs: condition.timeoutMs,
    timeoutCapped: condition.timeoutCapped,
    delta: structured(delta),
  };
  const lead = [...(cursors ? [`cursors=${cursors.join(" ")}`] : []), ...outcomeLines(decided, condition, screenRows, knobs)];
  const text = renderDelta(delta, { view: view ?? "rows", words: [outcome], lead, knobs });
  return ok(structuredContent, text);
}

/** Several panes, nothing happened: no pane answers, every cursor is still the caller's. */
function unchanged(targets: readonly Target[], decided: Decided, timeoutMs: number) {
  const cursors = targets.map((t) => t.start);
  const panes = targets.map((t) => t.observer.paneId).join(" ");
  const what = decided.outcome === "aborted" ? "wait cut short: the server is stopping" : `nothing happened in ${panes} within ${timeoutMs} ms`;
  return ok({ outcome: decided.outcome, cursors, timeoutMs }, `${what}; cursors unchanged:\ncursors=${cursors.join(" ")}`);
}
