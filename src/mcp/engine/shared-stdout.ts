// fd 1, shared by the split server's two threads (front.ts, thread.ts). The engine's answers went
// to the front through the worker's stdout and were written there: the front woken for each, 0.2 ms
// p50 between the engine's write and the front's (logged in both; figure 3d 0.80–0.88 → 0.74–0.77 ms). The engine now writes a short line itself when that
// keeps every line whole and its own lines in order: the front is not writing, and none of the
// engine's earlier lines still waits in the front. Otherwise the line goes the old way. A pipe
// takes a line of at most PIPE_BUF bytes whole or not at all; a socket (what Node's child_process
// gives a child) may take part of it: the front then writes the rest before anything else.
import { fstatSync, writeSync } from "node:fs";
import { Buffer } from "node:buffer";
import type { AnswerSink } from "../stdio-transport.js";

/** POSIX's least PIPE_BUF (Linux's): a write of at most this many bytes to a pipe is never split. */
const PIPE_BUF = 4096;
const FD = 1;

/** The shared words' slots: who writes fd 1, and the engine's bytes the front has yet to write. */
const WRITER = 0;
const BEHIND = 1;
const FREE = 0;
const FRONT = 1;
const ENGINE = 2;
/** The engine wrote part of a line: the front writes the rest, which comes next from the engine, first. */
const HANDED = 3;

/** Made by the front, given to the engine in its workerData. */
export function sharedStdoutWords(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
}

/** Whether fd 1 is a pipe or a socket (a file or a terminal takes every line the old way: a write may block). */
export function stdoutIsPipeOrSocket(): boolean {
  try {
    const stat = fstatSync(FD);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/** The engine's side: each line written to fd 1 at once when it can be, else to `fallback` (the front relays it). */
export class EngineStdout implements AnswerSink {
  /** Lines written to fd 1 here (said on exit). */
  direct = 0;

  constructor(
    private readonly words: Int32Array,
    private readonly fallback: Pick<NodeJS.WritableStream, "write" | "once">,
    /** stdoutIsPipeOrSocket(): else every line goes to `fallback`. */
    private readonly pipeOrSocket: boolean,
    /** Writes to fd 1 without blocking: the bytes taken (a test's seam). */
    private readonly writeFd: (bytes: Uint8Array) => number = (bytes) => writeSync(FD, bytes),
  ) {}

  write(line: string): boolean {
    if (this.pipeOrSocket && line.length <= PIPE_BUF && this.tryDirect(line)) return true;
    Atomics.add(this.words, BEHIND, Buffer.byteLength(line));
    return this.fallback.write(line);
  }

  once(event: "drain", listener: () => void): this {
    this.fallback.once(event, listener);
    return this;
  }

  private tryDirect(line: string): boolean {
    if (Atomics.compareExchange(this.words, WRITER, FREE, ENGINE) !== FREE) return false;
    let after = FREE;
    try {
      if (Atomics.load(this.words, BEHIND) !== 0) return false;
      const bytes = Buffer.from(line);
      if (bytes.length > PIPE_BUF) return false;
      // fd 1 never blocks (libuv made it non-blocking for process.stdout): EAGAIN when it is full.
      const written = this.writeFd(bytes);
      this.direct++;
      if (written < bytes.length) {
        const rest = bytes.subarray(written);
        Atomics.add(this.words, BEHIND, rest.length);
        after = HANDED;
        this.fallback.write(rest);
      }
      return true;
    } catch {
      return false; // EAGAIN, or a closed pipe, which the front's own write then reports
    } finally {
      Atomics.store(this.words, WRITER, after);
      Atomics.notify(this.words, WRITER);
    }
  }
}

/**
 * The front's side: every line it writes, its own and the engine's it relays, goes through
 * process.stdout while it holds fd 1, from the first write until its last completes.
 */
export class FrontStdout {
  private pending = 0;
  /** The front's own lines that came while the rest of an engine's line was on its way (HANDED). */
  private queued: Array<string | Uint8Array> = [];
  /** stdout took a line over its limit and has not drained since (the client is not reading). */
  private backlogged = false;
  /** The most bytes stdout held unwritten (said on exit: answers held in the engine thread are not here). */
  mostWaiting = 0;

  constructor(
    private readonly words: Int32Array,
    private readonly stdout: Pick<NodeJS.WritableStream, "write" | "once"> & { writableLength?: number } = process.stdout,
    /** Told true when stdout is over its limit, false at its next 'drain': the front reads no requests meanwhile. */
    private readonly backlog: (waiting: boolean) => void = () => undefined,
  ) {}

  /** Writes one of the front's own lines. */
  write(line: string | Uint8Array): void {
    if (this.queued.length > 0 || !this.hold()) this.queued.push(line);
    else this.send(line);
  }

  /** Writes `bytes` of the engine's lines, relayed: they no longer keep the engine from writing. */
  relay(bytes: Uint8Array, text: string | Uint8Array = bytes): void {
    // The rest of a line the engine began comes first in what it relays: fd 1 is the front's again.
    // (Else it holds fd 1 as for its own lines: the engine cannot have begun a line since, as these
    // bytes, not yet written, keep it from writing.)
    if (Atomics.compareExchange(this.words, WRITER, HANDED, FRONT) !== HANDED) this.hold();
    this.send(text);
    Atomics.sub(this.words, BEHIND, bytes.length);
    const queued = this.queued;
    this.queued = [];
    for (const line of queued) this.send(line);
  }

  /** Until releaseEngine(), every line of the engine's comes through the front (counted as one byte behind). */
  holdEngine(): void {
    Atomics.add(this.words, BEHIND, 1);
  }

  releaseEngine(): void {
    Atomics.sub(this.words, BEHIND, 1);
  }

  /** Takes fd 1 for the front (false: it waits for the rest of an engine's line, HANDED). */
  private hold(): boolean {
    if (this.pending > 0) return true; // held already
    // The engine holds fd 1 only for one write of at most PIPE_BUF bytes that never blocks.
    for (;;) {
      const was = Atomics.compareExchange(this.words, WRITER, FREE, FRONT);
      if (was === FREE) return true;
      if (was === HANDED) return false;
      Atomics.wait(this.words, WRITER, ENGINE, 1);
    }
  }

  private send(line: string | Uint8Array): void {
    this.pending++;
    const taken = this.stdout.write(line, () => this.done());
    this.mostWaiting = Math.max(this.mostWaiting, this.stdout.writableLength ?? 0);
    if (taken || this.backlogged) return;
    this.backlogged = true;
    this.backlog(true);
    this.stdout.once("drain", () => {
      this.backlogged = false;
      this.backlog(false);
    });
  }

  private done(): void {
    if (--this.pending === 0) Atomics.store(this.words, WRITER, FREE);
  }
}
