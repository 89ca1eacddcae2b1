// One tmux server as a value (binary + socket), and one-shot tmux commands against it through execa
// with an argv array (never a shell). Errors are typed: missing binary, no server, command failed.

import { randomBytes } from "node:crypto";
import { execa } from "execa";
import { PanescopeError } from "../errors.js";

export interface TmuxServerOptions {
  /** The tmux binary (default "tmux"). */
  tmux?: string;
  /** `-L name`: a socket in tmux's socket directory. */
  socketName?: string;
  /** `-S path`: an explicit socket path (wins over socketName). */
  socketPath?: string;
}

/** Which tmux server to talk to (binary + socket), and the one-shot commands against it. */
export class TmuxServer {
  readonly tmux: string;
  readonly socketName: string | undefined;
  readonly socketPath: string | undefined;

  constructor(options: TmuxServerOptions = {}) {
    this.tmux = options.tmux ?? "tmux";
    this.socketName = options.socketName;
    this.socketPath = options.socketPath;
  }

  /** The socket arguments every tmux invocation for this server starts with. */
  baseArgs(): string[] {
    if (this.socketPath !== undefined) return ["-S", this.socketPath];
    if (this.socketName !== undefined) return ["-L", this.socketName];
    return [];
  }

  /**
   * Arguments for every tmux client we start: `-u` first. Without it tmux 3.3a decides from
   * LC_ALL/LC_CTYPE/LANG whether its client speaks UTF-8 and, if not, prints control and non-ASCII
   * characters of formats and captures as "_" (`env -i tmux list-panes -F $'a\x1fb'` → "a_b").
   * MCP clients often start servers with no locale at all.
   */
  clientArgs(): string[] {
    return ["-u", ...this.baseArgs()];
  }

  run(args: readonly string[], options: RunOptions = {}): Promise<string[]> {
    return run(this, args, options);
  }

  /** Several commands, run by tmux back to back as one list; their output lines concatenated. */
  runMany(commands: readonly (readonly string[])[], options: RunOptions = {}): Promise<string[]> {
    return runMany(this, commands, options);
  }

  serverGeneration(options: RunOptions = {}): Promise<ServerGeneration> {
    return serverGeneration(this, options);
  }

  listPanes(options: RunOptions = {}): Promise<PaneInfo[]> {
    return listPanes(this, options);
  }
}

export interface RunOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: Record<string, string>;
}

/** Identifies one life of a tmux server: a restart changes it. */
export interface ServerGeneration {
  pid: number;
  startTime: number;
}

export interface PaneInfo {
  paneId: string;
  paneIndex: number;
  sessionId: string;
  sessionName: string;
  windowId: string;
  windowIndex: number;
  title: string;
  command: string;
  pid: number;
  cols: number;
  rows: number;
  active: boolean;
  dead: boolean;
  alternate: boolean;
}

/** Run one tmux command (argv, no shell); resolves to stdout split into lines. */
function run(server: TmuxServer, args: readonly string[], options: RunOptions = {}): Promise<string[]> {
  return runMany(server, [args], options);
}

