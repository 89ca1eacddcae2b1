// A pane's raw output with absolute byte offsets: the long memory behind `raw` and cursors.
// Stored as 64 KiB blocks aligned to absolute offsets, allocated as output arrives (the first block
// grows by doubling) and dropped whole once evicted, so an idle pane costs bytes, not the capacity.
// An evicted block is reused for the next one: a flood past the capacity allocates nothing.

import { PanescopeError } from "../../errors.js";

export const BLOCK_SIZE = 64 * 1024;
export const DEFAULT_RING_CAPACITY = 1024 * 1024;
const MIN_BLOCK = 1024;

export interface RingRead {
  /** The retained bytes of [from, to): a copy, safe to keep. */
  bytes: Uint8Array;
  /** Effective start: the requested `from` moved past what was evicted (`from + missed`). */
  from: number;
  /** Bytes of the requested range that were evicted before this read (exact). */
  missed: number;
}

export class ByteRing {
  readonly capacity: number;
  #start = 0;
  #end = 0;
  /** blocks[i] holds absolute offsets [(firstBlock + i) * BLOCK_SIZE, …); only the last grows. */
  #blocks: Uint8Array[] = [];
  #firstBlock = 0;
  /** The last block evicted, kept for the next new block. */
  #spare: Uint8Array | undefined;

  constructor(capacity = DEFAULT_RING_CAPACITY) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) {
      throw new PanescopeError("bad-input", `ring capacity must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /** Oldest retained offset. */
  get start(): number {
    return this.#start;
  }

  /** Offset just after the last byte appended (total bytes ever appended). */
  get end(): number {
    return this.#end;
  }

  /** Blocks currently allocated (for tests and memory accounting). */
  get blockCount(): number {
    return this.#blocks.length;
  }

  /** Bytes currently allocated for storage (the spare block too), always ≤ capacity + 3 blocks. */
  get allocatedBytes(): number {
    let total = this.#spare?.length ?? 0;
    for (const block of this.#blocks) total += block.length;
    return total;
  }

  append(bytes: Uint8Array): void {
    let src = bytes;
    if (src.length > this.capacity) {
      // Everything retained and the head of this chunk are evicted at once: keep only its tail.
      this.#end += src.length - this.capacity;
      src = src.subarray(src.length - this.capacity);
      this.#blocks = [];
      this.#spare = undefined;
    }
    if (this.#blocks.length === 0) this.#firstBlock = Math.floor(this.#end / BLOCK_SIZE);

    let pos = 0;
    while (pos < src.length) {
      const index = Math.floor(this.#end / BLOCK_SIZE) - this.#firstBlock;
      const within = this.#end % BLOCK_SIZE;
      const count = Math.min(src.length - pos, BLOCK_SIZE - within);
      const block = this.#blockFor(index, within + count);
      block.set(src.subarray(pos, pos + count), within);
      pos += count;
      this.#end += count;
    }

    this.#start = Math.max(this.#start, this.#end - this.capacity);
    while (this.#blocks.length > 0 && (this.#firstBlock + 1) * BLOCK_SIZE <= this.#start) {
      const evicted = this.#blocks.shift();
      if (evicted?.length === BLOCK_SIZE) this.#spare = evicted;
      this.#firstBlock += 1;
    }
  }

  /**
   * The bytes of [from, to). Evicted bytes are counted in `missed`, so
   * `missed + bytes.length === to - from` always holds.
   */
  read(from: number, to: number = this.#end): RingRead {
    if (!Number.isSafeInteger(from) || from < 0 || !Number.isSafeInteger(to) || to < 0) {
      throw new PanescopeError("bad-input", `ring offsets must be non-negative integers, got ${from}..${to}`);
    }
    if (from > this.#end || to > this.#end) {
      throw new PanescopeError(
        "bad-input",
        `offset ${Math.max(from, to)} is beyond the end of the stream (${this.#end}): omit \`cursor\` to start again`,
      );
    }
    if (to < from) throw new PanescopeError("bad-input", `read range is reversed: ${from}..${to}`);

    const effective = Math.min(Math.max(from, this.#start), to);
    const out = new Uint8Array(to - effective);
    let offset = effective;
    while (offset < to) {
      const block = this.#blocks[Math.floor(offset / BLOCK_SIZE) - this.#firstBlock];
      if (block === undefined) throw new PanescopeError("internal", `ring block missing for offset ${offset}`);
      const within = offset % BLOCK_SIZE;
      const count = Math.min(to - offset, BLOCK_SIZE - within);
      out.set(block.subarray(within, within + count), offset - effective);
      offset += count;
    }
    return { bytes: out, from: effective, missed: effective - from };
  }

  /** The block at `index`, created or grown so that it holds at least `needed` bytes. */
  #blockFor(index: number, needed: number): Uint8Array {
    const existing = this.#blocks[index];
    if (existing !== undefined && existing.length >= needed) return existing;
    if (existing === undefined && index > 0) {
      // Output went past a whole block: it comes in bulk, so take a whole one (no growing by doubling).
      const block = this.#spare ?? new Uint8Array(BLOCK_SIZE);
      this.#spare = undefined;
      this.#blocks[index] = block;
      return block;
    }
    let size = Math.max(MIN_BLOCK, existing?.length ?? 0);
    while (size < needed) size *= 2;
    const grown = new Uint8Array(Math.min(size, BLOCK_SIZE));
    if (existing !== undefined) grown.set(existing);
    this.#blocks[index] = grown;
    return grown;
  }
}
