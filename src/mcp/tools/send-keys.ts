// send_keys: literal text and validated tmux key names to a pane, in the order given, through
// one-shot `tmux send-keys` argv (no shell, no tmux command parsing of the text): one tmux process
// per call, its commands run back to back (a fork holds the event loop 4–20 ms, and a storm of
// agents typing queued every other one-shot call behind theirs). With `wait`, it then waits as
// wait_for does and answers everything since just before the keys (or since `cursor`): type, wait
// and see in one call.
import { z } from "zod";
import { isPanescopeError, PanescopeError } from "../../errors.js";
import type { PaneObserver } from "../../observe/pane/observer.js";
import { TmuxFormat } from "../../tmux/format.js";
import { openedPane } from "../../watch/opened-pane.js";
import { MAX_KEY_NAME_LENGTH } from "../../tmux/keys.js";
import { ANNOTATIONS, callSignal, TITLES, type ToolRegistrar } from "../context.js";
import { outcomeLines, screenRowsOf } from "../outcome.js";
import { refuseOwnPane } from "../panes.js";
import { renderDelta } from "../render.js";
import { fail, ok } from "../results.js";
import * as s from "../schemas.js";
import { limitsOf, sameLimitFields, structured } from "../since.js";
import { requireSendable } from "../strings.js";
import { shorthandSteps, typingOf, type Step } from "../typing.js";
import { conditionFields, conditionOf, waitOn } from "../wait.js";

export { literalFor } from "../typing.js";

export const MAX_TEXT_CHARS = 16 * 1024;
export const MAX_KEYS = 100;

const PANE_LIFE = new TmuxFormat({ pid: "pane_pid", dead: "pane_dead" });

/**
 * A pane whose program has ended takes no keys: said before anything is typed (tmux would take
 * them and nothing would read them). The watch's word is checked with tmux first: dead, or held by
 * panescope's wrapper after the program it opened ended. A watch closed for another reason (let go
 * for the cap), a pane gone (tmux's own error follows), another process there now (a respawn not
 * yet reported): the keys go on.
 */
async function refuseEnded(ctx: Parameters<ToolRegistrar>[1], paneId: string, observer: PaneObserver): Promise<void> {
  const now = await ctx.server.display(paneId, PANE_LIFE).catch(() => undefined);
  if (now === undefined || Number(now.pid) !== observer.identity.panePid) return;
  if (now.dead !== "1" && openedPane(Number(now.pid))?.ended === undefined) return;
  const exit = observer.exitInfo;
  const how = exit?.signal !== undefined ? ` (killed by signal ${exit.signal})` : exit?.status !== undefined ? ` (exit status ${exit.status})` : "";
  throw new PanescopeError("pane-closed", `${paneId}'s program has ended${how}: nothing can be typed into it. Its screen stays readable; open_pane starts a new program, close_pane closes the pane`);
}

const DESCRIPTION = `Type into a pane. input: in order, tmux key names and {text} typed literally (never as keys or shell): ["Escape", {"text": ":wq"}, "Enter"]. Shorthand: text, then keys, then Enter if enter (each newline in text is then an Enter too). Keys: Enter Escape Tab BSpace Up Down Left Right PageUp F1..F12 Space C-c M-x C-S-Up, or one letter or digit.
wait: then wait as wait_for (a screen pattern once the pane changed) and answer the outcome and all since just before the keys (or cursor) as capture_since. Else: a cursor from before the keys. Never types into panescope's own pane.`;

const stepSchema = z.union([
  z.string().max(MAX_KEY_NAME_LENGTH, `a key name is at most ${MAX_KEY_NAME_LENGTH} characters: send text as {"text": "..."}`),
  z.looseObject({ text: z.string().max(MAX_TEXT_CHARS, `text is at most ${MAX_TEXT_CHARS} characters: send long input in parts`) }),
]);

