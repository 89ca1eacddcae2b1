// The one process owner: a `tmux -C attach` control client for one session. It writes quoted
// command lines to tmux's stdin, parses stdout with ControlParser, pairs replies with commands in
// order, and fans notifications out to listeners. Nothing else in panescope holds a tmux process.

import type { Readable, Writable } from "node:stream";
import { loadedExeca } from "./execa.js";
import { liveProcesses, orphanGuard, orphanGuardReady } from "./orphan.js";
import { PanescopeError } from "../errors.js";
import type { ControlEvent } from "./events.js";
import { ControlParser } from "./protocol.js";
import { Nudger } from "./nudge.js";
import { commandsLine } from "./quote.js";
import type { TmuxServer } from "./server.js";
import { CLIENT_LEAVE_AFTER_MS, CLIENT_TERM_AFTER_MS, PROBE_TIMEOUT_MS, STOPPED_HINT } from "./timeouts.js";

/** What the client needs of a spawned process; the default spawns tmux through execa. */
export interface ControlProcess {
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  kill(signal?: NodeJS.Signals): boolean;
  /** Stop holding this process's event loop: the process is left running (ControlClient.close). */
  leave?(): void;
  /** Named in the line that says the process was left. */
  pid?: number | undefined;
  /** Settles (never rejects) when the process has ended. */
  done: Promise<{ exitCode?: number; signal?: string; code?: string }>;
}
export type SpawnControl = (file: string, args: string[]) => ControlProcess;

export interface ControlClientOptions {
  server: TmuxServer;
  /** Session name (matched exactly) or id `$N`. */
  session: string;
  /** `refresh-client -f pause-after=N`: tmux pauses a pane rather than buffer more than N seconds
   *  of its output for us (and sends %extended-output). 0 leaves flow control off. Default 5. */
  pauseAfterSeconds?: number;
  /** Resume panes tmux paused on its own (`%pause` outside a reply). Default true. */
  autoContinue?: boolean;
  /** Default per-command timeout; default the server's commandTimeoutMs (TMUX_TIMEOUT_MS). */
  commandTimeoutMs?: number;
  /** How long start() waits for tmux's first reply; default the server's commandTimeoutMs. */
  startTimeoutMs?: number;
  /** Nudge tmux this long after the stream went quiet (see Nudger); default 300 ms, 0 = never. */
  nudgeAfterMs?: number;
  maxLineBytes?: number;
  spawn?: SpawnControl;
  /**
   * Attach with `-f no-output` (tmux 3.2+): tmux sends this client no %output, so its replies never
   * queue behind a pane's output. Set only at attach: toggling it on a client with output queued
   * left tmux 3.2a/3.3a unable to let the client exit (fixed in 3.7).
   */
  noOutput?: boolean;
  /** Where a client left running on close is said, once per sink (default stderr). */
  warn?: (message: string) => void;
}

export interface CommandOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Runs the moment tmux's reply is parsed, before any event after it: what arrived before then
   * came before the reply. (The promise settles later, after the rest of the chunk was dispatched.)
   */
  atReply?: () => void;
}

export type ControlListener = (event: ControlEvent) => void;

// Commands sent on one line: tmux answers each with its own %begin/%end, and after the first
// %error it runs none of the rest (tmux 3.3a: `display -p a ; kill-pane -t %99 ; display -p b`
// gives a reply for `a`, an %error, and nothing for `b`). So a group ends at its first %error.
interface Group {
  size: number;
  /** A nudge (see nudge.ts): its reply is not activity, and nothing waits for it. */
  nudge?: boolean;
  replies: string[][];
  settled: boolean;
  atReply?: (() => void) | undefined;
  resolve(replies: string[][]): void;
  reject(error: PanescopeError): void;
}

const STDERR_KEEP = 4096;
const DEFAULT_NUDGE_AFTER_MS = 300;
/** A command with no effect and a one-line reply: enough to make tmux write to us again. */
const NUDGE = ["display-message", "-p", ""];

const toStderr = (message: string): void => void process.stderr.write(`${message}\n`);
/** The sinks that have been told a client was left: told once, however many are. */
const toldLeft = new WeakSet<(message: string) => void>();

