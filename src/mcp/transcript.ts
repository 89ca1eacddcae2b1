// `panescope mcp --transcript FILE`: every tools/call and its answer appended to FILE as one JSON
// line (start time, duration, tool, arguments, the result with isError, or the protocol error), so
// a person can see afterwards what an agent asked and saw. A line is written as its call finishes,
// numbered in the order calls started (`panescope report` puts them back in that order). Loaded
// only when the flag is given. Bounded, and each line says what it left out: images are kept as
// their type and size, strings up to KEPT_CHARS; a run of the server writes at most
// MAX_RUN_BYTES, and the line that reaches it says that later calls are not recorded.

import { openSync, writeSync, closeSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { messageOf, PanescopeError } from "../errors.js";
import type { ToolCallHandler } from "./unchecked-results.js";

/** One line of a transcript. `result` for an answer (isError included), `error` when the call was refused. */
export interface TranscriptEntry {
  /** 1, 2, … in the order calls started. */
  seq: number;
  /** ISO time the call arrived. */
  start: string;
  /** Milliseconds until the answer, to 0.1 ms. */
  ms: number;
  tool: string;
  arguments: unknown;
  result?: unknown;
  error?: { message: string; code?: number };
  /** What this line left out of `arguments` and `result`: each value cut, its full size, and how much is kept. */
  omitted?: Omission[];
  /** On the last line a run of the server writes: why the calls after it are not recorded. */
  ends?: string;
}

/** A value left out of a transcript line: where (`result.content[0].data`), its length in characters, and how many are kept. */
export interface Omission {
  path: string;
  chars: number;
  kept: number;
}

/** Longest string a line keeps whole (an answer's text, typed text): its first KEPT_CHARS characters are kept. */
export const KEPT_CHARS = 16 * 1024;
/** Bytes one run of the server appends at most: a long session's transcript does not grow without bound. */
export const MAX_RUN_BYTES = 64 * 1024 * 1024;

/**
 * `value` as a transcript keeps it: an image content item without its data (its decoded size in
 * `bytes`), every string longer than KEPT_CHARS cut to its start; each cut pushed on `omitted`. Pure.
 */
export function bounded(value: unknown, path: string, omitted: Omission[]): unknown {
  if (typeof value === "string") {
    if (value.length <= KEPT_CHARS) return value;
    // Never half a surrogate pair: the line stays valid UTF-8.
    const kept = /[\uD800-\uDBFF]/.test(value.charAt(KEPT_CHARS - 1)) ? KEPT_CHARS - 1 : KEPT_CHARS;
    omitted.push({ path, chars: value.length, kept });
    return value.slice(0, kept);
  }
  if (Array.isArray(value)) return value.map((item, i) => bounded(item, `${path}[${i}]`, omitted));
  if (typeof value !== "object" || value === null) return value;
  const { type, data, ...rest } = value as Record<string, unknown>;
  if (type === "image" && typeof data === "string") {
    omitted.push({ path: `${path}.data`, chars: data.length, kept: 0 });
    return { type, ...rest, bytes: Buffer.byteLength(data, "base64") };
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, bounded(item, `${path}.${key}`, omitted)]));
}

/** Opens FILE for appending (created if missing); a path that cannot be written is a bad-input error at start. */
export function openTranscriptFile(path: string): number {
  try {
    return openSync(path, "a", 0o600);
  } catch (error) {
    throw new PanescopeError("bad-input", `--transcript ${path}: cannot open it for appending (${(error as Error).message}); name a file in a folder you can write`, { cause: error });
  }
}

export class Transcript {
  private fd: number | undefined;
  private seq = 0;
  /** Bytes this run has appended (MAX_RUN_BYTES). */
  private written = 0;

  private constructor(
    readonly path: string,
    fd: number,
    private readonly warn: (line: string) => void,
    private readonly maxRunBytes: number,
  ) {
    this.fd = fd;
  }

  /**
   * The transcript on FILE; `fd` is FILE already opened (openTranscriptFile), as the engine thread
   * gets it from the front (engine/front.ts), else FILE is opened here. `maxRunBytes`: a test's seam.
   */
  static open(path: string, warn: (line: string) => void, fd = openTranscriptFile(path), maxRunBytes = MAX_RUN_BYTES): Transcript {
    return new Transcript(path, fd, warn, maxRunBytes);
  }

  /** Wraps the tools/call handler: the answer is recorded, then passed on unchanged. */
  wrap(handler: ToolCallHandler): ToolCallHandler {
    return async (request, extra) => {
      const seq = ++this.seq;
      const start = new Date().toISOString();
      const t0 = performance.now();
      const entry = (): Pick<TranscriptEntry, "seq" | "start" | "ms" | "tool" | "arguments"> => ({
        seq,
        start,
        ms: Math.round((performance.now() - t0) * 10) / 10,
        tool: request.params.name,
        arguments: request.params.arguments ?? {},
      });
      try {
        const result = await handler(request, extra);
        this.append({ ...entry(), result });
        return result;
      } catch (error) {
        // Whatever was thrown: not only an Error (a string, undefined) says something on the line.
        const code = (error as { code?: unknown } | undefined)?.code;
        this.append({ ...entry(), error: { message: messageOf(error), ...(typeof code === "number" ? { code } : {}) } });
        throw error;
      }
    };
  }

  /** One line, bounded, written whole with one write (appends from one process never interleave). */
  private append(whole: TranscriptEntry): void {
    if (this.fd === undefined) return;
    const omitted: Omission[] = [];
    const entry: TranscriptEntry = { ...whole, arguments: bounded(whole.arguments, "arguments", omitted) };
    if (whole.result !== undefined) entry.result = bounded(whole.result, "result", omitted);
    if (omitted.length > 0) entry.omitted = omitted;
    let line = `${JSON.stringify(entry)}\n`;
    const full = this.written + Buffer.byteLength(line) >= this.maxRunBytes;
    if (full) {
      const most = this.maxRunBytes >= 2 ** 20 ? `${Math.round(this.maxRunBytes / 2 ** 20)} MiB` : `${this.maxRunBytes} bytes`;
      entry.ends = `this run of the server has written its most to its transcript (${most}): calls after this one are not recorded`;
      line = `${JSON.stringify(entry)}\n`;
    }
    try {
      writeSync(this.fd, line);
      this.written += Buffer.byteLength(line);
      if (full) {
        this.warn(`--transcript ${this.path}: ${entry.ends}`);
        this.close();
      }
    } catch (error) {
      // The agent's session goes on; the record stops, and says so once.
      this.warn(`--transcript ${this.path}: cannot write (${(error as Error).message}); no further calls are recorded`);
      this.close();
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
