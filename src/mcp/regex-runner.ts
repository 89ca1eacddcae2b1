// wait_for's regular expressions run in a worker thread with a time budget per match. A JavaScript
// regex cannot be interrupted, and a catastrophic one ((a|a)*b on a row of 30 a's) would hold the
// event loop, and every pane and call with it; in a worker it holds only the worker, which is
// terminated when the budget runs out and replaced for the next match. The budget is CPU time of
// the worker thread where Linux tells it (/proc/self/task/TID/schedstat), so a busy machine does not
// stop an innocent match; a wall-clock cap of WALL_CAP_FACTOR budgets bounds the wait anyway. The worker starts on the
// first match and is reused; it holds the process open only while a match is pending. Its code is a string
// (eval: true), so it runs the same from dist/ and from src/ under tsx or vitest.
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

export interface RegexRunnerOptions {
  /** Longest one match may run (ms) before it is stopped and reported as bad-input. */
  budgetMs?: number;
}

export class RegexRunner {
  readonly budgetMs: number;
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private tid: number | undefined;
  private readonly queue: Job[] = [];
  private running: Job | undefined;
  private timer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private closed = false;

  constructor(options: RegexRunnerOptions = {}) {
    this.budgetMs = options.budgetMs ?? DEFAULT_MATCH_BUDGET_MS;
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

  /** Stops the worker; pending matches are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = [...(this.running ? [this.running] : []), ...this.queue.splice(0)];
    this.running = undefined;
    clearTimeout(this.timer);
    for (const job of pending) job.reject(new PanescopeError("aborted", "the server is shutting down"));
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private pump(): void {
    if (this.running || this.closed) return;
    const job = this.queue.shift();
    if (!job) {
      this.worker?.unref(); // idle: never what keeps the process alive
      return;
    }
    this.running = job;
    const worker = this.ensureWorker();
    worker.ref(); // a match pending: the process waits for its answer (at most the budget)
    // The budget starts once the worker runs our code: its start-up is not the pattern's fault.
    void this.ready?.then(() => {
      if (this.running !== job || this.worker !== worker) return;
      job.startedAt = Date.now();
      job.cpuAt = threadCpuMs(this.tid);
      this.timer = setTimeout(() => this.check(job), this.budgetMs);
      worker.postMessage({ id: job.id, source: job.source, flags: job.flags, text: job.text });
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER, {
      eval: true,
      execArgv: [], // plain JavaScript: none of the parent's loaders (tsx) or flags
      // A match needs the text and the regex's backtracking stack, nothing like a full heap.
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
      stdout: true,
      stderr: true,
    });
    this.tid = undefined;
    this.ready = new Promise((resolve) => {
      worker.on("message", (reply: Reply) => {
        if (reply.ready) {
          this.tid = reply.tid ?? undefined;
          resolve();
        } else this.settle(reply);
      });
    });
    worker.on("error", (error) => this.lost(worker, `the pattern stopped the matcher (${error.message})`));
    worker.on("exit", () => this.lost(worker, "the matcher exited"));
    this.worker = worker;
    return worker;
  }

  private settle(reply: Reply): void {
    const job = this.running;
    if (!job || reply.id !== job.id) return;
    clearTimeout(this.timer);
    this.running = undefined;
    if (reply.error !== undefined) job.reject(new PanescopeError("bad-input", `pattern cannot be used: ${reply.error}`));
    else job.resolve(reply.found ?? undefined);
    this.pump();
  }

  /** The budget's timer: stop the match, unless the thread has not had its budget of CPU yet. */
  private check(job: Job): void {
    if (this.running !== job) return;
    const cpu = threadCpuMs(this.tid);
    const used = cpu === undefined || job.cpuAt === undefined ? undefined : cpu - job.cpuAt;
    const wall = Date.now() - (job.startedAt ?? 0);
    if (used !== undefined && used < this.budgetMs && wall < this.budgetMs * WALL_CAP_FACTOR) {
      this.timer = setTimeout(() => this.check(job), Math.max(5, this.budgetMs - used));
      return;
    }
    this.overrun(job);
  }

  private overrun(job: Job): void {
    const worker = this.worker;
    this.worker = undefined;
    this.running = undefined;
    void worker?.terminate();
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

  /** The worker died (resource limit, crash): fail the match it ran, start afresh for the rest. */
  private lost(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    clearTimeout(this.timer);
    const job = this.running;
    this.running = undefined;
    job?.reject(new PanescopeError("bad-input", `${why}: use a simpler pattern`));
    this.pump();
  }
}
