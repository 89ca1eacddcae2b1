// `panescope read|wait|send|list|open|close`: one tool call through the tmux server's shared daemon
// (started on first use). Prints the text a model reads (or, with --json, the structured answer)
// and exits with a status a script can branch on: 0 done, 1 timed out, 2 usage, 3 pane closed or
// gone, 4 any other error (stderr says what and what to do); 141 when stdout's reader left (print.ts).
import type { ShellCommand } from "../options/shell.js";
import { MAX_WAIT_LIMIT_MS } from "../options/model.js";
import { path } from "../builtins.js";
import { isPanescopeError, messageOf } from "../errors.js";
import { surelyUnwritable, unwritable } from "../output-file.js";
import { callerCwd, daemonPaths } from "./paths.js";
import { callerPane, defaultReader } from "./reader.js";
import { guard, write } from "./print.js";
import { reachDaemon } from "./start.js";
import { inShellWords, noServer, serverFlags } from "./words.js";

/** Stopped by a signal: 128 + its number, as a shell reports it (SIGINT 130, SIGTERM 143; stdout's reader gone, as SIGPIPE: 141). */
export const EXIT = { done: 0, timedOut: 1, usage: 2, closed: 3, failed: 4, interrupted: 130, outputClosed: 141, terminated: 143 } as const;

/** Tools that change nothing in tmux: their call rides with the hello, and sending one twice is harmless (start.ts). */
const READ_ONLY: ReadonlySet<ShellCommand["tool"]> = new Set(["capture_since", "wait_for", "list_panes"]);

