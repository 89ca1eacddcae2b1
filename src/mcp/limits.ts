// A read's limits and what bounds the inputs, without zod: the engine's front (engine/front.ts)
// answers reads on the thread that reads stdin and must not load it. The schemas use the same bounds.
import type { Delta, ReadLimits } from "../observe/read/delta.js";
import type { View } from "./render.js";

export const MAX_CURSOR_CHARS = 200;
export const MAX_LINES = 10_000;
export const MAX_BYTES = 4 * 1024 * 1024;

/** Without maxBytes an answer still stays bounded (a `cat` of a large file would flood the agent). */
export const DEFAULT_MAX_BYTES = 256 * 1024;

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

