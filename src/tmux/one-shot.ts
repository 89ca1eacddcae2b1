// One tmux client process for one-shot commands (execa, argv, never a shell), with a time limit and
// an abort that both kill it at once, and an answer that does not wait for a pipe tmux still holds.

import { loadExeca } from "./execa.js";
import { liveProcesses } from "./orphan.js";

export interface OneShotOptions {
  /** Written to the client's stdin (then closed); stdin is /dev/null without it. */
  input?: string;
  /** Kill the client after this long (Infinity: never). */
  timeoutMs: number;
  signal?: AbortSignal;
  env?: Record<string, string>;
}

/** The client process's exit, heard before its pipes closed. */
class Exited {
  constructor(readonly exitCode: number | null) {}
}

export interface OneShotResult {
  failed: boolean;
  stdout: string;
  stderr: string;
  exitCode?: number;
  /** A spawn error's code (ENOENT, EACCES). */
  code?: string;
  cause?: unknown;
  timedOut: boolean;
  isCanceled: boolean;
}

/**
 * Runs `file args` and resolves once it ended (never rejects). Killed on timeout or abort with
 * SIGKILL: a tmux client that outlived its caller could still hand its commands to a stopped
 * server once it goes on. A killed client may leave its stdout open: tmux 3.2a–3.7c pass the
 * client's stdio to the server in the socket, and a stopped server holds them there until it
 * runs again. So a killed run answers when the process has exited, not when its pipes close.
 * So does a run that ended by itself, once what it wrote is read: tmux holds a client's stdio (the
 * fds it sent in MSG_IDENTIFY_STDOUT) until it has noticed the client is gone, and an answer must not
 * wait for tmux's bookkeeping.
 */
export async function runOneShot(file: string, args: readonly string[], options: OneShotOptions): Promise<OneShotResult> {
  if (options.signal?.aborted === true) return { failed: true, stdout: "", stderr: "", timedOut: false, isCanceled: true };
  const execa = await loadExeca();
  const sub = execa(file, args, {
    shell: false,
    reject: false,
    buffer: false,
    ...(options.input === undefined ? { stdin: "ignore" as const } : { input: options.input }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  sub.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
  sub.stderr?.on("data", (chunk: Buffer) => err.push(chunk));

  let stopped: "timeout" | "aborted" | undefined;
  let exited = false;
  let giveUp!: () => void;
  const gaveUp = new Promise<undefined>((resolve) => (giveUp = () => resolve(undefined)));
  let drained!: (exit: Exited) => void;
  const ended = new Promise<Exited>((resolve) => (drained = resolve));
  sub.once("exit", (exitCode: number | null) => {
    exited = true;
    if (stopped !== undefined) giveUp();
    // Everything the client wrote is in its pipes now: one poll of the event loop after this turn
    // reads it (the exit can be heard before the pipes are), then the answer needs no more.
    else setImmediate(() => setImmediate(() => drained(new Exited(exitCode))));
  });
  const stop = (why: "timeout" | "aborted"): void => {
    if (stopped !== undefined) return;
    stopped = why;
    sub.kill("SIGKILL");
    if (exited) giveUp();
  };
  const kill = (): boolean => sub.kill("SIGKILL");
  liveProcesses.add(kill); // panescope exiting kills it too
  const timer = Number.isFinite(options.timeoutMs) ? setTimeout(() => stop("timeout"), options.timeoutMs) : undefined;
  const onAbort = (): void => stop("aborted");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const result = await Promise.race([sub, gaveUp, ended]);
    const flags = { timedOut: stopped === "timeout", isCanceled: stopped === "aborted" };
    if (result === undefined || result instanceof Exited) {
      sub.stdout?.destroy();
      sub.stderr?.destroy();
      void sub.catch(() => undefined);
    }
    if (result === undefined) return { failed: true, stdout: "", stderr: "", ...flags };
    if (result instanceof Exited) {
      const exitCode = result.exitCode ?? undefined;
      return {
        failed: exitCode !== 0,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        ...(exitCode === undefined ? {} : { exitCode }),
        timedOut: false,
        isCanceled: false,
      };
    }
    return {
      failed: result.failed,
      stdout: Buffer.concat(out).toString("utf8"),
      stderr: Buffer.concat(err).toString("utf8"),
      ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
      ...(typeof result.code === "string" ? { code: result.code } : {}),
      ...(result.cause === undefined ? {} : { cause: result.cause }),
      ...(result.failed ? flags : { timedOut: false, isCanceled: false }),
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    liveProcesses.delete(kill);
  }
}
