// The shell commands' options: read, wait, send, list, open, close, shot (one tool call each, through
// the shared daemon) and daemon itself. Each command is a spec (its flags, usage, notes) and a
// builder from the flags to the tool call; `--help` per command comes from the same spec. Pure.
import { PanescopeError } from "../errors.js";
import { shWord } from "../sh-word.js";
import { envValue, MAX_WAIT_LIMIT_MS, paneCap, optionLine, readTokens, SERVER_OPTIONS, serverSelection, valueOf, flagGiven, type Env, type OptionSpec, type ServerSelection, type Tokens } from "./model.js";

import { SHELL_COMMANDS, type ShellCommandName } from "./shell-words.js";

export { isShellCommand, SHELL_COMMANDS, type ShellCommandName } from "./shell-words.js";

/** How the answer maps to an exit status: a wait's outcome, a read's `closed`, or plain success. */
export type ExitRule = "read" | "wait" | "wait-closed" | "plain";

export interface ShellCommand {
  name: ShellCommandName;
  server: ServerSelection;
  tool: "capture_since" | "wait_for" | "send_keys" | "list_panes" | "open_pane" | "close_pane" | "capture_pane";
  /** shot: the file the picture goes to (.svg or .png). */
  output?: string;
  /** open: stdout is the new pane's id alone (`id=$(panescope open -- …)`), what a model reads goes to stderr. */
  printsPaneId?: true;
  arguments: Record<string, unknown>;
  json: boolean;
  /** --as or PANESCOPE_READER; unset: the caller's terminal decides (shell/reader.ts). */
  reader?: string;
  exit: ExitRule;
  /** PANESCOPE_DAEMON_IDLE_MS, passed to a daemon this call starts. */
  idleMs?: number;
}

export interface DaemonOptions {
  server: ServerSelection;
  idleMs: number;
  /** Most panes watched at once (PANESCOPE_MAX_PANES; the hub's default when unset). */
  maxPanes?: number;
}

/** A daemon with no client for this long exits (its watches and emulators go with it). */
export const DAEMON_IDLE_DEFAULT_MS = 15 * 60_000;

const O = {
  ...SERVER_OPTIONS,
  json: { help: "print the structured answer (JSON) instead of the text a model reads" },
  as: { value: "NAME", env: "PANESCOPE_READER", help: "the reader whose last cursor continues (default: this terminal)" },
  cursor: { value: "TOKEN", help: "read on from this cursor instead of the reader's" },
  "max-lines": { value: "N", help: "keep at most N rows, the bottom-most" },
  view: { value: "rows|raw|both", help: "what the text shows: the screen's rows (default), the output itself (raw), or both" },
  wait: { value: "MS", help: "block up to MS until something new arrives" },
  for: { value: "REGEX", help: "until the screen matches REGEX (a JavaScript regex, ^ $ per row)" },
  quiet: { value: "MS", help: "until nothing is printed for MS" },
  ready: { help: "until the program waits for input (Linux)" },
  closed: { help: "until the pane's program ends" },
  timeout: { value: "MS", help: "give up after MS (default 10000, as wait_for; at most 3600000); exit status 1" },
  text: { value: "TEXT", repeats: true, help: "type TEXT literally (repeatable; with --key, in the order given)" },
  key: { value: "KEY", repeats: true, help: "press a tmux key: Enter, C-c, Up, F2… (repeatable)" },
  "wait-for": { value: "REGEX", help: "then wait until the screen matches REGEX" },
  session: { value: "NAME", help: 'the session to open it in (default "panescope", created detached)' },
  cwd: { value: "DIR", help: "the directory it starts in" },
  force: { help: "kill a pane panescope did not open" },
  output: { short: "o", value: "FILE", help: "where the picture goes: FILE.svg (text you can select) or FILE.png" },
  "idle-ms": { value: "MS", env: "PANESCOPE_DAEMON_IDLE_MS", help: `exit after MS with no client (default ${DAEMON_IDLE_DEFAULT_MS}; 0: never)` },
  help: { short: "h", help: "this help" },
} as const satisfies Record<string, OptionSpec>;

type Name = keyof typeof O;

interface Spec {
  usage: string;
  summary: string;
  takes: readonly Name[];
  notes: readonly string[];
}

