// The front's framing of stdin (front.ts): lines short enough to be a read it may answer come out
// whole; every other byte is passed on as it came, for the engine thread's own framing
// (stdio-framer.ts) to judge. Pure: bytes in, lines and pass-through bytes out. Bounded: a long
// line is never held, only passed on.
import { joinBytes } from "../../bytes.js";

/** A plain capture_since request is a few hundred bytes: longer lines are the engine's. */
export const MAX_FRONT_LINE_BYTES = 64 * 1024;

const NEWLINE = 0x0a;

export type FrontInput =
  /** A complete line (its \n not included) the front may answer; else it passes it on with a \n. */
  | { kind: "line"; bytes: Uint8Array }
  /** Bytes to pass on unchanged (part of a long line, its \n included once it came). */
  | { kind: "pass"; bytes: Uint8Array };

export class FrontLines {
  private pending: Uint8Array[] = [];
  private size = 0;
  /** Set while passing on a long line, until its \n. */
  private passing = false;

  push(chunk: Uint8Array): FrontInput[] {
    const out: FrontInput[] = [];
    let from = 0;
    while (from < chunk.length) {
      const at = chunk.indexOf(NEWLINE, from);
      const end = at === -1 ? chunk.length : at;
      const part = chunk.subarray(from, end);
      if (this.passing) {
        out.push({ kind: "pass", bytes: chunk.subarray(from, at === -1 ? end : at + 1) });
        if (at !== -1) this.passing = false;
      } else if (this.size + part.length > MAX_FRONT_LINE_BYTES) {
        out.push({ kind: "pass", bytes: joinBytes([...this.take(), chunk.subarray(from, at === -1 ? end : at + 1)]) });
        this.passing = at === -1;
      } else if (at === -1) {
        this.pending.push(part.slice());
        this.size += part.length;
      } else {
        out.push({ kind: "line", bytes: joinBytes([...this.take(), part]) });
      }
      if (at === -1) break;
      from = at + 1;
    }
    return out;
  }

  /** The stream ended: what is left of an unfinished line, to pass on as it is. */
  end(): Uint8Array {
    this.passing = false;
    return joinBytes(this.take());
  }

  private take(): Uint8Array[] {
    const taken = this.pending;
    this.pending = [];
    this.size = 0;
    return taken;
  }
}