/** Several commands in one tmux invocation (tmux runs the `;` list atomically); no shell. */
async function runMany(server: TmuxServer, commands: readonly (readonly string[])[], options: RunOptions = {}): Promise<string[]> {
  const binary = server.tmux;
  // The only separators are ours: every argument's own trailing `;` is escaped by literalArg.
  const args = commands.flatMap((command, i) => [...(i === 0 ? [] : [";"]), ...command.map(literalArg)]);
  const result = await execa(binary, [...server.clientArgs(), ...args], {
    shell: false,
    reject: false,
    stdin: "ignore",
    stripFinalNewline: false,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.signal === undefined ? {} : { cancelSignal: options.signal }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  if (result.failed) throw runError(binary, args, result);
  const out = result.stdout;
  if (out === "") return [];
  return (out.endsWith("\n") ? out.slice(0, -1) : out).split("\n");
}

interface FailedRun {
  code?: string;
  timedOut: boolean;
  isCanceled: boolean;
  stderr: string;
  exitCode?: number;
  cause?: unknown;
}

function runError(binary: string, args: readonly string[], result: FailedRun): PanescopeError {
  const stderr = result.stderr.trim();
  const what = `tmux ${args[0] ?? ""}`.trim();
  if (result.code === "ENOENT" || result.code === "EACCES") {
    return new PanescopeError("tmux-missing", `cannot run "${binary}": install tmux (apt-get install tmux) or pass --tmux PATH`, { cause: result.cause });
  }
  if (result.timedOut) return new PanescopeError("timeout", `${what} did not finish in time`);
  if (result.isCanceled) return new PanescopeError("aborted", `${what} was aborted`);
  if (isNoServer(stderr)) return new PanescopeError("no-server", `no tmux server is running on this socket (${stderr}): start one with "tmux new-session -d"`);
  return new PanescopeError("command-failed", `${what} failed${stderr === "" ? ` (exit ${result.exitCode ?? "?"})` : `: ${stderr}`}`);
}

/** tmux 3.3a says "no server running on PATH" or "error connecting to PATH (…)". */
export function isNoServer(stderr: string): boolean {
  return /no server running|error connecting to/.test(stderr);
}

async function serverGeneration(server: TmuxServer, options: RunOptions = {}): Promise<ServerGeneration> {
  const [line = ""] = await run(server, ["display-message", "-p", "#{pid} #{start_time}"], options);
  const m = /^(\d+) (\d+)$/.exec(line);
  if (m === null) throw new PanescopeError("protocol", `unexpected server identity from tmux: ${JSON.stringify(line)}`);
  return { pid: Number(m[1]), startTime: Number(m[2]) };
}

const PANE_FIELDS = [
  "pane_id", "pane_index", "session_id", "window_id", "window_index", "pane_pid", "pane_width", "pane_height",
  "pane_active", "pane_dead", "alternate_on", "session_name", "pane_current_command", "pane_title",
] as const;

/**
 * All panes of the server. Records are split on a random nonce, so no title or name can forge one.
 * The nonce is printable: tmux 3.4 and 3.5a print a 0x1f separator as the four characters `\037`.
 */
async function listPanes(server: TmuxServer, options: RunOptions = {}): Promise<PaneInfo[]> {
  const nonce = `~ps${randomBytes(8).toString("hex")}`;
  const format = PANE_FIELDS.map((f) => `#{${f}}`).join(`${nonce}f`) + `${nonce}r`;
  const lines = await run(server, ["list-panes", "-a", "-F", format], options);
  const records = lines.join("\n").split(`${nonce}r`);
  const panes: PaneInfo[] = [];
  for (const raw of records) {
    const record = raw.startsWith("\n") ? raw.slice(1) : raw;
    if (record === "") continue;
    const f = record.split(`${nonce}f`);
    if (f.length !== PANE_FIELDS.length) throw new PanescopeError("protocol", `unexpected list-panes record: ${JSON.stringify(record.slice(0, 120))}`);
    const [paneId, paneIndex, sessionId, windowId, windowIndex, pid, cols, rows, active, dead, alternate, sessionName, command, title] = f as string[] as [string, string, string, string, string, string, string, string, string, string, string, string, string, string];
    panes.push({
      paneId, paneIndex: Number(paneIndex), sessionId, sessionName, windowId, windowIndex: Number(windowIndex),
      title, command, pid: Number(pid), cols: Number(cols), rows: Number(rows),
      active: active === "1", dead: dead === "1", alternate: alternate === "1",
    });
  }
  return panes;
}

/** A pane id as tmux prints it (`%N`); anything else is a caller mistake. */
export function validatePaneId(s: string): string {
  if (!/^%\d{1,9}$/.test(s)) throw new PanescopeError("bad-input", `not a pane id: ${JSON.stringify(s)} (expected %N, e.g. %0; list panes to find one)`);
  return s;
}

/**
 * tmux 3.3a reads an argv element that ends in `;` as a command separator (`send-keys -l 'a;'`
 * types "a", and the next argument would start a second command), and a trailing `\;` as a
 * literal `;` (dropping the `\`). So every argument's trailing `;` gets a `\`: one-shot commands
 * are always exactly one tmux command, whatever the data.
 */
export function literalArg(value: string): string {
  return value.endsWith(";") ? `${value.slice(0, -1)}\\;` : value;
}
