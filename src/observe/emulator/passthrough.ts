// tmux's passthrough, `ESC P tmux; … ESC \` with every ESC inside doubled, carries sequences for
// the terminal outside tmux: tmux never draws them on its own screen (3.2a–3.7c forward them when
// allow-passthrough is on, else drop them; input.c: inside a DCS, ESC then anything but `\` is
// data). xterm ends a DCS at its first ESC and obeys what follows: `ESC ESC [31m` turned the text
// after it red in the replica, and a cursor move inside moved the replica's cursor. So the replica's
// parser gets the output without them. Streaming: a start cut between two writes is held until the
// next write decides it (at most 6 bytes). Pure.
import { joinBytes } from "../../bytes.js";

const ESC = 0x1b;
const BACKSLASH = 0x5c;
const START = Uint8Array.from(Buffer.from("\x1bPtmux;"));

export class PassthroughFilter {
  /** Inside a passthrough: its bytes are dropped up to its `ESC \`. */
  private inside = false;
  /** Inside, the byte before was an ESC: `\` ends the passthrough, anything else is its data. */
  private escaped = false;
  /** The end of the last write, which may begin a passthrough the next write goes on with. */
  private held: Uint8Array | undefined;

  /** Bytes are held or dropped now: output parsed around this filter would come out of order. */
  get busy(): boolean {
    return this.inside || this.held !== undefined;
  }

  /** The bytes of `data` the parser gets, in order: passthroughs left out, a cut start held back. */
  filter(data: Uint8Array): Uint8Array {
    let bytes = data;
    if (this.held !== undefined) {
      bytes = joinBytes([this.held, data]);
      this.held = undefined;
    }
    // Nearly every write: no passthrough under way and no ESC that could start one.
    if (!this.inside && bytes.indexOf(ESC) < 0) return bytes;
    const kept: Uint8Array[] = [];
    let at = 0;
    while (at < bytes.length) {
      if (this.inside) {
        at = this.skip(bytes, at);
        continue;
      }
      const start = Buffer.prototype.indexOf.call(bytes, START, at) as number;
      if (start < 0) {
        const cut = startCut(bytes, at);
        kept.push(bytes.subarray(at, bytes.length - cut));
        if (cut > 0) this.held = bytes.slice(bytes.length - cut);
        break;
      }
      kept.push(bytes.subarray(at, start));
      this.inside = true;
      this.escaped = false;
      at = start + START.length;
    }
    return joinBytes(kept);
  }

  /** Forgets what was under way (the screen starts over from tmux's). */
  reset(): void {
    this.inside = false;
    this.escaped = false;
    this.held = undefined;
  }

  /** Drops passthrough bytes from `at`; returns where the output after its end begins. */
  private skip(bytes: Uint8Array, at: number): number {
    for (let i = at; i < bytes.length; i++) {
      if (this.escaped) {
        this.escaped = false;
        if (bytes[i] === BACKSLASH) {
          this.inside = false;
          return i + 1;
        }
      } else if (bytes[i] === ESC) this.escaped = true;
    }
    return bytes.length;
  }
}

/** How many bytes at the end of `bytes` (from `at`) are the beginning of a passthrough's start. */
function startCut(bytes: Uint8Array, at: number): number {
  for (let length = Math.min(START.length - 1, bytes.length - at); length > 0; length--) {
    let match = true;
    for (let i = 0; i < length && match; i++) match = bytes[bytes.length - length + i] === START[i];
    if (match) return length;
  }
  return 0;
}