export const registerSendKeys: ToolRegistrar = (mcp, ctx) => {
  mcp.registerTool(
    "send_keys",
    {
      title: TITLES.send_keys,
      description: DESCRIPTION,
      inputSchema: {
        paneId: s.paneId,
        input: z.array(stepSchema, 'input is a list: key names and {"text": ...}, e.g. [{"text": "ls"}, "Enter"]').max(MAX_KEYS, `at most ${MAX_KEYS} steps per call`).optional(),
        text: z.string().max(MAX_TEXT_CHARS, `text is at most ${MAX_TEXT_CHARS} characters: send long input in parts`).optional(),
        keys: z
          .array(z.string().max(MAX_KEY_NAME_LENGTH, `a key name is at most ${MAX_KEY_NAME_LENGTH} characters: send text with the text field`), 'keys is a list of key names, e.g. ["C-c"] or ["Up", "Enter"]; type text with text')
          .max(MAX_KEYS, `at most ${MAX_KEYS} keys per call`)
          .optional(),
        enter: z.boolean().optional(),
        cursor: s.bareCursor.optional(),
        wait: z.looseObject(conditionFields(ctx.maxWaitMs)).optional(),
        ...sameLimitFields,
      },
      outputSchema: s.part({
        paneId: z.string(),
        typedChars: s.int,
        keys: z.array(z.string()),
        enter: z.boolean(),
        cursor: z.string(),
        outcome: z.string(),
        match: z.string(),
        where: z.string(),
        readiness: s.object,
        delta: s.object,
      }),
      annotations: ANNOTATIONS.send_keys,
    },
    async (input, extra) => {
      try {
        const enter = input.enter ?? false;
        if (input.input !== undefined && (input.text !== undefined || input.keys !== undefined)) {
          throw new PanescopeError("bad-input", "give input (the ordered steps) or the shorthand text/keys, not both");
        }
        if (input.text !== undefined) requireSendable("text", input.text, 'press it as the key "C-Space" instead');
        const steps: Step[] = input.input ? [...input.input.map((step) => (typeof step === "string" ? step : { text: step.text })), ...(enter ? ["Enter"] : [])] : shorthandSteps(input.text, input.keys ?? [], enter);
        const typing = typingOf(steps, "input");
        const condition = input.wait && conditionOf(input.wait, ctx.maxWaitMs, "wait.");
        await refuseOwnPane(ctx, input.paneId, "types into", extra.signal);
        if (input.cursor !== undefined) await ctx.hub.resolvePane(input.paneId, input.cursor);
        const limits = limitsOf(input);
        // A watch that cannot start leaves the keys unwatched, but a server that did not answer in
        // time fails the call: send-keys would wait out another limit.
        const observer = await ctx.hub.observer(input.paneId).catch((error: unknown) => {
          if (isPanescopeError(error, "timeout")) throw error;
          return undefined;
        });
        if (observer?.closed) await refuseEnded(ctx, input.paneId, observer);
        // Just before the keys: with a cursor and no wait, the answer is what came since it, up to here.
        const before = await (observer && (input.cursor !== undefined && !condition ? ctx.hub.capture({ cursor: input.cursor, limits }) : observer.read(undefined, { maxLines: 0 })))?.catch((error: unknown) => {
          if (input.cursor !== undefined) throw error; // a bad cursor is the caller's to fix
          return undefined;
        });
        // Cancelled, the tmux client is killed before tmux can type (server.ts runMany).
        await ctx.server.runMany(typing.commands.map((args) => ["send-keys", "-t", input.paneId, ...args]), { signal: extra.signal }).catch((error: unknown) => {
          // tmux 3.2a–3.7c: "can't find pane: %N" (exit 1), before anything is typed.
          if (isPanescopeError(error, "command-failed") && /can't find pane/.test(error.message)) {
            throw new PanescopeError("unknown-pane", `no pane ${input.paneId} on this tmux server: list_panes shows the panes there are`);
          }
          throw error;
        });
        if (before) ctx.typed.remember(input.paneId, before.cursor);
        const sent = { paneId: input.paneId, typedChars: typing.typedChars, keys: typing.keys, enter };
        const said = `sent to ${input.paneId}: ${typing.summary}`;
        if (!observer || !before) return ok(sent, said);
        if (!condition) {
          if (input.cursor === undefined) return ok({ ...sent, cursor: before.cursor }, `${said}\ncursor (from before sending): ${before.cursor}`);
          return ok({ ...sent, cursor: before.cursor, delta: structured(before) }, renderDelta(before, { view: input.view ?? "rows", words: ["sent"], lead: [said], knobs: ctx.knobs }));
        }
        const start = input.cursor ?? before.cursor;
        const decided = await waitOn(ctx, [{ observer, start, watch: before.cursor, typed: before.cursor }], condition, limits, callSignal(ctx, extra));
        const { delta, found } = decided;
        const match = found?.screen ?? found?.raw;
        const structuredContent = { ...sent, cursor: delta.cursor, outcome: decided.outcome, ...(match ? { match: match.text, where: match.where } : {}), ...(decided.readiness ? { readiness: decided.readiness } : {}), delta: structured(delta) };
        const lead = [said, ...outcomeLines(decided, condition, screenRowsOf(decided), ctx.knobs)];
        return ok(structuredContent, renderDelta(delta, { view: input.view ?? "rows", words: [decided.outcome], lead, knobs: ctx.knobs }));
      } catch (error) {
        return fail(error, ctx.failContext);
      }
    },
  );
};
