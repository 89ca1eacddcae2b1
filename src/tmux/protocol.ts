// Pure control-mode parser (tmux -C): bytes in, typed ControlEvents out. No process, no timers.
// Pane output is decoded on bytes (never through JS strings); reply lines are decoded as UTF-8.
//
// Reply blocks: `%begin T N F` … `%end T N F` / `%error T N F`. Only the %end/%error with the same
// time and number closes the open block, so a body line that merely looks like `%end …` does not.
// Notifications inside a block: tmux 3.3a writes notifications as they happen, so a `%pause` from
// `refresh-client -A '%P:pause'` arrives inside that command's block (observed). Waiting commands
// (run-shell, wait-for) get their %end at once in 3.3a, so little else interleaves today, but the
// protocol does not promise that. Inside a block only a well-formed `%pause %P` / `%continue %P`
// is taken as a notification (the ones a command itself causes); anything else is body, so pane
// text captured by capture-pane that reads like `%output %3 …` can never become pane output.
// Residual ambiguity (unavoidable in the protocol): a captured line reading exactly `%pause %3`.

import type { ControlEvent } from "./events.js";
import { LineFramer } from "./framing.js";
import { bytesOf, latin1, parseNotification, preview, startsWith, utf8 } from "./notifications.js";

export { decodeEscapes, parseNotification } from "./notifications.js";

export interface ControlParserOptions {
  /** Longest accepted line; longer lines become a protocol-error and are skipped. */
  maxLineBytes?: number;
  /** Most body bytes kept for one reply; the rest is dropped and the reply marked truncated. */
  maxReplyBytes?: number;
}

export const DEFAULT_MAX_REPLY_BYTES = 64 * 1024 * 1024;

// Compared as bytes: a flood is thousands of %output lines a second, none worth a string.
const BEGIN = bytesOf("%begin ");
const END = bytesOf("%end ");
const ERROR = bytesOf("%error ");

interface OpenBlock {
  time: number;
  number: number;
  flags: number;
  lines: string[];
  bytes: number;
  truncated: boolean;
}


export class ControlParser {
  private readonly framer: LineFramer;
  private readonly maxReplyBytes: number;
  private block: OpenBlock | null = null;

  constructor(options: ControlParserOptions = {}) {
    this.framer = new LineFramer({ maxLineBytes: options.maxLineBytes });
    this.maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  }

  /** True while a %begin has not yet been closed by its matching %end/%error. */
  get inReply(): boolean {
    return this.block !== null;
  }

  push(chunk: Uint8Array): ControlEvent[] {
    const events: ControlEvent[] = [];
    for (const frame of this.framer.push(chunk)) {
      if (frame.kind === "overflow") {
        events.push({ type: "protocol-error", message: `line longer than ${frame.limit} bytes skipped` });
      } else {
        this.line(frame.bytes, events);
      }
    }
    return events;
  }

  /** The stream ended: flush a final unterminated line and report a reply left open. */
  end(): ControlEvent[] {
    const events: ControlEvent[] = [];
    for (const frame of this.framer.end()) {
      if (frame.kind === "partial") this.line(frame.bytes, events);
    }
    if (this.block !== null) {
      events.push({ type: "protocol-error", message: `stream ended inside reply %begin ${this.block.time} ${this.block.number}` });
      this.block = null;
    }
    return events;
  }

  private line(bytes: Uint8Array, events: ControlEvent[]): void {
    const block = this.block;
    if (block === null) {
      this.outside(bytes, events);
      return;
    }
    if (bytes[0] === 0x25) {
      const close = parseGuard(bytes, block);
      if (close !== null) {
        events.push({ type: "reply", time: block.time, number: block.number, flags: block.flags, ok: close, lines: block.lines, ...(block.truncated ? { truncated: true } : {}) });
        this.block = null;
        return;
      }
      const event = parseNotification(bytes, true);
      if (event !== null && (event.type === "pause" || event.type === "continue")) {
        // A pause inside a reply was caused by the command itself (refresh-client -A '%P:pause').
        events.push(event.type === "pause" ? { ...event, requested: true } : event);
        return;
      }
    }
    if (block.truncated) return;
    if (block.bytes + bytes.length > this.maxReplyBytes) {
      block.truncated = true;
      events.push({ type: "protocol-error", message: `reply ${block.number} longer than ${this.maxReplyBytes} bytes: rest dropped` });
      return;
    }
    block.bytes += bytes.length;
    block.lines.push(utf8.decode(bytes));
  }

  private outside(bytes: Uint8Array, events: ControlEvent[]): void {
    if (startsWith(bytes, BEGIN)) {
      const m = bytes.length > 64 ? null : /^%begin (\d+) (\d+) (\d+)$/.exec(latin1(bytes, 0, bytes.length));
      if (m === null) {
        events.push({ type: "protocol-error", message: `malformed %begin: ${preview(bytes)}` });
        return;
      }
      this.block = { time: Number(m[1]), number: Number(m[2]), flags: Number(m[3]), lines: [], bytes: 0, truncated: false };
      return;
    }
    if (startsWith(bytes, END) || startsWith(bytes, ERROR)) {
      events.push({ type: "protocol-error", message: `reply end without %begin: ${preview(bytes)}` });
      return;
    }
    const event = parseNotification(bytes, false);
    events.push(event ?? { type: "unknown", line: utf8.decode(bytes) });
  }
}

/** For a line inside `block`: true = its %end, false = its %error, null = not its guard. */
function parseGuard(bytes: Uint8Array, block: OpenBlock): boolean | null {
  const m = /^%(end|error) (\d+) (\d+) (\d+)$/.exec(latin1(bytes, 0, Math.min(bytes.length, 80)));
  if (m === null || Number(m[2]) !== block.time || Number(m[3]) !== block.number || Number(m[4]) !== block.flags) return null;
  return m[1] === "end";
}

