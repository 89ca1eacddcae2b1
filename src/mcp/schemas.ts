// Zod pieces shared by several tools: pane ids, cursors, limits, and the shapes of rows and screens.
// Inputs carry the bounds and messages an agent needs; outputs are types only (the tool
// descriptions say what the fields mean, once): every tool list costs the agent its size.
import { z } from "zod";
import { canonicalPaneId, outOfRange, paneNumberInRange } from "../tmux/pane-id.js";

import { MAX_BYTES, MAX_CURSOR_CHARS, MAX_LINES } from "./limits.js";

export { MAX_BYTES, MAX_CURSOR_CHARS, MAX_LINES } from "./limits.js";

export const paneId = z
  .string({ error: (issue) => `paneId ${issue.input === undefined ? "is required" : "is a string"}: a tmux pane id like "%3" (list_panes shows them)` })
  .max(32, { error: "paneId is a tmux pane id like %3 (list_panes shows them)", abort: true })
  .regex(/^%\d+$/, "paneId must be a tmux pane id like %3: a % and digits, nothing else (list_panes shows them)")
  // tmux reads %03 as %3: every tool sees one spelling, so no comparison can tell them apart.
  .overwrite(canonicalPaneId)
  .refine(paneNumberInRange, { error: (issue) => `${outOfRange(String(issue.input))} (list_panes shows the panes there are)` });

/** A cursor, undescribed: for tools whose description already says where cursors come from. */
export const bareCursor = z
  .string()
  .min(1, "cursor is empty: omit it to start watching, or pass the cursor of a previous result")
  .max(MAX_CURSOR_CHARS, `cursor is longer than any panescope cursor (${MAX_CURSOR_CHARS} characters): pass the cursor string of a previous result, or omit it to start again`)
;

export const cursor = bareCursor.describe("From your last answer; do not edit. Omit to start.");

export function waitMs(capMs: number): z.ZodNumber {
  return z
    .number()
    .int("waitMs must be a whole number of milliseconds")
    .min(0, "waitMs cannot be negative: pass 0 to answer at once, or up to the cap to wait for output")
    .describe(`If nothing changed, wait up to this many ms (default 0, cap ${capMs}).`);
}

export const maxLines = z
  .number()
  .int("maxLines must be a whole number")
  .min(0, "maxLines cannot be negative")
  .max(MAX_LINES, `maxLines is at most ${MAX_LINES}`);

export const maxBytes = z
  .number()
  .int("maxBytes must be a whole number")
  .min(1, "maxBytes must be at least 1")
  .max(MAX_BYTES, `maxBytes is at most ${MAX_BYTES}`);



/** An integer in an answer (tool-list.ts leaves out the ±2^53 bounds zod gives it). */
export const int = z.number().int();

/** A nested output object: its fields typed, none listed as required (the description says which). */
export function part<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape).partial();
}

export const row = part({ line: int, text: z.string() });


export const exit = part({ status: int, signal: z.string() });

/** An object whose fields another tool's schema already spells out (e.g. capture_since's screen). */
export const object = z.looseObject({});

/** `capped`: the pane's real { cols, rows } when it is bigger than panescope emulates (docs/contract.md). */
export const screen = part({ cols: int, rows: int, top: int, cursorX: int, cursorY: int, alternate: z.boolean(), capped: object });
