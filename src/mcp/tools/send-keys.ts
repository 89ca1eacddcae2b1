// send_keys: literal text and/or validated tmux key names to a pane, through one-shot `tmux
// send-keys` argv (no shell, no tmux command parsing of the text).
import { z } from "zod";
import { PanescopeError } from "../../errors.js";
import { validateKeyName, MAX_KEY_NAME_LENGTH } from "../../tmux/keys.js";
import { ANNOTATIONS, type ToolRegistrar } from "../context.js";
import { refuseOwnPane, requirePane } from "../panes.js";
import { fail, ok } from "../results.js";
import * as s from "../schemas.js";
import { requireSendable } from "../strings.js";

export const MAX_TEXT_CHARS = 16 * 1024;
export const MAX_KEYS = 100;

const DESCRIPTION = `Type into a tmux pane: literal text, then tmux key names, then optionally Enter.

- text is typed exactly as given, character by character: never interpreted as key names, tmux commands or shell syntax by panescope (the program in the pane of course receives it). A newline in text is typed as a newline character (LF, like Ctrl-J): a shell at its prompt treats it as end of line, but many full-screen programs and chat-style inputs insert a line break without submitting.
- enter: true presses Enter (the Return key) after text and keys, and also turns each newline in text into an Enter press (a trailing newline does not add a second one). Use it to run a command: {text: "make test", enter: true}.
- keys are tmux key names pressed in order: Enter, Escape, Tab, BSpace, Up, Down, Left, Right, Home, End, PageUp, PageDown, F1..F12, Space, C-c, C-d, M-x, C-S-Up, or one character like q. Only names every supported tmux sends as that key are accepted (S- only with arrows, Home/End, PageUp/PageDown, Insert/Delete and F1..F12); a refused name says why.
- text must be well-formed Unicode without NUL characters (press NUL as the key C-Space).

After sending, read what happened with capture_since or wait_for, passing the returned cursor (taken just before the keys were sent). panescope refuses to type into the pane it runs in.`;

/** With enter: line breaks become carriage returns (what the Enter key sends), one trailing break dropped. */
export function literalFor(text: string, enter: boolean): string {
  if (!enter) return text;
  return text.replace(/\r?\n$/, "").replace(/\r?\n/g, "\r");
}

export const registerSendKeys: ToolRegistrar = (mcp, ctx) => {
  mcp.registerTool(
    "send_keys",
    {
      title: ANNOTATIONS.send_keys.title,
      description: DESCRIPTION,
      inputSchema: {
        paneId: s.paneId.describe("The pane to type into, e.g. %3 (list_panes shows them). Required."),
        text: z.string().max(MAX_TEXT_CHARS, `text is at most ${MAX_TEXT_CHARS} characters: send long input in parts`).optional().describe("Literal text to type (typed as-is; see the tool description for newlines)."),
        keys: z
          .array(z.string().max(MAX_KEY_NAME_LENGTH, `a key name is at most ${MAX_KEY_NAME_LENGTH} characters: send text with the text field`))
          .max(MAX_KEYS, `at most ${MAX_KEYS} keys per call`)
          .optional()
          .describe("tmux key names pressed after text, in order: e.g. [\"C-c\"], [\"Escape\", \":\", \"q\", \"Enter\"]. One key per entry."),
        enter: z.boolean().optional().describe("Press Enter after text and keys; newlines in text become Enter presses too. Default false."),
      },
      outputSchema: {
        paneId: z.string().describe("The pane typed into."),
        typedChars: z.number().int().describe("Characters of literal text sent (after newline handling)."),
        keys: z.array(z.string()).describe("Key names pressed, in tmux's canonical spelling."),
        enter: z.boolean().describe("Whether Enter was pressed at the end."),
        cursor: z.string().optional().describe("A capture_since cursor taken just before the keys were sent: pass it to capture_since or wait_for (in: \"raw\") to see their effect."),
      },
      annotations: ANNOTATIONS.send_keys,
    },
    async (input) => {
      try {
        const enter = input.enter ?? false;
        if (input.text !== undefined) requireSendable("text", input.text, 'press it as the key "C-Space" instead');
        const keys = (input.keys ?? []).map(validateKeyName);
        if (input.text === undefined && keys.length === 0 && !enter) throw new PanescopeError("bad-input", "nothing to send: give text, keys, or enter: true");
        await refuseOwnPane(ctx, input.paneId, "types into");
        await requirePane(ctx.server, input.paneId);
        // A cursor from before the keys: the agent can read exactly what they caused.
        const cursor = await ctx.hub
          .observer(input.paneId)
          .then((observer) => observer.read(undefined, { maxLines: 0 }))
          .then((delta) => delta.cursor, () => undefined);
        const literal = input.text === undefined ? "" : literalFor(input.text, enter);
        const target = ["-t", input.paneId];
        if (literal !== "") await ctx.server.run(["send-keys", ...target, "-l", "--", literal]);
        if (keys.length > 0) await ctx.server.run(["send-keys", ...target, "--", ...keys]);
        if (enter) await ctx.server.run(["send-keys", ...target, "Enter"]);
        const structured = { paneId: input.paneId, typedChars: [...literal].length, keys, enter, ...(cursor === undefined ? {} : { cursor }) };
        const what = [literal !== "" && `${structured.typedChars} characters of text`, keys.length > 0 && `keys ${keys.join(" ")}`, enter && "Enter"].filter(Boolean).join(", then ");
        return ok(structured, `sent to ${input.paneId}: ${what}${cursor ? `\ncursor (from before sending): ${cursor}` : ""}`);
      } catch (error) {
        return fail(error, ctx.failContext);
      }
    },
  );
};
