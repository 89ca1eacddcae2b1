// StdioFramer: bounded newline framing for the MCP stdio stream (pure: bytes in, lines out; the
// control stream's framer is tmux/framing.ts's LineFramer). A line longer than the limit is
// skipped as it streams in: only its first and last bytes are kept (to recover a request id), so
// memory stays at the limit however long the line is. The SDK's ReadBuffer instead concatenates
// every chunk into one buffer (quadratic) and gives up on the whole stream.

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
/** Bytes kept from each end of a skipped line. */
export const KEPT_BYTES = 1024;

export type Framed =
  /** A complete line, decoded as UTF-8, without its \n (and \r). Empty lines are not reported. */
  | { kind: "line"; text: string }
  /** A line over the limit, skipped: its size and its first and last KEPT_BYTES bytes. */
  | { kind: "oversized"; bytes: number; head: string; tail: string };

const NEWLINE = 0x0a;

export class StdioFramer {
  private pieces: Uint8Array[] = [];
  private size = 0;
  /** Set while skipping an oversized line. */
  private skipping: { bytes: number; head: Uint8Array; tail: Uint8Array } | undefined;

  constructor(readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  /** Bytes of an unfinished line held now (at most maxLineBytes + KEPT_BYTES). */
  get pending(): number {
    return this.skipping ? this.skipping.head.length + this.skipping.tail.length : this.size;
  }

  push(chunk: Uint8Array): Framed[] {
    const out: Framed[] = [];
    let from = 0;
    while (from < chunk.length) {
      const at = chunk.indexOf(NEWLINE, from);
      const end = at === -1 ? chunk.length : at;
      this.take(chunk.subarray(from, end));
      if (at === -1) break;
      const framed = this.finish();
      if (framed) out.push(framed);
      from = at + 1;
    }
    return out;
  }

  /** The stream ended: the size of an unfinished line that is dropped (0 if none). */
  end(): number {
    const dropped = this.skipping ? this.skipping.bytes : this.size;
    this.reset();
    return dropped;
  }

  private take(part: Uint8Array): void {
    if (part.length === 0) return;
    if (this.skipping) {
      this.skipping.bytes += part.length;
      this.skipping.tail = lastBytes(this.skipping.tail, part);
      return;
    }
    if (this.size + part.length <= this.maxLineBytes) {
      // Copy: the caller may reuse the chunk's memory; a subarray would also pin the whole chunk.
      this.pieces.push(new Uint8Array(part));
      this.size += part.length;
      return;
    }
    const held = concat(this.pieces, this.size);
    this.skipping = { bytes: this.size + part.length, head: concat([held, part], KEPT_BYTES), tail: lastBytes(held, part) };
    this.pieces = [];
    this.size = 0;
  }

  private finish(): Framed | undefined {
    const skipped = this.skipping;
    if (skipped) {
      this.reset();
      return { kind: "oversized", bytes: skipped.bytes, head: decode(skipped.head), tail: decode(skipped.tail) };
    }
    const text = decode(concat(this.pieces, this.size)).replace(/\r$/, "");
    this.reset();
    return text.trim() === "" ? undefined : { kind: "line", text };
  }

  private reset(): void {
    this.pieces = [];
    this.size = 0;
    this.skipping = undefined;
  }
}

/** The first `limit` bytes of the pieces joined. */
function concat(pieces: readonly Uint8Array[], limit: number): Uint8Array {
  const out = new Uint8Array(Math.min(limit, pieces.reduce((n, p) => n + p.length, 0)));
  let at = 0;
  for (const piece of pieces) {
    if (at >= out.length) break;
    const part = piece.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The last KEPT_BYTES bytes of `before` followed by `part`. */
function lastBytes(before: Uint8Array, part: Uint8Array): Uint8Array {
  if (part.length >= KEPT_BYTES) return new Uint8Array(part.subarray(part.length - KEPT_BYTES));
  const keep = Math.min(before.length, KEPT_BYTES - part.length);
  const out = new Uint8Array(keep + part.length);
  out.set(before.subarray(before.length - keep), 0);
  out.set(part, keep);
  return out;
}

const decoder = new TextDecoder("utf-8");
function decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