/** Spawns tmux through execa, which ControlClient.start has loaded (orphanGuardReady) by then. */
export const defaultSpawn: SpawnControl = (file, args) => {
  const [command, argv] = orphanGuard(file, args);
  // forceKillAfterDelay: execa's default SIGKILLs a process 5 s after a SIGTERM it sent: never a
  // control client (close() leaves one that tmux does not let go: see leave).
  const sub = loadedExeca()(command, argv, { shell: false, stdin: "pipe", stdout: "pipe", stderr: "pipe", buffer: false, reject: false, forceKillAfterDelay: false });
  const { stdin, stdout, stderr } = sub;
  if (stdin === null || stdout === null || stderr === null) throw new PanescopeError("internal", "tmux was spawned without pipes");
  const done = sub.then(
    (r) => ({ ...(r.exitCode === undefined ? {} : { exitCode: r.exitCode }), ...(r.signal === undefined ? {} : { signal: r.signal }), ...(typeof r.code === "string" ? { code: r.code } : {}) }),
    (error: unknown) => ({ code: String((error as { code?: unknown }).code ?? "EUNKNOWN") }),
  );
  const kill = (signal?: NodeJS.Signals): boolean => sub.kill(signal);
  liveProcesses.add(kill);
  void done.then(() => liveProcesses.delete(kill));
  const leave = (): void => {
    sub.unref();
    for (const pipe of [stdin, stdout, stderr]) (pipe as { unref?: () => void }).unref?.();
  };
  return { stdin, stdout, stderr, kill, leave, pid: sub.pid, done };
};

export class ControlClient {
  /** The tmux server this client is attached to. */
  readonly server: TmuxServer;
  readonly session: string;
  /** The session (id, `$N`) the client is attached to now: tmux says so on attach and on every switch. */
  currentSession: string | undefined;
  /** Resolves once the tmux process has ended, with why. */
  readonly exited: Promise<{ reason?: string }>;
  private readonly proc: ControlProcess;
  private readonly parser: ControlParser;
  private readonly listeners = new Set<ControlListener>();
  private readonly groups: Group[] = [];
  private readonly autoContinue: boolean;
  private readonly commandTimeoutMs: number;
  private handshake: Group | null;
  private exitReason: string | undefined;
  private ending = false;
  private closing: Promise<void> | undefined;
  /** Attached with `-f no-output`: tmux queues no output for it, so it has nothing to pause on close. */
  private readonly noOutput: boolean;
  private stderrTail = "";
  private readonly nudger: Nudger | undefined;
  private readonly warn: (message: string) => void;

