// The raw view of a pane: its bytes in a bounded ring at absolute stream offsets, read back as
// escape-stripped text from a cursor's offset and stripper state. Pure: no xterm, no timers.
import { ByteRing } from "./ring.js";
import { initialStripState, stripEscapes, type StripState } from "./strip.js";

export interface RawSince {
  text: string;
  /** The stripper's state at the end of the read: it goes into the next cursor. */
  state: StripState;
  /** Bytes between the offset and the read that the ring no longer holds. */
  missed: number;
  /** Bytes read, before stripping. */
  bytes: number;
}

export class RawStream {
  private readonly ring: ByteRing;
  /** Absolute offset of the ring's offset 0 (a successor observer continues after its predecessor). */
  readonly base: number;
  /** The stripper state at one offset, advanced lazily: what a first read's cursor carries. */
  private mark: { offset: number; state: StripState };

  constructor(capacity: number | undefined, base = 0) {
    this.ring = new ByteRing(capacity);
    this.base = base;
    this.mark = { offset: base, state: initialStripState };
  }

  /** Bytes the ring holds at most: a read view of this stream keeps as many (view.ts). */
  get capacity(): number {
    return this.ring.capacity;
  }

  /** Absolute offset after the last byte received. */
  get end(): number {
    return this.base + this.ring.end;
  }

  append(bytes: Uint8Array): void {
    this.ring.append(bytes);
  }

  /** Text from `offset` (in stripper `state`) to `to`; evicted bytes are counted, not guessed. */
  since(offset: number, state: StripState, to: number): RawSince {
    const read = this.ring.read(offset - this.base, to - this.base);
    // After a gap the stripper state is unknown: start afresh (the reader is told of the gap).
    const stripped = stripEscapes(read.bytes, read.missed > 0 ? initialStripState : state);
    this.mark = { offset: to, state: stripped.state };
    return { text: stripped.text, state: stripped.state, missed: read.missed, bytes: read.bytes.length };
  }

  /** The stripper state at `to`, for a cursor issued without reading. */
  stateAt(to: number): StripState {
    if (this.mark.offset < to) {
      const read = this.ring.read(Math.max(0, this.mark.offset - this.base), to - this.base);
      const state = read.missed > 0 ? initialStripState : this.mark.state;
      this.mark = { offset: to, state: stripEscapes(read.bytes, state).state };
    }
    return this.mark.state;
  }
}
