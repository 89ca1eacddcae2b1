// Reading requests from stdin stops while anything holds it: the answers waiting for a client that
// does not read them (a reader that stops must not make the server's memory grow without bound),
// or the engine thread's input being full (engine/front.ts). Each holder releases only its own
// hold, so one cause ending never resumes reading while another still holds.
import type { Readable } from "node:stream";

/** Why stdin is not read: answers wait for the client; requests wait for the engine thread. */
export type HoldReason = "answers" | "engine";

export class InputHold {
  private readonly reasons = new Set<HoldReason>();

  constructor(private readonly input: Pick<Readable, "pause" | "resume">) {}

  holds(reason: HoldReason): boolean {
    return this.reasons.has(reason);
  }

  hold(reason: HoldReason): void {
    if (this.reasons.size === 0) this.input.pause();
    this.reasons.add(reason);
  }

  release(reason: HoldReason): void {
    if (this.reasons.delete(reason) && this.reasons.size === 0) this.input.resume();
  }
}

/** Said once on stderr the first time answers hold stdin (a client that never reads again hangs here). */
export const NOT_READING_NOTICE = "the client is not reading its answers: no more requests are read until it does (said once)";
