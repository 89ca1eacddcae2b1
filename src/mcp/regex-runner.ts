// wait_for's regular expressions run in worker threads with a time budget per match. A JavaScript
// regex cannot be interrupted, and a catastrophic one ((a|a)*b on a row of 30 a's) would hold the
// event loop, and every pane and call with it; in a worker it holds only that worker, which is
// terminated when the budget runs out. The budget is CPU time of the worker thread where Linux
// tells it (/proc/self/task/TID/schedstat), so a busy machine does not stop an innocent match; a
// wall-clock cap of WALL_CAP_FACTOR budgets bounds the wait anyway.
//
// One worker serves the matches while they are quick. A match that arrives while every worker is
// busy gets a worker of its own, up to MAX_MATCH_WORKERS, so backtracking patterns stall only
// themselves, not the plain ones behind them (docs/benchmarks.md, history). Memory stays bounded: each worker's heap is capped (WORKER_HEAP_MB), and an
// extra worker ends after IDLE_WORKER_MS without a match. Past the cap, matches queue for the first
// worker free. A worker holds the process open only while a match is pending. The workers' code is
// a string (eval: true), so it runs the same from dist/ and from src/ under tsx or vitest.
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { PanescopeError } from "../errors.js";

export const DEFAULT_MATCH_BUDGET_MS = 500;
/** A match is stopped after this many budgets of wall-clock time, whatever CPU it got. */
export const WALL_CAP_FACTOR = 10;

/** Where the first match is, in UTF-16 code units of the text searched. */
export interface RegexMatch {
  index: number;
  text: string;
}

