// `panescope mcp --transcript FILE`: every tools/call and its answer appended to FILE as one JSON
// line (start time, duration, tool, arguments, the result with isError, or the protocol error), so
// a person can see afterwards what an agent asked and saw. A line is written as its call finishes,
// numbered in the order calls started (`panescope report` puts them back in that order). Loaded
// only when the flag is given.

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

  private constructor(
    readonly path: string,
    fd: number,
    private readonly warn: (line: string) => void,
  ) {
    this.fd = fd;
  }

  /**
   * The transcript on FILE; `fd` is FILE already opened (openTranscriptFile), as the engine thread
   * gets it from the front (engine/front.ts), else FILE is opened here.
   */
  static open(path: string, warn: (line: string) => void, fd = openTranscriptFile(path)): Transcript {
    return new Transcript(path, fd, warn);
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

  /** One line, written whole with one write (appends from one process never interleave). */
  private append(entry: TranscriptEntry): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, `${JSON.stringify(entry)}\n`);
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