  private constructor(proc: ControlProcess, options: ControlClientOptions, handshake: Group) {
    this.server = options.server;
    this.session = options.session;
    this.proc = proc;
    this.handshake = handshake;
    this.autoContinue = options.autoContinue ?? true;
    this.noOutput = options.noOutput === true;
    this.warn = options.warn ?? toStderr;
    this.commandTimeoutMs = options.commandTimeoutMs ?? options.server.commandTimeoutMs;
    this.parser = new ControlParser({ maxLineBytes: options.maxLineBytes });
    const nudgeAfterMs = options.nudgeAfterMs ?? DEFAULT_NUDGE_AFTER_MS;
    if (nudgeAfterMs > 0 && (options.pauseAfterSeconds ?? 5) > 0) {
      this.nudger = new Nudger(nudgeAfterMs, () => this.sendNudge());
    }
    proc.stdin.on("error", () => undefined); // EPIPE after tmux exits: the exit path reports it
    proc.stderr.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_KEEP);
    });
    proc.stdout.on("data", (chunk: Buffer) => this.dispatch(this.parser.push(chunk)));
    const stdoutEnded = new Promise<void>((resolve) => {
      proc.stdout.once("end", resolve);
      proc.stdout.once("close", resolve);
    });
    this.exited = proc.done.then(async (result) => {
      await stdoutEnded;
      this.dispatch(this.parser.end());
      if (result.code === "ENOENT" || result.code === "EACCES") {
        this.markExiting(`cannot run "${options.server.tmux}"`, new PanescopeError("tmux-missing", `cannot run "${options.server.tmux}" (${result.code}): install tmux (apt-get install tmux) or pass --tmux PATH`));
      }
      this.markExiting(this.stderrTail.trim() || describeEnd(result));
      return this.exitReason === undefined || this.exitReason === "" ? {} : { reason: this.exitReason };
    });
  }

  /** Attach a control client to `session`; resolves after tmux's first reply and flow-control setup. */
  static async start(options: ControlClientOptions): Promise<ControlClient> {
    const target = /^\$\d+$/.test(options.session) ? options.session : `=${options.session}`;
    const args = [...options.server.clientArgs(), "-C", "attach-session", ...(options.noOutput === true ? ["-f", "no-output"] : []), "-t", target];
    await orphanGuardReady();
    const proc = (options.spawn ?? defaultSpawn)(options.server.tmux, args);
    let handshake!: Group;
    const attached = new Promise<string[][]>((resolve, reject) => {
      handshake = { size: 1, replies: [], settled: false, resolve, reject };
    });
    const client = new ControlClient(proc, options, handshake);
    const timeoutMs = options.startTimeoutMs ?? options.server.commandTimeoutMs;
    const timer = setTimeout(() => client.fail(handshake, new PanescopeError("timeout", `tmux did not answer the attach to ${options.session} within ${timeoutMs} ms: ${STOPPED_HINT}`)), timeoutMs);
    try {
      await attached;
      const pauseAfter = options.pauseAfterSeconds ?? 5;
      if (pauseAfter > 0) await client.command(["refresh-client", "-f", `pause-after=${Math.ceil(pauseAfter)}`]);
    } catch (error) {
      await client.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return client;
  }

  /** True once tmux has exited or close() was called: commands then fail at once. */
  get closed(): boolean {
    return this.exitReason !== undefined || this.ending;
  }

  on(listener: ControlListener): () => void {
    this.listeners.add(listener);
    return () => this.off(listener);
  }

  off(listener: ControlListener): void {
    this.listeners.delete(listener);
  }

  /** Run one tmux command; resolves to its output lines, rejects (command-failed) on %error. */
  async command(argv: readonly string[], options: CommandOptions = {}): Promise<string[]> {
    const [reply = []] = await this.commands([argv], options);
    return reply;
  }

  /** Several commands on ONE line (tmux runs them back to back, nothing interleaves from this
   *  client): one reply per command. The first %error rejects; tmux runs none of the rest. */
  commands(argvs: readonly (readonly string[])[], options: CommandOptions = {}): Promise<string[][]> {
    return this.send(argvs, options, false);
  }

  private send(argvs: readonly (readonly string[])[], options: CommandOptions, nudge: boolean): Promise<string[][]> {
    if (argvs.length === 0) return Promise.resolve([]);
    let line: string;
    try {
      line = commandsLine(argvs);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.closed) return Promise.reject(this.exitError());
    if (options.signal?.aborted === true) return Promise.reject(new PanescopeError("aborted", `tmux ${argvs[0]?.[0] ?? ""} was aborted before it was sent`));
    return new Promise<string[][]>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.commandTimeoutMs;
      const name = argvs.map((a) => a[0] ?? "").join(" ; ");
      const cleanup = (): void => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      };
      // A timed-out or aborted group stays queued so its late reply is consumed in order.
      const group: Group = {
        size: argvs.length,
        nudge,
        replies: [],
        settled: false,
        atReply: options.atReply,
        resolve: (r) => (cleanup(), resolve(r)),
        reject: (e) => (cleanup(), reject(e)),
      };
      const timer = setTimeout(() => this.fail(group, new PanescopeError("timeout", `tmux ${name} got no reply within ${timeoutMs} ms: ${STOPPED_HINT}`)), timeoutMs);
      const onAbort = (): void => this.fail(group, new PanescopeError("aborted", `tmux ${name} was aborted`));
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.groups.push(group);
      this.proc.stdin.write(`${line}\n`);
      if (!nudge) this.nudger?.activity();
    });
  }

  /** Wakes tmux up in case it stopped writing to us (nudge.ts); the reply is ignored. */
  private sendNudge(): void {
    if (this.closed) return;
    this.send([NUDGE], { timeoutMs: 60_000 }, true).catch(() => undefined);
  }

  /**
   * Detach (end tmux's stdin, which tmux takes as detach, after pausing every pane: see
   * pauseEveryPane), SIGTERM the process if it lingers, and resolve once it ended or, when tmux
   * does not answer, once it was left running (bounded: leave). Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= this.detach();
    return this.closing;
  }

  /** tmux lets a control client go once its stdin closes; its panes are paused for it first. */
  private async detach(): Promise<void> {
    if (!this.closed && !this.noOutput && this.handshake === null) await this.pauseEveryPane();
    this.ending = true;
    this.nudger?.dispose();
    this.rejectAll("the control client was closed");
    this.proc.stdin.end();
    const term = setTimeout(() => this.proc.kill("SIGTERM"), CLIENT_TERM_AFTER_MS);
    let giveUp: NodeJS.Timeout | undefined;
    const tooLong = new Promise<"left">((resolve) => (giveUp = setTimeout(() => resolve("left"), CLIENT_TERM_AFTER_MS + CLIENT_LEAVE_AFTER_MS)));
    const ended = await Promise.race([this.exited, tooLong]);
    clearTimeout(term);
    clearTimeout(giveUp);
    if (ended === "left") this.leave();
  }

  /**
   * tmux hands a control client's stdio to its server: a stopped or wedged server holds the
   * client's stdout open however the client ends (3.2a–3.7c under SIGSTOP: the client exits on
   * SIGTERM, its stdout ends only after SIGCONT), so `exited` never came and panescope never exited.
   * Its process and pipes are left to end when tmux goes on; they no longer hold panescope's event
   * loop. Never SIGKILL: killing a control client whose panes flood crashed tmux 3.3a (orphan.ts).
   */
  private leave(): void {
    this.proc.leave?.();
    if (toldLeft.has(this.warn)) return;
    toldLeft.add(this.warn);
    const pid = this.proc.pid === undefined ? "" : `, pid ${this.proc.pid}`;
    this.warn(`panescope: tmux did not answer: leaving its control client (session ${this.session}${pid}, sent SIGTERM), which tmux lets go when it goes on (kill -CONT the tmux server if it was stopped)`);
  }

  /**
   * tmux 3.2a–3.7c (control.c): once a control client's stdin has closed, a pane's new output is
   * ignored for it, which moves the client's read offset past bytes that output blocks still queued
   * for it count; should tmux write to the client in that same turn of its loop, the next block
   * finds "not enough data" and tmux's server exits. A pause (`refresh-client -A %P:pause`)
   * discards the pane's queued blocks, so a client that pauses every pane of its session before it
   * closes its stdin leaves none behind, however its panes flood. Best effort, bounded: a client
   * that cannot answer is closed anyway. docs/faults.md.
   */
  private async pauseEveryPane(): Promise<void> {
    try {
      const panes = (await this.command(["list-panes", "-s", "-F", "#{pane_id}"], { timeoutMs: PROBE_TIMEOUT_MS })).filter((id) => /^%\d+$/.test(id));
      if (panes.length > 0) await this.command(["refresh-client", ...panes.flatMap((id) => ["-A", `${id}:pause`])], { timeoutMs: PROBE_TIMEOUT_MS });
    } catch {
      // Closed anyway: what the pause would have spared is tmux's to fix.
    }
  }

  private dispatch(events: ControlEvent[]): void {
    for (const event of events) {
      if (event.type !== "reply" || this.groups[0]?.nudge !== true || this.handshake !== null) this.nudger?.activity();
      if (event.type === "session-changed") this.currentSession = event.sessionId;
      if (event.type === "reply") this.onReply(event);
      else if (event.type === "exit") this.markExiting(event.reason ?? "tmux sent %exit");
      else if (event.type === "pause" && event.requested !== true && this.autoContinue && !this.closed) {
        // Flow-control pause: tell listeners (they re-seed), then resume; the reply is discarded.
        this.commands([["refresh-client", "-A", `${event.paneId}:continue`]]).catch(() => undefined);
      }
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch (error) {
          process.emitWarning(`panescope: a control event listener threw: ${String(error)}`);
        }
      }
    }
  }

  private onReply(reply: Extract<ControlEvent, { type: "reply" }>): void {
    const handshake = this.handshake;
    if (handshake !== null) {
      // tmux answers the attach itself first (flags 0), before anything we send.
      this.handshake = null;
      if (reply.ok) handshake.resolve([reply.lines]);
      else this.fail(handshake, new PanescopeError("tmux-exited", `tmux refused to attach to ${this.session}: ${reply.lines.join(" ")}`));
      return;
    }
    if ((reply.flags & 1) === 0) return; // not a reply to a command from this client
    const group = this.groups[0];
    if (group === undefined) return;
    group.replies.push(reply.lines);
    if (!reply.ok || group.replies.length === group.size) {
      this.groups.shift();
      if (group.settled) return;
      group.settled = true;
      if (reply.ok) {
        group.atReply?.();
        group.resolve(group.replies);
      }
      else {
        const which = group.size > 1 ? ` (command ${group.replies.length} of ${group.size})` : "";
        group.reject(new PanescopeError("command-failed", `tmux: ${reply.lines.join("\n") || "command failed"}${which}`));
      }
    }
  }

  private fail(group: Group, error: PanescopeError): void {
    if (group.settled) return;
    group.settled = true;
    group.reject(error);
  }

  private markExiting(reason: string, error?: PanescopeError): void {
    if (this.exitReason !== undefined) return;
    this.exitReason = reason;
    this.rejectAll(reason, error);
  }

  private rejectAll(reason: string, error = new PanescopeError("tmux-exited", `tmux control client for ${this.session} ended: ${reason}`)): void {
    if (this.handshake !== null) this.fail(this.handshake, error);
    for (const group of this.groups.splice(0)) this.fail(group, error);
  }

  private exitError(): PanescopeError {
    return new PanescopeError("tmux-exited", `tmux control client for ${this.session} ended: ${this.exitReason ?? "closed"}; acquire a new client`);
  }
}

function describeEnd(result: { exitCode?: number; signal?: string; code?: string }): string {
  if (result.code !== undefined) return `could not run tmux (${result.code})`;
  if (result.signal !== undefined) return `killed by ${result.signal}`;
  return `exit code ${result.exitCode ?? "?"}`;
}
