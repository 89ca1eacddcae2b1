// The cursor rule, shared by every tool that takes a cursor: it answers everything since that
// cursor as capture_since does (rows changed, raw by view, every missed/closed flag, truncation)
// and returns the cursor that follows its answer. Here: the limit arguments those tools share, and
// a delta as structuredContent (the text is render.ts's).
import { z } from "zod";
import type { Delta, ReadLimits } from "../observe/read/delta.js";
import type { View } from "./render.js";
import * as s from "./schemas.js";

/** Without maxBytes an answer still stays bounded (a `cat` of a large file would flood the agent). */
export const DEFAULT_MAX_BYTES = 256 * 1024;

/** view, maxLines, maxBytes: how much of a delta an answer carries and what its text shows. */
export const limitFields = {
  view: z.enum(["rows", "raw", "both"]).optional().describe("What the text shows; default rows."),
  maxLines: s.maxLines.optional().describe("Keep at most this many rows, the bottom-most."),
  maxBytes: s.maxBytes.optional().describe("Budget for the pane content of the answer (text and structured each), view's part first."),
};

/** The same, undescribed: for tools whose description says "as capture_since" (the tool list is paid for). */
export const sameLimitFields = {
  view: z.enum(["rows", "raw", "both"]).optional(),
  maxLines: s.maxLines.optional(),
  maxBytes: s.maxBytes.optional(),
};

export interface LimitInput {
  view?: View | undefined;
  maxLines?: number | undefined;
  maxBytes?: number | undefined;
}

/** The read limits of a call: the byte budget goes first to what the text shows. */
export function limitsOf(input: LimitInput): ReadLimits {
  return {
    maxLines: input.maxLines,
    maxBytes: input.maxBytes ?? DEFAULT_MAX_BYTES,
    prefer: input.view ?? "rows",
  };
}

/** A delta as structuredContent: the patch is the text's view of the rows, left out. */
export function structured(delta: Delta): Omit<Delta, "patch"> {
  const { patch: _, ...rest } = delta;
  return rest;
}

