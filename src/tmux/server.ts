// One tmux server as a value (binary + socket), and one-shot tmux commands against it through execa
// (never a shell): quoted on the client's stdin, each with a time limit (runMany says why). Errors
// are typed: missing binary, no server, command failed, timeout, aborted.

import { shWord } from "../sh-word.js";
import { PanescopeError } from "../errors.js";
import { TmuxFormat } from "./format.js";
import { runOneShot, type OneShotResult } from "./one-shot.js";
import { commandsLine } from "./quote.js";
import { canonicalPaneId, outOfRange, paneNumberInRange } from "./pane-id.js";
import { requireSupported, TmuxVersion } from "./version.js";
import { spawnTurns } from "./spawn-turns.js";
import { STOPPED_HINT, TMUX_TIMEOUT_MS } from "./timeouts.js";
import { parseExit } from "./exit.js";

export interface TmuxServerOptions {
  /** The tmux binary (default "tmux"). */
  tmux?: string;
  /** `-L name`: a socket in tmux's socket directory. */
  socketName?: string;
  /** `-S path`: an explicit socket path (wins over socketName). */
  socketPath?: string;
  /** How long tmux may take to answer a command that gives no limit (default TMUX_TIMEOUT_MS): one-shot and control-client commands, attach. */
  commandTimeoutMs?: number;
}

/** Which tmux server to talk to (binary + socket), and the one-shot commands against it. */
export class TmuxServer {
  readonly tmux: string;
  readonly socketName: string | undefined;
  readonly socketPath: string | undefined;
  readonly commandTimeoutMs: number;
  private versionAsked: Promise<TmuxVersion> | undefined;