interface ToolResult {
  content?: { type: string; text?: string; data?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

function statusOf(command: ShellCommand, structured: Record<string, unknown>): number {
  if (command.exit === "plain") return EXIT.done;
  if (command.exit === "read") return structured.closed === true ? EXIT.closed : EXIT.done;
  const outcome = structured.outcome;
  if (outcome === "timeout" || outcome === "aborted") return EXIT.timedOut;
  if (outcome === "closed") return command.exit === "wait-closed" ? EXIT.done : EXIT.closed;
  return EXIT.done;
}

function errorStatus(kind: unknown): number {
  if (kind === "unknown-pane" || kind === "pane-closed") return EXIT.closed;
  // A cursor that does not decode, or is another pane's or server's: the caller's to fix.
  if (kind === "bad-input" || (typeof kind === "string" && kind.startsWith("cursor-"))) return EXIT.usage;
  return EXIT.failed;
}

const say = (line: string): void => void process.stderr.write(`panescope: ${line}\n`);

/** What to do after the daemon went away during a call: a call that changes tmux may have acted, and run again would act twice. */
function afterLoss(command: ShellCommand): string {
  const on = serverFlags(command.server);
  if (command.tool === "send_keys") return `its keys may have been typed: panescope read ${String(command.arguments.paneId)}${on} shows what the pane did, before you send them again`;
  if (command.tool === "open_pane") return `a pane may have been opened: panescope list${on} shows the panes, before you open another`;
  if (command.tool === "close_pane") return `the pane may be closed: panescope list${on} shows the panes there are`;
  return "run the command again";
}

/**
 * The status of a command whose answer stdout did not take: its reader left (`| head -2`), as
 * SIGPIPE would have ended it, or stdout failed otherwise (said, with what the call did all the same).
 */
function lost(error: NodeJS.ErrnoException, after: string): number {
  if (error.code === "EPIPE") return EXIT.outputClosed;
  say(`the answer could not be written to stdout (${messageOf(error)}): ${after}`);
  return EXIT.failed;
}

/** What a call whose answer could not be printed did all the same. */
function unprinted(command: ShellCommand): string {
  const on = serverFlags(command.server);
  if (command.tool === "open_pane") return `the pane was opened: panescope list${on} shows it`;
  if (command.tool === "close_pane") return "the pane was closed";
  if (command.tool === "send_keys") return `the keys were typed${command.arguments.cursor === undefined ? "; this reader's cursor moved past what the answer showed" : ""}`;
  if (command.arguments.cursor === undefined && (command.tool === "capture_since" || command.tool === "wait_for")) return "the answer is lost, and this reader's cursor moved past it";
  return "the answer is lost: run the command again";
}

/**
 * open starts its pane where the command runs, as `tmux new-window` run there would: the daemon
 * runs in /, so the hello carries this directory (open_pane's default), and a relative --cwd is
 * taken from here.
 */
function openedHere(args: Record<string, unknown>): Record<string, unknown> {
  const here = callerCwd();
  if (typeof args.cwd !== "string" || here === undefined) return args;
  return { ...args, cwd: path.resolve(here, args.cwd) };
}

export async function main(command: ShellCommand): Promise<number> {
  guard(process.stdout);
  guard(process.stderr);
  // A picture's file that surely cannot be written is a usage error before anything is asked.
  const unusable = command.output === undefined ? undefined : surelyUnwritable(command.output, `pane${path.extname(command.output)}`);
  if (unusable !== undefined && command.output !== undefined) {
    say(`cannot write the picture to ${command.output}: ${unusable}`);
    return EXIT.usage;
  }
  const env = process.env;
  const paths = daemonPaths(command.server, env);
  const ownPane = callerPane(env);
  const call = { method: "tools/call", params: { name: command.tool, arguments: command.tool === "open_pane" ? openedHere(command.arguments) : command.arguments } };
  let connected: Awaited<ReturnType<typeof reachDaemon>>;
  try {
    // Only open can start a tmux server (new-session): no other command starts a daemon for a server that is not running.
    const start = { choice: command.server, needsServer: command.tool !== "open_pane", ...(command.idleMs === undefined ? {} : { idleMs: command.idleMs }) };
    // Only open uses it: a spare server is kept per policy (daemon/observer.ts), the directory is one.
    const cwd = command.tool === "open_pane" ? callerCwd() : undefined;
    const hello = { reader: command.reader ?? defaultReader(env), maxWaitMs: MAX_WAIT_LIMIT_MS, endCancels: true, terms: "shell" as const, ...(ownPane === undefined ? {} : { ownPane }), ...(cwd === undefined ? {} : { cwd }) };
    connected = await reachDaemon(paths, start, hello, READ_ONLY.has(command.tool) ? call : undefined);
  } catch (error) {
    say(isPanescopeError(error, "no-server") ? noServer(command.server) : messageOf(error));
    return EXIT.failed;
  }
  const { connection, welcome, answer: sent } = connected;
  let interrupted: number | undefined;
  const interrupt = (signal: NodeJS.Signals): void => {
    interrupted = signal === "SIGTERM" ? EXIT.terminated : EXIT.interrupted;
    connection.cancel();
  };
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  let result: ToolResult;
  try {
    const answer = await (sent ?? connection.request(call.method, call.params));
    if (answer.error !== undefined) {
      say(`the daemon refused the call: ${answer.error.message}`);
      return EXIT.failed;
    }
    result = (answer.result ?? {}) as ToolResult;
  } catch (error) {
    if (interrupted !== undefined) return interrupted;
    say(`the daemon (pid ${welcome.pid}) went away during the call (${messageOf(error)}): ${afterLoss(command)}; a new daemon starts, and a reader's next answer says missed (restarted)`);
    return EXIT.failed;
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
    connection.close();
  }
  const text = (result.content ?? []).map((part) => part.text ?? "").join("\n");
  if (result.isError === true) {
    const kind = result._meta?.["panescope/error"];
    // The daemon names its server by the socket path it was started with (-S): say it as the user named it.
    say(kind === "no-server" ? noServer(command.server) : inShellWords(text, command.server));
    return errorStatus(kind);
  }
  const structured = result.structuredContent ?? {};
  if (command.output !== undefined) return writePicture(command.output, result);
  const paneId = command.printsPaneId && !command.json && typeof structured.paneId === "string" ? structured.paneId : undefined;
  const printed = await write(process.stdout, paneId !== undefined ? `${paneId}\n` : `${command.json ? JSON.stringify(structured, null, 2) : text}\n`);
  if (printed !== undefined) return lost(printed, unprinted(command));
  // Each line its own "panescope:" (open's second is its cursor, for `read --cursor`).
  if (paneId !== undefined) for (const line of inShellWords(text, command.server).split("\n")) say(line);
  return statusOf(command, structured);
}

/** shot: the SVG (in the structured answer) or the PNG (an image part) into the file asked for. */
async function writePicture(file: string, result: ToolResult): Promise<number> {
  const svg = result.structuredContent?.svg;
  const png = result.content?.find((part) => part.type === "image")?.data;
  const bytes = typeof svg === "string" ? Buffer.from(svg) : png !== undefined ? Buffer.from(png, "base64") : undefined;
  if (bytes === undefined) {
    say("the daemon answered without a picture: a daemon older than this command may be running (panescope list shows it works; stop the daemon to restart it)");
    return EXIT.failed;
  }
  const { writeFile } = await import("node:fs/promises");
  try {
    await writeFile(file, bytes);
  } catch (error) {
    say(`cannot write the picture to ${file}: ${unwritable(file, error, `pane${path.extname(file)}`)}`);
    return EXIT.failed;
  }
  const printed = await write(process.stdout, `${file} (${bytes.length} bytes)\n`);
  return printed === undefined ? EXIT.done : lost(printed, `the picture was written to ${file}`);
}