const SERVER: readonly Name[] = ["socket", "socket-path", "tmux"];
const READER: readonly Name[] = ["as", "cursor", "max-lines", "view"];
/** A command's exit statuses, its own only (shell/main.ts decides them): `what` are those before 2 usage. */
const exits = (what: string, closed = "3 the pane is closed or gone, "): string => `Exit status: ${what}, 2 usage, ${closed}4 another error (said on stderr).`;

export const SHELL_SPECS: Readonly<Record<ShellCommandName | "daemon", Spec>> = {
  read: {
    usage: "panescope read %N [--json] [--as NAME] [--cursor TOKEN] [--max-lines N] [--view rows|raw|both] [--wait MS]",
    summary: "Print what pane %N showed since this reader's last read (the first read: its screen).",
    takes: [...READER, "wait", "json", ...SERVER, "help"],
    notes: [exits('0 read (also "no change")')],
  },
  wait: {
    usage: "panescope wait %N (--for REGEX | --quiet MS | --ready | --closed) [--timeout MS] [--json] [--as NAME]",
    summary: "Block until the condition holds in pane %N, then print everything since this reader's last read.",
    takes: ["for", "quiet", "ready", "closed", "timeout", ...READER, "json", ...SERVER, "help"],
    notes: [exits("0 the condition met (--closed: the pane closed), 1 timed out")],
  },
  send: {
    usage: "panescope send %N [--text TEXT | --key KEY]... [--wait-for REGEX [--timeout MS]] [--json] [--as NAME]",
    summary: "Type text and press keys in pane %N, in the order given; with --wait-for, wait and print what came since this reader's last read.",
    takes: ["text", "key", "wait-for", "timeout", ...READER, "json", ...SERVER, "help"],
    notes: ["A TEXT that starts with a dash is written --text=-x.", exits("0 sent (--wait-for: and matched), 1 --wait-for timed out", "3 the pane is gone or its program ended (nothing typed), ")],
  },
  list: { usage: "panescope list [--json]", summary: "List the panes of the tmux server.", takes: ["json", ...SERVER, "help"], notes: [exits("0 listed", "")] },
  open: {
    usage: "panescope open [--session NAME] [--cwd DIR] [--json] -- COMMAND [ARG...]",
    summary: "Start COMMAND (no COMMAND: a shell) in a new pane; prints its pane id alone (what was opened: on stderr).",
    takes: ["session", "cwd", "json", ...SERVER, "help"],
    notes: ["COMMAND and its arguments are quoted for the shell one by one: nothing is expanded twice.", "A tmux server that is not running is started (tmux's default server when no -L/-S is given).", exits("0 opened", "")],
  },
  close: {
    usage: "panescope close %N [--force] [--json]",
    summary: "Kill pane %N (without --force, only a pane panescope opened).",
    takes: ["force", "json", ...SERVER, "help"],
    notes: [exits("0 closed (also a pane whose program had ended)", "3 no such pane, ")],
  },
  shot: {
    usage: "panescope shot %N -o FILE.svg|FILE.png",
    summary: "Write pane %N's screen as a picture: SVG (colours, attributes, the cursor when shown; its text selectable) or PNG.",
    takes: ["output", ...SERVER, "help"],
    notes: ["PNG needs the optional @resvg/resvg-js (installed with panescope where npm could).", exits("0 written", "3 no such pane, ")],
  },
  daemon: {
    usage: "panescope daemon [-L NAME | -S PATH] [--tmux PATH] [--idle-ms MS]",
    summary: "The shared observer of one tmux server (the shell commands and `mcp --shared` start it when needed; you need not).",
    takes: ["idle-ms", ...SERVER, "help"],
    notes: ["It listens in $XDG_RUNTIME_DIR/panescope/ (without XDG_RUNTIME_DIR: .panescope/ beside the tmux server's socket; see docs/security.md).", "It exits once its tmux server is gone and no client is left, or on SIGTERM."],
  },
};

export function shellHelp(name: ShellCommandName | "daemon"): string {
  const spec = SHELL_SPECS[name];
  return [`usage: ${spec.usage}`, spec.summary, "", "options:", ...spec.takes.map((option) => optionLine(option, O[option])), "", ...spec.notes].join("\n");
}

