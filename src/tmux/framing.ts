// Pure framing: a byte stream → complete lines (split on 0x0A), carrying a partial line between
// chunks. The carried line is bounded so a peer that never sends a newline cannot exhaust memory.

/**
 * One framing result: a complete line (without its "\n"), or notice that a line was too long. Line
 * bytes may view the pushed chunk (no copy): consume them before that buffer is reused.
 */
export type Frame =
  | { kind: "line"; bytes: Uint8Array }
  | { kind: "overflow"; limit: number }
  /** Bytes left without a final newline when the stream ended. */
  | { kind: "partial"; bytes: Uint8Array };

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

const NL = 0x0a;

export class LineFramer {
  readonly maxLineBytes: number;
  // The partial line is kept as a list of pieces (joined once at the newline) so a long line
  // arriving in many small chunks costs O(n), not O(n²) copying.
  private pieces: Uint8Array[] = [];
  private carried = 0;
  // After an overflow, everything up to the next newline is discarded.
  private skipping = false;

  constructor(options: { maxLineBytes?: number } = {}) {
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.maxLineBytes = Number.isFinite(max) && max >= 1 ? Math.floor(max) : DEFAULT_MAX_LINE_BYTES;
  }

  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NL, start);
      const stop = nl === -1 ? chunk.length : nl;
      if (this.skipping) {
        if (nl !== -1) this.skipping = false;
      } else if (this.carried + (stop - start) > this.maxLineBytes) {
        frames.push({ kind: "overflow", limit: this.maxLineBytes });
        this.reset();
        this.skipping = nl === -1;
      } else if (nl === -1) {
        // Copy: the caller may reuse its buffer after push returns.
        this.pieces.push(chunk.slice(start, stop));
        this.carried += stop - start;
      } else {
        frames.push({ kind: "line", bytes: this.take(chunk.subarray(start, stop)) });
      }
      if (nl === -1) break;
      start = nl + 1;
    }
    return frames;
  }

  /** The stream ended: report any unterminated bytes (never silently dropped). */
  end(): Frame[] {
    const frames: Frame[] = [];
    if (this.carried > 0) frames.push({ kind: "partial", bytes: this.take(new Uint8Array(0)) });
    this.reset();
    this.skipping = false;
    return frames;
  }

  /**
   * The carried pieces plus `tail` as one array; clears the carry. A line that came whole in one
   * chunk is a view of that chunk, not a copy: read it before the caller reuses its buffer.
   */
  private take(tail: Uint8Array): Uint8Array {
    if (this.carried === 0) return tail;
    const out = new Uint8Array(this.carried + tail.length);
    let at = 0;
    for (const piece of this.pieces) {
      out.set(piece, at);
      at += piece.length;
    }
    out.set(tail, at);
    this.reset();
    return out;
  }

  private reset(): void {
    this.pieces = [];
    this.carried = 0;
  }
}