  constructor(options: TmuxServerOptions = {}) {
    this.tmux = options.tmux ?? "tmux";
    this.socketName = options.socketName;
    this.socketPath = options.socketPath;
    this.commandTimeoutMs = options.commandTimeoutMs ?? TMUX_TIMEOUT_MS;
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

  /** The binary's version (`tmux -V`), asked once; a failure is not kept, so a later call asks again. */
  version(): Promise<TmuxVersion> {
    this.versionAsked ??= run(this, ["-V"]).then(
      (lines) => TmuxVersion.parse(lines.join(" ")),
      (error: unknown) => {
        this.versionAsked = undefined;
        throw error;
      },
    );
    return this.versionAsked;
  }

  /** The version, or a tmux-unsupported error naming it when it is older than panescope supports. */
  async requireSupported(): Promise<TmuxVersion> {
    return requireSupported(await this.version(), this.tmux);
  }

  /**
   * One `display-message -p` of `format`'s fields for `target` (the default target without one):
   * undefined when tmux printed nothing, as 3.3a does for `-t %99`.
   */
  async display<K extends string>(target: string | undefined, format: TmuxFormat<K>, options: RunOptions = {}): Promise<Record<K, string> | undefined> {
    const lines = await run(this, ["display-message", "-p", ...(target === undefined ? [] : ["-t", target]), format.text], options);
    return format.parseOne(lines, format.needsVersion ? await this.version() : undefined);
  }

  /** Runs a command whose output is `format`'s records (`list-panes -F`, `new-window -P -F`). */
  async query<K extends string>(args: readonly string[], format: TmuxFormat<K>, options: RunOptions = {}): Promise<Record<K, string>[]> {
    const lines = await run(this, args, options);
    return format.parse(lines, format.needsVersion ? await this.version() : undefined);
  }

  /**
   * Gives a window made by `new-session -d -x COLS -y ROWS` that size on every version. tmux 3.2
   * sizes it by our command client instead (80x23): resize it, then unset the `window-size manual`
   * resize-window leaves on it, so it follows attached clients as on 3.3+. Nothing to do elsewhere.
   */
  async sizeNewSession(window: string, cols: number, rows: number): Promise<void> {
    if (!(await this.version()).ignoresDetachedSize) return;
    await this.runMany([
      ["resize-window", "-t", window, "-x", String(cols), "-y", String(rows)],
      ["set-option", "-w", "-u", "-t", window, "window-size"],
    ]);
  }

  serverGeneration(options: RunOptions = {}): Promise<ServerGeneration> {
    return serverGeneration(this, options);
  }

  listPanes(options: RunOptions = {}): Promise<PaneInfo[]> {
    return listPanes(this, options);
  }
}

export interface RunOptions {
  /** Kill the command and fail with `timeout` after this long (default: the server's commandTimeoutMs; Infinity: never). */
  timeoutMs?: number;
  /** Aborting kills the command: it fails with `aborted` and does nothing afterwards (see runMany). */
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
  /** As tmux stores it: the name `-t =NAME:` finds (tmux escapes `\`, control bytes and, before 3.5, `$`). */
  sessionName: string;
  windowId: string;
  windowIndex: number;
  /** As the program set it (OSC 0/2 or select-pane -T). */
  title: string;
  command: string;
  /** The working directory of the pane's foreground process; "" when tmux cannot tell. */
  path: string;
  pid: number;
  cols: number;
  rows: number;
  active: boolean;
  dead: boolean;
  alternate: boolean;
  /**
   * How the pane's program ended, as tmux recorded it (#{pane_dead_status}, #{pane_dead_signal},
   * for a dead pane under remain-on-exit). A pane panescope opened holds its status in its
   * process (watch/opened-pane.ts): the caller adds it.
   */
  exitStatus?: number;
  exitSignal?: string;
}

/**
 * The pane option the wrapper of a pane panescope opened sets once its program ended: a hint to
 * look at the pane's process, never evidence (any program can set it, at any scope).
 */
export const STATUS_OPTION = "@panescope_status";

/** Run one tmux command (no shell); resolves to stdout split into lines. */
function run(server: TmuxServer, args: readonly string[], options: RunOptions = {}): Promise<string[]> {
  return runMany(server, [args], options);
}

/**
 * Several commands in one tmux invocation (tmux runs the list atomically); no shell.
 *
 * A command that gives up must not act later. A one-shot client blocked on a stopped (SIGSTOP)
 * server has already written its command into the socket: killed then, its command still ran once
 * the server went on (3.2a–3.7c: a `send-keys` typed, a `new-window` opened). So the commands go
 * on the client's stdin as `source-file -`: the server reads that file *through the client* (the
 * client is not attached), and a client killed on timeout or abort can no longer hand it over.
 * Only commands that may have to start the server (`new-session`, and client flags such as `-V`
 * or `-f`) go as argv: `source-file` cannot start one.
 */
async function runMany(server: TmuxServer, commands: readonly (readonly string[])[], options: RunOptions = {}): Promise<string[]> {
  const binary = server.tmux;
  const viaStdin = commands.every((command) => command[0] !== undefined && !command[0].startsWith("-") && !STARTS_SERVER.has(command[0]));
  // argv: the only separators are ours, every argument's own trailing `;` is escaped by literalArg.
  const args = viaStdin ? ["source-file", "-"] : commands.flatMap((command, i) => [...(i === 0 ? [] : [";"]), ...command.map(literalArg)]);
  const input = viaStdin ? `${commandsLine(commands)}\n` : undefined;
  const timeoutMs = options.timeoutMs ?? server.commandTimeoutMs;
  await spawnTurns.next();
  const result = await runOneShot(binary, [...server.clientArgs(), ...args], {
    timeoutMs,
    input,
    signal: options.signal,
    env: options.env,
  });
  if (result.failed) throw runError(binary, commandName(commands[0] ?? args), result, timeoutMs, server.baseArgs());
  const out = result.stdout;
  if (out === "") return [];
  return (out.endsWith("\n") ? out.slice(0, -1) : out).split("\n");
}

/** Client flags given before a command that take a value (`-f /dev/null new-session …`). */
const VALUE_FLAGS = new Set(["-f", "-L", "-S", "-T"]);

/** The tmux command a list of words runs, for messages: the client's flags before it are not its name. */
export function commandName(words: readonly string[]): string {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    if (!word.startsWith("-")) return word;
    if (VALUE_FLAGS.has(word)) i++;
  }
  return words[0] ?? "";
}

/** Commands that start a tmux server when none runs (their aliases too). */
const STARTS_SERVER = new Set(["new-session", "new", "start-server", "start"]);

