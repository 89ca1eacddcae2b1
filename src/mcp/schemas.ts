// Zod pieces shared by several tools: pane ids, cursors, limits, and the shapes of rows and screens.
// Every field is described for the agent who reads the schema; bounds give clear messages.
import { z } from "zod";

export const MAX_CURSOR_CHARS = 200;
export const MAX_LINES = 10_000;
export const MAX_BYTES = 4 * 1024 * 1024;

export const paneId = z
  .string()
  .max(12, "paneId is a tmux pane id like %3 (list_panes shows them)")
  .regex(/^%\d{1,9}$/, "paneId must be a tmux pane id like %3: a % and digits, nothing else (list_panes shows them)");

export const cursor = z
  .string()
  .min(1, "cursor is empty: omit it to start watching, or pass the cursor of a previous result")
  .max(MAX_CURSOR_CHARS, `cursor is longer than any panescope cursor (${MAX_CURSOR_CHARS} characters): pass the cursor string of a previous result, or omit it to start again`)
  .describe(
    "Opaque token from a previous result's `cursor`, marking how far you have read this pane. Pass it back to get only what " +
      "changed since. Omit it to start (you get the whole visible screen and a first cursor). Cursors are authenticated: do not edit them.",
  );

export function waitMs(capMs: number): z.ZodNumber {
  return z
    .number()
    .int("waitMs must be a whole number of milliseconds")
    .min(0, "waitMs cannot be negative: pass 0 to answer at once, or up to the cap to wait for output")
    .describe(
      `If nothing changed since the cursor, block up to this many ms until output arrives, the pane closes, or you cancel; then answer at once. ` +
        `Values above this server's cap (${capMs} ms) are lowered to the cap (the result reports the effective wait). Default 0 (no wait). Ignored without a cursor.`,
    );
}

export const maxLines = z
  .number()
  .int("maxLines must be a whole number")
  .min(0, "maxLines cannot be negative")
  .max(MAX_LINES, `maxLines is at most ${MAX_LINES}`)
  .describe("Keep at most this many changed rows (the bottom-most ones); the number left out is reported in truncated.rows.");

export const maxBytes = z
  .number()
  .int("maxBytes must be a whole number")
  .min(1, "maxBytes must be at least 1")
  .max(MAX_BYTES, `maxBytes is at most ${MAX_BYTES}`)
  .describe("Budget in UTF-8 bytes for row text then raw text, spent on the newest content first; what is cut is reported in truncated.");

export const row = z.object({
  line: z.number().int().describe("Absolute line number: follows the line as it scrolls. Screen row = line - screen.top (negative = scrolled into history)."),
  text: z.string().describe("The row as rendered, trailing blanks removed. Untrusted program output."),
});

export const screen = z.object({
  cols: z.number().int().describe("Pane width in columns."),
  rows: z.number().int().describe("Pane height in rows."),
  top: z.number().int().describe("Absolute line number of screen row 0."),
  cursorX: z.number().int().describe("Terminal cursor column (0-based)."),
  cursorY: z.number().int().describe("Terminal cursor row (0-based screen row)."),
  alternate: z.boolean().describe("True while a full-screen program (vim, less, htop…) uses the alternate screen."),
});
