// capture_since's result for a delta: structuredContent with the wait's report, and the text
// rendering. Without zod: the engine's front (engine/front.ts) answers plain reads with it too, so
// an answer is the same whichever thread gives it.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isEmpty, type Delta } from "../observe/read/delta.js";
import { structured } from "./limits.js";
import { renderDelta, type Knobs, type View, type WaitReport } from "./render.js";
import { ok } from "./results.js";

export interface CaptureCall {
  /** The cursor given, if any. */
  cursor: string | undefined;
  /** waitMs as asked, and the server's cap on it. */
  requestedWaitMs: number;
  maxWaitMs: number;
  aborted: boolean;
  view: View | undefined;
  /** The names of the knobs the text's notes point at (default: MCP's arguments). */
  knobs?: Knobs;
}

export function captureResult(answer: Delta, call: CaptureCall): CallToolResult {
  const delta = structured(answer);
  const waitMs = Math.min(call.requestedWaitMs, call.maxWaitMs);
  const waited = call.cursor !== undefined && waitMs > 0;
  const wait: WaitReport = {
    waitMs,
    waitCapMs: call.maxWaitMs,
    waitClamped: call.requestedWaitMs > call.maxWaitMs,
    waitEnded: !waited ? "none" : call.aborted ? "aborted" : isEmpty(delta) ? "timeout" : "change",
  };
  const text = renderDelta(answer, { given: call.cursor, wait, view: call.view ?? "rows", knobs: call.knobs });
  return ok({ ...delta, ...wait }, text);
}
