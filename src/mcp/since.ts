// The cursor rule, shared by every tool that takes a cursor: it answers everything since that
// cursor as capture_since does (rows changed, raw by view, every missed/closed flag, truncation)
// and returns the cursor that follows its answer. Here: the limit arguments those tools share
// (their meaning, and a delta as structuredContent: limits.ts).
import { z } from "zod";
import { DEFAULT_MAX_BYTES } from "./limits.js";
import * as s from "./schemas.js";

export { DEFAULT_MAX_BYTES, limitsOf, structured, type LimitInput } from "./limits.js";

/** view, maxLines, maxBytes: how much of a delta an answer carries and what its text shows. */
export const limitFields = {
  view: z.enum(["rows", "raw", "both"]).optional().describe("What the text shows; default rows."),
  maxLines: s.maxLines.optional().describe("At most this many rows, the bottom-most; cut rows are counted, never resent."),
  maxBytes: s.maxBytes.optional().describe(`Bytes of pane content per answer (default ${DEFAULT_MAX_BYTES}), view's part first.`),
};

/** The same, undescribed: for tools whose description says "as capture_since" (the tool list is paid for). */
export const sameLimitFields = {
  view: z.enum(["rows", "raw", "both"]).optional(),
  maxLines: s.maxLines.optional(),
  maxBytes: s.maxBytes.optional(),
};
