// send_keys: literal text and/or validated tmux key names to a pane, through one-shot `tmux
// send-keys` argv (no shell, no tmux command parsing of the text): one tmux process per call, its
// commands run back to back (a fork holds the event loop 4–20 ms, and a storm of agents typing
// queued every other one-shot call behind theirs).
import { z } from "zod";
import { isPanescopeError, PanescopeError } from "../../errors.js";
import { validateKeyName, MAX_KEY_NAME_LENGTH } from "../../tmux/keys.js";
import { ANNOTATIONS, TITLES, type ToolRegistrar } from "../context.js";
import { refuseOwnPane } from "../panes.js";
import { fail, ok } from "../results.js";
import * as s from "../schemas.js";
import { requireSendable } from "../strings.js";

export const MAX_TEXT_CHARS = 16 * 1024;
export const MAX_KEYS = 100;

const DESCRIPTION = `Type into a pane: text, literally (never read as keys, tmux commands or shell), then keys (tmux names: Enter Escape Tab BSpace Up Down Left Right Home End PageUp PageDown F1..F12 Space C-c M-x C-S-Up, or one character; S- only with named keys), then Enter if enter. A newline in text is LF (Ctrl-J); with enter, an Enter press. No NUL (press C-Space). Returns a cursor from before sending. Never types into panescope's own pane.`;

/** With enter: line breaks become carriage returns (what the Enter key sends), one trailing break dropped. */
export function literalFor(text: string, enter: boolean): string {
  if (!enter) return text;
  return text.replace(/\r?\n$/, "").replace(/\r?\n/g, "\r");
}

export const registerSendKeys: ToolRegistrar = (mcp, ctx) => {
  mcp.registerTool(
    "send_keys",
    {
      title: TITLES.send_keys,
      description: DESCRIPTION,
      inputSchema: {
        paneId: s.paneId,
        text: z.string().max(MAX_TEXT_CHARS, `text is at most ${MAX_TEXT_CHARS} characters: send long input in parts`).optional(),
        keys: z
          .array(z.string().max(MAX_KEY_NAME_LENGTH, `a key name is at most ${MAX_KEY_NAME_LENGTH} characters: send text with the text field`))
          .max(MAX_KEYS, `at most ${MAX_KEYS} keys per call`)
          .optional()
          .describe('One key per entry, e.g. ["Escape", ":", "q", "Enter"].'),
        enter: z.boolean().optional(),
      },
      outputSchema: s.part({
        paneId: z.string(),
        typedChars: s.int,
        keys: z.array(z.string()),
        enter: z.boolean(),
        cursor: z.string(),
      }),
      annotations: ANNOTATIONS.send_keys,
    },
    async (input, extra) => {
      try {
        const enter = input.enter ?? false;
        if (input.text !== undefined) requireSendable("text", input.text, 'press it as the key "C-Space" instead');
        const keys = (input.keys ?? []).map(validateKeyName);
        if (input.text === undefined && keys.length === 0 && !enter) throw new PanescopeError("bad-input", "nothing to send: give text, keys, or enter: true");
        await refuseOwnPane(ctx, input.paneId, "types into");
        // A cursor from before the keys: the agent can read exactly what they caused.
        const cursor = await ctx.hub
          .observer(input.paneId)
          .then((observer) => observer.read(undefined, { maxLines: 0 }))
          .then((delta) => delta.cursor, () => undefined);
        const literal = input.text === undefined ? "" : literalFor(input.text, enter);
        const target = ["-t", input.paneId];
        const sends = [
          ...(literal === "" ? [] : [["send-keys", ...target, "-l", "--", literal]]),
          ...(keys.length === 0 ? [] : [["send-keys", ...target, "--", ...keys]]),
          ...(enter ? [["send-keys", ...target, "Enter"]] : []),
        ];
        // Cancelled, the tmux client is killed before tmux can type (server.ts runMany).
        await ctx.server.runMany(sends, { signal: extra.signal }).catch((error: unknown) => {
          // tmux 3.2a–3.7c: "can't find pane: %N" (exit 1), before anything is typed.
          if (isPanescopeError(error, "command-failed") && /can't find pane/.test(error.message)) {
            throw new PanescopeError("unknown-pane", `no pane ${input.paneId} on this tmux server: list_panes shows the panes there are`);
          }
          throw error;
        });
        const structured = { paneId: input.paneId, typedChars: [...literal].length, keys, enter, ...(cursor === undefined ? {} : { cursor }) };
        const what = [literal !== "" && `${structured.typedChars} characters of text`, keys.length > 0 && `keys ${keys.join(" ")}`, enter && "Enter"].filter(Boolean).join(", then ");
        return ok(structured, `sent to ${input.paneId}: ${what}${cursor ? `\ncursor (from before sending): ${cursor}` : ""}`);
      } catch (error) {
        return fail(error, ctx.failContext);
      }
    },
  );
};