/** The lines of `panescope --help` that name the shell commands. */
export function shellHelpLines(): string[] {
  const lines: Record<ShellCommandName, [string, string]> = {
    read: ["read %N", "what pane %N showed since this reader's last read"],
    wait: ["wait %N --for REGEX", "block until %N shows REGEX (or --quiet MS, --ready, --closed)"],
    send: ["send %N --text T --key K", "type into %N, in that order (--wait-for REGEX: then wait)"],
    list: ["list", "the panes of the tmux server"],
    open: ["open -- COMMAND...", "start COMMAND in a new pane; prints its id"],
    close: ["close %N", "kill a pane panescope opened (--force: any pane)"],
    shot: ["shot %N -o FILE.svg", "the screen as a picture (SVG or PNG)"],
  };
  return SHELL_COMMANDS.map((name) => `  ${`panescope ${lines[name][0]}`.padEnd(38)} ${lines[name][1]}`);
}

function usage(name: string): (what: string) => PanescopeError {
  return (what) => new PanescopeError("bad-input", `${what} (see panescope ${name} --help)`);
}

function count(value: string, what: string, max: number, fail: (what: string) => Error): number {
  if (!/^\d+$/.test(value) || Number(value) > max) throw fail(`${what} must be a whole number from 0 to ${max}, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** The one pane argument: %N. `extraHint` says where a word after it belongs instead. */
function paneOf(tokens: Tokens, fail: (what: string) => Error, extraHint = ""): string {
  const [pane, ...extra] = tokens.positionals;
  if (pane === undefined) throw fail("name the pane: %N (panescope list shows them)");
  if (!/^%\d+$/.test(pane)) throw fail(`a pane is %N (e.g. %3), got ${JSON.stringify(pane)}`);
  if (extra.length > 0) {
    throw fail(extraHint === "" ? `one pane only; unexpected ${JSON.stringify(extra[0])}` : `${JSON.stringify(extra[0])} after the pane is not sent${extraHint}`);
  }
  return pane;
}


function callOf(name: ShellCommandName, tokens: Tokens, fail: (what: string) => Error): Pick<ShellCommand, "tool" | "arguments" | "exit" | "output" | "printsPaneId"> {
  const ms = (option: Name): number | undefined => {
    const value = valueOf(tokens, option);
    return value === undefined ? undefined : count(value, `--${option}`, MAX_WAIT_LIMIT_MS, fail);
  };
  const view = valueOf(tokens, "view");
  if (view !== undefined && view !== "rows" && view !== "raw" && view !== "both") throw fail(`--view is rows, raw or both, got ${JSON.stringify(view)}`);
  const limits = {
    ...(valueOf(tokens, "cursor") === undefined ? {} : { cursor: valueOf(tokens, "cursor") }),
    ...(valueOf(tokens, "max-lines") === undefined ? {} : { maxLines: count(valueOf(tokens, "max-lines") ?? "", "--max-lines", 10_000, fail) }),
    ...(view === undefined ? {} : { view }),
  };
  const timeout = ms("timeout") === undefined ? {} : { timeoutMs: ms("timeout") };
  switch (name) {
    case "read":
      return { tool: "capture_since", arguments: { paneId: paneOf(tokens, fail), ...limits, ...(ms("wait") === undefined ? {} : { waitMs: ms("wait") }) }, exit: "read" };
    case "wait": {
      const conditions = [
        ...(valueOf(tokens, "for") === undefined ? [] : [{ pattern: valueOf(tokens, "for") }]),
        ...(ms("quiet") === undefined ? [] : [{ quietMs: ms("quiet") }]),
        ...(flagGiven(tokens, "ready") ? [{ ready: true }] : []),
        ...(flagGiven(tokens, "closed") ? [{ closed: true }] : []),
      ];
      if (conditions.length !== 1) throw fail("give one condition: --for REGEX, --quiet MS, --ready or --closed");
      return { tool: "wait_for", arguments: { paneId: paneOf(tokens, fail), ...limits, ...conditions[0], ...timeout }, exit: flagGiven(tokens, "closed") ? "wait-closed" : "wait" };
    }
    case "send": {
      // `send %0 'ls' Enter`, as tmux send-keys takes it, would leave which words are keys to a guess.
      const paneId = paneOf(tokens, fail, ": type text with --text TEXT and press keys with --key KEY (--text 'ls' --key Enter)");
      const input: (string | { text: string })[] = [];
      for (const o of tokens.options) if (o.name === "text" || o.name === "key") input.push(o.name === "text" ? { text: String(o.value) } : String(o.value));
      if (input.length === 0) throw fail("nothing to send: give --text TEXT and/or --key KEY");
      const pattern = valueOf(tokens, "wait-for");
      if (pattern === undefined && timeout.timeoutMs !== undefined) throw fail("--timeout goes with --wait-for");
      const wait = pattern === undefined ? {} : { wait: { pattern, ...timeout } };
      return { tool: "send_keys", arguments: { paneId, input, ...limits, ...wait }, exit: pattern === undefined ? "plain" : "wait" };
    }
    case "list":
      if (tokens.positionals.length > 0) throw fail(`panescope list takes no arguments, got ${JSON.stringify(tokens.positionals[0])}`);
      return { tool: "list_panes", arguments: {}, exit: "plain" };
    case "open": {
      const command = tokens.positionals.map(shWord).join(" ");
      const session = valueOf(tokens, "session");
      const cwd = valueOf(tokens, "cwd");
      return { tool: "open_pane", arguments: { ...(command === "" ? {} : { command }), ...(session === undefined ? {} : { session }), ...(cwd === undefined ? {} : { cwd }) }, exit: "plain", printsPaneId: true };
    }
    case "shot": {
      const output = valueOf(tokens, "output");
      if (output === undefined) throw fail("say where the picture goes: -o FILE.svg or -o FILE.png");
      const format = /\.png$/i.test(output) ? "png" : /\.svg$/i.test(output) ? "svg" : undefined;
      if (format === undefined) throw fail(`-o names an .svg or .png file, got ${JSON.stringify(output)}`);
      return { tool: "capture_pane", arguments: { paneId: paneOf(tokens, fail), format }, exit: "plain", output };
    }
    case "close":
      return { tool: "close_pane", arguments: { paneId: paneOf(tokens, fail), ...(flagGiven(tokens, "force") ? { force: true } : {}) }, exit: "plain" };
  }
}

function idleOf(tokens: Tokens | undefined, env: Env, fail: (what: string) => Error): number | undefined {
  const flag = tokens === undefined ? undefined : valueOf(tokens, "idle-ms");
  const value = flag ?? envValue(env, "PANESCOPE_DAEMON_IDLE_MS");
  // The variable is the daemon's option, which every command passes on: its help is the daemon's.
  const said = flag === undefined ? (what: string) => new PanescopeError("bad-input", `${what} (unset it, or see panescope daemon --help)`) : fail;
  return value === undefined ? undefined : count(value, flag === undefined ? "PANESCOPE_DAEMON_IDLE_MS" : "--idle-ms", 7 * 24 * 3_600_000, said);
}

export type ShellParsed = { kind: "help"; text: string } | { kind: "shell"; command: ShellCommand } | { kind: "daemon"; options: DaemonOptions };

/** argv after the command word. Throws PanescopeError("bad-input"). */
export function parseShellCommand(name: ShellCommandName | "daemon", args: readonly string[], env: Env): ShellParsed {
  const fail = usage(name);
  const specs = Object.fromEntries(SHELL_SPECS[name].takes.map((option) => [option, O[option]]));
  const tokens = readTokens(args, specs, {}, fail, `panescope ${name}`);
  if (tokens.help) return { kind: "help", text: shellHelp(name) };
  const server = serverSelection({ socket: valueOf(tokens, "socket"), socketPath: valueOf(tokens, "socket-path"), tmux: valueOf(tokens, "tmux") }, env, fail);
  if (name === "daemon") {
    if (tokens.positionals.length > 0) throw fail(`panescope daemon takes no arguments, got ${JSON.stringify(tokens.positionals[0])}`);
    return { kind: "daemon", options: { server, idleMs: idleOf(tokens, env, fail) ?? DAEMON_IDLE_DEFAULT_MS, maxPanes: paneCap(undefined, env, fail) } };
  }
  const reader = valueOf(tokens, "as") ?? envValue(env, "PANESCOPE_READER");
  const idleMs = idleOf(undefined, env, fail);
  const command: ShellCommand = { name, server, json: flagGiven(tokens, "json"), ...callOf(name, tokens, fail), ...(reader === undefined ? {} : { reader }), ...(idleMs === undefined ? {} : { idleMs }) };
  return { kind: "shell", command };
}
