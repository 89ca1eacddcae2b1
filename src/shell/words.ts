// A tool's words in the shell. Answers name the MCP tools (what an agent over MCP calls next); a
// shell user runs the commands that make the same calls, so an error printed here names those
// ("no pane %9 …: panescope list shows the panes there are"), and an argument the shell takes as
// a flag by the flag ("send other text with --text"); a tmux server that is not running, and the
// `panescope list` it advises, by the -L/-S the command was given (a bare `panescope list` would
// list another server). An answer's own notes (`cut 5 rows (--max-lines, …)`) are not rewritten
// here, where pane text could be too: the hello's `terms` has the daemon name the flags itself.
import { shWord } from "../sh-word.js";

const COMMANDS: Readonly<Record<string, string>> = {
  capture_since: "panescope read",
  wait_for: "panescope wait",
  send_keys: "panescope send",
  list_panes: "panescope list",
  open_pane: "panescope open",
  close_pane: "panescope close",
  capture_pane: "panescope shot",
};

const TOOL_NAMES = new RegExp(`\\b(${Object.keys(COMMANDS).join("|")})\\b`, "g");

/** Arguments an answer names (quoted as code) whose shell command takes them as a flag. */
const FLAGS: Readonly<Record<string, string>> = {
  "`text`": "--text",
  "`force: true`": "--force",
  "`cursor`": "--cursor",
  "`quietMs`": "--quiet MS",
  "`closed: true`": "--closed",
};

const ARGUMENT_NAMES = new RegExp(Object.keys(FLAGS).join("|"), "g");

/**
 * Argument names as a refused value's message gives them bare (`quietMs must be at least 1 (at
 * quietMs)`): only those no English word could be, and a path's `(at NAME)`. ` (at paneId)` goes:
 * the pane is a command's one %N, and the message names it.
 */
const BARE: Readonly<Record<string, string>> = { quietMs: "--quiet", timeoutMs: "--timeout", maxLines: "--max-lines", waitMs: "--wait" };
/** `quietMs must be at least 1 (at quietMs)`: a path that repeats the argument its message named. */
const REPEATED_AT = new RegExp(`\\b(${Object.keys(BARE).join("|")})\\b([^;]*?) \\(at \\1\\)`, "g");
const BARE_NAMES = new RegExp(`\\b(${Object.keys(BARE).join("|")})\\b|\\(at (session|cwd)\\)| \\(at paneId\\)`, "g");

/** The tmux server a command names: its -L or -S (`{}`: tmux's default server). */
export interface ServerChoice {
  socketName?: string;
  socketPath?: string;
}

/**
 * `text` with each tool named as the shell command that makes its call, and its arguments as
 * flags; the `panescope list` an error advises names the command's server.
 */
export function inShellWords(text: string, server: ServerChoice = {}): string {
  const list = `${COMMANDS.list_panes}${serverFlags(server)}`;
  return text
    // A path that only repeats the argument its message named says nothing more (`quietMs must be
    // at least 1 (at quietMs)`: the name becomes its flag below); send's steps are its --text and --key.
    .replace(REPEATED_AT, "$1$2")
    .replace(/\(at input\.\d+\.(text|key)\)/g, "(at --$1)")
    .replace(TOOL_NAMES, (name) => (name === "list_panes" ? list : (COMMANDS[name] ?? name)))
    .replace(ARGUMENT_NAMES, (name) => FLAGS[name] ?? name)
    .replace(BARE_NAMES, (whole, bare: string | undefined, at: string | undefined) => (bare !== undefined ? (BARE[bare] ?? bare) : at !== undefined ? `(at --${at})` : ""));
}


/** The tmux server as the command named it: ` -L NAME`, ` -S PATH`, or "" for the default. */
export function serverFlags(server: ServerChoice): string {
  if (server.socketPath !== undefined) return ` -S ${shWord(server.socketPath)}`;
  return server.socketName === undefined ? "" : ` -L ${shWord(server.socketName)}`;
}

/**
 * No tmux server runs where the command looked: said of the server as the user named it (the
 * daemon's own words name the socket path it was started with), as `panescope record` says it.
 */
export function noServer(server: ServerChoice): string {
  const flags = serverFlags(server);
  const where = flags === "" ? "the default tmux server" : `the tmux server of${flags}`;
  return `error (no-server): ${where} is not running: start it with \`tmux${flags} new-session -d\`, or name another with -L NAME or -S PATH`;
}
