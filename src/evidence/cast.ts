// asciicast v2 (https://docs.asciinema.org/manual/asciicast/v2/): a JSON header line, then one JSON
// array per event, [seconds, code, data]: "o" output, "r" resize "COLSxROWS", "m" marker. Pure:
// the writer hands lines to a sink; the parser takes the text.
import { PanescopeError } from "../errors.js";

export interface CastHeader {
  version: 2;
  width: number;
  height: number;
  /** Unix time in seconds when the recording started. */
  timestamp?: number;
  duration?: number;
  title?: string;
  env?: { TERM?: string; SHELL?: string };
}

export type CastCode = "o" | "i" | "r" | "m";
export type CastEvent = [time: number, code: CastCode, data: string];

export interface Cast {
  header: CastHeader;
  events: CastEvent[];
}

/** Seconds to microseconds, the precision asciinema writes: stable text for equal times. */
function seconds(t: number): number {
  return Math.round(Math.max(0, t) * 1e6) / 1e6;
}

export function headerLine(header: CastHeader): string {
  return JSON.stringify(header);
}

export function eventLine(event: CastEvent): string {
  return JSON.stringify([seconds(event[0]), event[1], event[2]]);
}

/** A whole cast as text (newline-terminated lines). */
export function formatCast(cast: Cast): string {
  return [headerLine(cast.header), ...cast.events.map(eventLine)].map((line) => `${line}\n`).join("");
}

/**
 * Writes a cast as events happen. Output arrives as bytes cut anywhere, so the UTF-8 decoder keeps
 * a split character for the next chunk (a JSON string cannot hold half a character). It keeps a
 * byte order mark too: by default TextDecoder drops one that starts its stream, and every screen
 * drawn as text starts it again.
 */
export class CastWriter {
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private last = 0;

  constructor(
    header: CastHeader,
    private readonly sink: (line: string) => void,
  ) {
    sink(`${headerLine(header)}\n`);
  }

  /** Output that arrived `at` seconds after the start. */
  output(at: number, data: Uint8Array | string): void {
    const text = typeof data === "string" ? this.flushed() + data : this.decoder.decode(data, { stream: true });
    if (text !== "") this.event([at, "o", text]);
  }

  resize(at: number, cols: number, rows: number): void {
    this.event([at, "r", `${cols}x${rows}`]);
  }

  marker(at: number, label: string): void {
    this.event([at, "m", label]);
  }

  /** Ends the recording: a character still split at the end becomes U+FFFD. */
  end(at: number): void {
    const rest = this.flushed();
    if (rest !== "") this.event([at, "o", rest]);
  }

  private flushed(): string {
    return this.decoder.decode();
  }

  // Times never go backwards in a cast: players sleep for the difference.
  private event(event: CastEvent): void {
    this.last = Math.max(this.last, seconds(event[0]));
    this.sink(`${eventLine([this.last, event[1], event[2]])}\n`);
  }
}

function bad(line: number, what: string): PanescopeError {
  return new PanescopeError("bad-input", `line ${line} of the cast ${what}; an asciicast v2 file is a JSON header line, then [time, code, data] lines`);
}

/** Parses asciicast v2 text; blank lines are skipped, anything else malformed is an error. */
export function parseCast(text: string): Cast {
  const lines = text.split("\n");
  let header: CastHeader | undefined;
  const events: CastEvent[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      throw new PanescopeError("bad-input", `line ${i + 1} of the cast is not JSON; an asciicast v2 file has one JSON value per line`, { cause });
    }
    if (!header) {
      const h = value as Partial<CastHeader> | null;
      if (!h || typeof h !== "object" || h.version !== 2 || typeof h.width !== "number" || typeof h.height !== "number") {
        throw bad(i + 1, "is not a version 2 header with width and height");
      }
      header = h as CastHeader;
      continue;
    }
    if (!Array.isArray(value) || typeof value[0] !== "number" || !["o", "i", "r", "m"].includes(value[1]) || typeof value[2] !== "string") {
      throw bad(i + 1, "is not an event");
    }
    events.push([value[0], value[1] as CastCode, value[2]]);
  }
  if (!header) throw bad(1, "is missing");
  return { header, events };
}

/** The size a resize event names ("80x24"), or undefined when malformed. */
export function parseSize(data: string): { cols: number; rows: number } | undefined {
  const match = /^(\d+)x(\d+)$/.exec(data);
  return match ? { cols: Number(match[1]), rows: Number(match[2]) } : undefined;
}