const WORKER = `
const { parentPort } = require("node:worker_threads");
let tid = null;
try { tid = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/")[2]) || null; } catch {}
parentPort.postMessage({ ready: true, tid });
const cache = new Map();
parentPort.on("message", ({ id, source, flags, text }) => {
  try {
    const key = flags + "/" + source;
    let regex = cache.get(key);
    if (regex === undefined) {
      regex = new RegExp(source, flags);
      if (cache.size >= 64) cache.delete(cache.keys().next().value);
      cache.set(key, regex);
    }
    regex.lastIndex = 0;
    const m = regex.exec(text);
    parentPort.postMessage({ id, found: m === null ? null : { index: m.index, text: m[0] } });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

/** At most this many matches run at once, each in its own worker; more wait for one. */
export const MAX_MATCH_WORKERS = 8;
/** An extra worker (beyond the first) with no match for this long is ended. */
export const IDLE_WORKER_MS = 2_000;
/** Heap cap of one worker: a match needs the text and the regex, nothing like a full heap. */
export const WORKER_HEAP_MB = { old: 64, young: 16 };

interface Job {
  id: number;
  source: string;
  flags: string;
  text: string;
  resolve: (found: RegexMatch | undefined) => void;
  reject: (error: unknown) => void;
  /** When the worker got it: wall clock, and the thread's CPU time if known (ms). */
  startedAt?: number;
  cpuAt?: number | undefined;
}

/** CPU time (ms) a thread of this process has used, from Linux's /proc; undefined elsewhere. */
function threadCpuMs(tid: number | undefined): number | undefined {
  if (tid === undefined) return undefined;
  try {
    const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

interface Reply {
  ready?: boolean;
  tid?: number | null;
  id?: number;
  found?: RegexMatch | null;
  error?: string;
}

/** One worker thread and the match it runs. */
interface Slot {
  worker: Worker;
  ready: Promise<void>;
  tid: number | undefined;
  job: Job | undefined;
  /** The budget's timer while a match runs, the idle timer while none does. */
  timer: NodeJS.Timeout | undefined;
}

export interface RegexRunnerOptions {
  /** Longest one match may run (ms) before it is stopped and reported as bad-input. */
  budgetMs?: number;
  /** Most matches run at once (default MAX_MATCH_WORKERS). */
  maxWorkers?: number;
}

export class RegexRunner {
  readonly budgetMs: number;
  readonly maxWorkers: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: RegexRunnerOptions = {}) {
    this.budgetMs = options.budgetMs ?? DEFAULT_MATCH_BUDGET_MS;
    this.maxWorkers = Math.max(1, options.maxWorkers ?? MAX_MATCH_WORKERS);
  }

  /**
   * The first match of the regex in `text`, or undefined. Throws PanescopeError("bad-input") when
   * the match ran out of budget (naming it) or the pattern is not valid.
   */
  exec(source: string, flags: string, text: string): Promise<RegexMatch | undefined> {
    if (this.closed) return Promise.reject(new PanescopeError("aborted", "the server is shutting down"));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, source, flags, text, resolve, reject });
      this.pump();
    });
  }

  /** Workers running now (for tests and the bound in docs/security.md). */
  get workers(): number {
    return this.slots.length;
  }

  /** Stops the workers; pending matches are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    const pending = [...slots.flatMap((slot) => (slot.job ? [slot.job] : [])), ...this.queue.splice(0)];
    for (const slot of slots) clearTimeout(slot.timer);
    for (const job of pending) job.reject(new PanescopeError("aborted", "the server is shutting down"));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  /** Hands queued matches to free workers, starting new ones up to the cap. */
  private pump(): void {
    if (this.closed) return;
    for (;;) {
      const job = this.queue[0];
      if (!job) break;
      const slot = this.slots.find((s) => s.job === undefined) ?? (this.slots.length < this.maxWorkers ? this.spawn() : undefined);
      if (!slot) break;
      this.queue.shift();
      this.start(slot, job);
    }
    for (const slot of this.slots) if (slot.job === undefined) this.idle(slot);
  }

  private start(slot: Slot, job: Job): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = job;
    slot.worker.ref(); // a match pending: the process waits for its answer (at most the budget)
    // The budget starts once the worker runs our code: its start-up is not the pattern's fault.
    void slot.ready.then(() => {
      if (slot.job !== job || !this.slots.includes(slot)) return;
      job.startedAt = Date.now();
      job.cpuAt = threadCpuMs(slot.tid);
      slot.timer = setTimeout(() => this.check(slot, job), this.budgetMs);
      slot.worker.postMessage({ id: job.id, source: job.source, flags: job.flags, text: job.text });
    });
  }

  /** No match to run: never what keeps the process alive; an extra worker ends after a while. */
  private idle(slot: Slot): void {
    slot.worker.unref();
    if (slot.timer !== undefined || this.slots.indexOf(slot) === 0) return;
    slot.timer = setTimeout(() => {
      if (slot.job !== undefined || !this.remove(slot)) return;
      void slot.worker.terminate();
    }, IDLE_WORKER_MS);
    slot.timer.unref();
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER, {
      eval: true,
      execArgv: [], // plain JavaScript: none of the parent's loaders (tsx) or flags
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB.old, maxYoungGenerationSizeMb: WORKER_HEAP_MB.young },
      stdout: true,
      stderr: true,
    });
    let ready!: () => void;
    const slot: Slot = { worker, ready: new Promise((resolve) => (ready = resolve)), tid: undefined, job: undefined, timer: undefined };
    worker.on("message", (reply: Reply) => {
      if (reply.ready) {
        slot.tid = reply.tid ?? undefined;
        ready();
      } else this.settle(slot, reply);
    });
    worker.on("error", (error) => this.lost(slot, `the pattern stopped the matcher (${error.message})`));
    worker.on("exit", () => this.lost(slot, "the matcher exited"));
    this.slots.push(slot);
    return slot;
  }

  private remove(slot: Slot): boolean {
    const i = this.slots.indexOf(slot);
    if (i < 0) return false;
    this.slots.splice(i, 1);
    clearTimeout(slot.timer);
    slot.timer = undefined;
    return true;
  }

  private settle(slot: Slot, reply: Reply): void {
    const job = slot.job;
    if (!job || reply.id !== job.id) return;
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
    if (reply.error !== undefined) job.reject(new PanescopeError("bad-input", `pattern cannot be used: ${reply.error}`));
    else job.resolve(reply.found ?? undefined);
    this.pump();
  }

  /** The budget's timer: stop the match, unless the thread has not had its budget of CPU yet. */
  private check(slot: Slot, job: Job): void {
    if (slot.job !== job) return;
    const cpu = threadCpuMs(slot.tid);
    const used = cpu === undefined || job.cpuAt === undefined ? undefined : cpu - job.cpuAt;
    const wall = Date.now() - (job.startedAt ?? 0);
    if (used !== undefined && used < this.budgetMs && wall < this.budgetMs * WALL_CAP_FACTOR) {
      slot.timer = setTimeout(() => this.check(slot, job), Math.max(5, this.budgetMs - used));
      return;
    }
    this.overrun(slot, job);
  }

  private overrun(slot: Slot, job: Job): void {
    this.remove(slot);
    void slot.worker.terminate();
    job.reject(
      new PanescopeError(
        "bad-input",
        `pattern ran out of its time budget (${this.budgetMs} ms) on ${job.text.length} characters and was stopped: it backtracks too much ` +
          "(alternatives or repeats that can match the same text, like (a|a)*b, (a+)+b or \\w*\\w*x). Use a simpler pattern: plain text, " +
          "one repeat per run of characters, or [^x]* instead of .* before x",
      ),
    );
    this.pump();
  }

  /** A worker died (resource limit, crash): fail the match it ran; the rest go on. */
  private lost(slot: Slot, why: string): void {
    if (!this.remove(slot)) return;
    const job = slot.job;
    slot.job = undefined;
    job?.reject(new PanescopeError("bad-input", `${why}: use a simpler pattern`));
    this.pump();
  }
}
