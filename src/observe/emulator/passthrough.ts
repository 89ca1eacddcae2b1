// Strings tmux reads and never draws, which xterm would draw or obey: the replica's parser gets
// the output without them (tmux's input.c, the same tables 3.2a–3.7c).
//  - tmux's passthrough, `ESC P tmux; … ESC \` with every ESC inside doubled, carries sequences for
//    the terminal outside tmux (forwarded with allow-passthrough, else dropped). Inside a DCS, tmux
//    reads ESC then anything but `\` as data; xterm ended it at the first ESC and obeyed what
//    follows (`ESC ESC [31m` turned the text after it red, a cursor move moved the cursor).
//  - screen's window name, `ESC k NAME ESC \` (a common prompt recipe): tmux reads NAME as a
//    string up to the next ESC (or CAN/SUB); xterm ignores `ESC k` and printed NAME on the screen.
// Streaming: a start cut between two writes is held until the next write decides it (at most 6
// bytes). Pure.
import { joinBytes } from "../../bytes.js";

const ESC = 0x1b;
const CAN = 0x18;
const SUB = 0x1a;
const BACKSLASH = 0x5c;
const PASSTHROUGH = Uint8Array.from(Buffer.from("\x1bPtmux;"));
const RENAME = Uint8Array.from(Buffer.from("\x1bk"));

export class PassthroughFilter {
  /** Inside a string whose bytes are dropped, up to its end. */
  private inside: "passthrough" | "rename" | undefined;
  /** Inside a passthrough, the byte before was an ESC: `\` ends it, anything else is its data. */
  private escaped = false;
  /** The end of the last write, which may begin a passthrough the next write goes on with. */
  private held: Uint8Array | undefined;

  /** Bytes are held or dropped now: output parsed around this filter would come out of order. */
  get busy(): boolean {
    return this.inside !== undefined || this.held !== undefined;
  }

  /** The bytes of `data` the parser gets, in order: those strings left out, a cut start held back. */
  filter(data: Uint8Array): Uint8Array {
    let bytes = data;
    if (this.held !== undefined) {
      bytes = joinBytes([this.held, data]);
      this.held = undefined;
    }
    // Nearly every write: no string under way and no ESC that could start one.
    if (this.inside === undefined && bytes.indexOf(ESC) < 0) return bytes;
    const kept: Uint8Array[] = [];
    let at = 0;
    while (at < bytes.length) {
      if (this.inside === "passthrough") {
        at = this.skipPassthrough(bytes, at);
        continue;
      }
      if (this.inside === "rename") {
        at = this.skipRename(bytes, at);
        continue;
      }
      const passthrough = indexOf(bytes, PASSTHROUGH, at);
      const rename = indexOf(bytes, RENAME, at);
      const start = passthrough < 0 ? rename : rename < 0 ? passthrough : Math.min(passthrough, rename);
      if (start < 0) {
        const cut = startCut(bytes, at);
        kept.push(bytes.subarray(at, bytes.length - cut));
        if (cut > 0) this.held = bytes.slice(bytes.length - cut);
        break;
      }
      kept.push(bytes.subarray(at, start));
      this.inside = start === passthrough ? "passthrough" : "rename";
      this.escaped = false;
      at = start + (start === passthrough ? PASSTHROUGH.length : RENAME.length);
    }
    return joinBytes(kept);
  }

  /** Drops passthrough bytes from `at`; returns where the output after its `ESC \` begins. */
  private skipPassthrough(bytes: Uint8Array, at: number): number {
    for (let i = at; i < bytes.length; i++) {
      if (this.escaped) {
        this.escaped = false;
        if (bytes[i] === BACKSLASH) {
          this.inside = undefined;
          return i + 1;
        }
      } else if (bytes[i] === ESC) this.escaped = true;
    }
    return bytes.length;
  }

  /**
   * Drops a window name's bytes from `at`; returns where its end begins: the ESC (or CAN, SUB) that
   * ends it is kept, as tmux reads it as the start of what follows (an `ESC \` xterm then ignores).
   */
  private skipRename(bytes: Uint8Array, at: number): number {
    for (let i = at; i < bytes.length; i++) {
      const b = bytes[i];
      if (b === ESC || b === CAN || b === SUB) {
        this.inside = undefined;
        return i;
      }
    }
    return bytes.length;
  }
}

function indexOf(bytes: Uint8Array, pattern: Uint8Array, from: number): number {
  return Buffer.prototype.indexOf.call(bytes, pattern, from) as number;
}

/** How many bytes at the end of `bytes` (from `at`) are the beginning of a passthrough's start. */
function startCut(bytes: Uint8Array, at: number): number {
  for (let length = Math.min(PASSTHROUGH.length - 1, bytes.length - at); length > 0; length--) {
    let match = true;
    for (let i = 0; i < length && match; i++) match = bytes[bytes.length - length + i] === PASSTHROUGH[i];
    if (match) return length;
  }
  return 0;
}