function runError(binary: string, name: string, result: OneShotResult, timeoutMs: number, serverArgs: readonly string[]): PanescopeError {
  const stderr = result.stderr.trim();
  const what = `tmux ${name}`.trim();
  if (result.code === "ENOENT" || result.code === "EACCES") {
    return new PanescopeError("tmux-missing", `cannot run "${binary}": install tmux (apt-get install tmux) or pass --tmux PATH`, { cause: result.cause });
  }
  if (result.timedOut) {
    return new PanescopeError("timeout", `${what} got no answer from the tmux server within ${timeoutMs} ms and was killed (a stopped server will not run it when it goes on): ${STOPPED_HINT}`);
  }
  if (result.isCanceled) return new PanescopeError("aborted", `${what} was cancelled and stopped before tmux acted on it`);
  // The server this one names (-L/-S): a bare `tmux new-session` would start the default one.
  if (isNoServer(stderr)) return new PanescopeError("no-server", `no tmux server is running on this socket (${stderr}): start one with "${["tmux", ...serverArgs.map(shWord), "new-session", "-d"].join(" ")}"`);
  return new PanescopeError("command-failed", `${what} failed${stderr === "" ? ` (exit ${result.exitCode ?? "?"})` : `: ${stderr}`}`);
}


/** tmux 3.3a says "no server running on PATH" or "error connecting to PATH (…)". */
export function isNoServer(stderr: string): boolean {
  return /no server running|error connecting to/.test(stderr);
}

async function serverGeneration(server: TmuxServer, options: RunOptions = {}): Promise<ServerGeneration> {
  const record = await server.display(undefined, new TmuxFormat({ pid: "pid", start: "start_time" }), options);
  if (record === undefined || !/^\d+$/.test(record.pid) || !/^\d+$/.test(record.start)) {
    throw new PanescopeError("protocol", `unexpected server identity from tmux: ${JSON.stringify(record)}`);
  }
  return { pid: Number(record.pid), startTime: Number(record.start) };
}

const PANE_FIELDS = {
  paneId: "pane_id",
  paneIndex: "pane_index",
  sessionId: "session_id",
  sessionName: "session_name",
  windowId: "window_id",
  windowIndex: "window_index",
  pid: "pane_pid",
  cols: "pane_width",
  rows: "pane_height",
  active: "pane_active",
  dead: "pane_dead",
  alternate: "alternate_on",
  path: "pane_current_path",
  deadStatus: "pane_dead_status",
  deadSignal: "pane_dead_signal",
  command: { variable: "pane_current_command", programText: true },
  title: { variable: "pane_title", programText: true },
} as const;

/** All panes of the server, their text fields exactly as set (format.ts), on every tmux version. */
async function listPanes(server: TmuxServer, options: RunOptions = {}): Promise<PaneInfo[]> {
  const format = new TmuxFormat(PANE_FIELDS);
  const records = await server.query(["list-panes", "-a", "-F", format.text], format, options);
  return records.map((f) => ({
    paneId: f.paneId, paneIndex: Number(f.paneIndex), sessionId: f.sessionId, sessionName: f.sessionName,
    windowId: f.windowId, windowIndex: Number(f.windowIndex), title: f.title, command: f.command, path: f.path,
    pid: Number(f.pid), cols: Number(f.cols), rows: Number(f.rows),
    active: f.active === "1", dead: f.dead === "1", alternate: f.alternate === "1",
    ...exitFields(f.dead === "1" ? f.deadStatus : "", f.dead === "1" ? f.deadSignal : ""),
  }));
}

function exitFields(status: string, signal: string): { exitStatus?: number; exitSignal?: string } {
  const exit = parseExit(status, signal);
  return {
    ...(exit?.status === undefined ? {} : { exitStatus: exit.status }),
    ...(exit?.signal === undefined ? {} : { exitSignal: exit.signal }),
  };
}

/** A pane id, made canonical as tmux prints it (`%007` → `%7`); anything else is a caller mistake. */
export function validatePaneId(s: string): string {
  if (!/^%\d+$/.test(s)) throw new PanescopeError("bad-input", `not a pane id: ${JSON.stringify(s)} (expected %N, e.g. %0; list panes to find one)`);
  if (!paneNumberInRange(s)) throw new PanescopeError("bad-input", `${outOfRange(s)} (list panes to find one)`);
  return canonicalPaneId(s);
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
