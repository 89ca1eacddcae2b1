// One option model for every subcommand (mcp, demo, golden): which flags and environment variables
// each takes, their help text, and parsing with node:util parseArgs. Pure: argv, env and whether
// stdin is a terminal in; a Command out, or a bad-input error that says what to do instead.

import { PanescopeError } from "./errors.js";
import {
  BOOLEAN_WORDS,
  envBoolean,
  envValue,
  MAX_WAIT_DEFAULT_MS,
  MAX_WAIT_LIMIT_MS,
  MAX_PANES_DEFAULT,
  paneCap,
  optionLine as specLine,
  readTokens,
  SERVER_OPTIONS,
  serverSelection,
  type Env,
  type OptionSpec,
} from "./options/model.js";
import { isShellCommand, parseShellCommand, SHELL_COMMANDS, shellHelp, shellHelpLines, type DaemonOptions, type ShellCommand } from "./options/shell.js";
import type { TmuxServerOptions } from "./tmux/server.js";

export { envBoolean, MAX_PANES_DEFAULT, MAX_WAIT_DEFAULT_MS, parseBoolean, type Env, type OptionSpec } from "./options/model.js";
export type { DaemonOptions, ShellCommand } from "./options/shell.js";

export interface McpOptions {
  server: TmuxServerOptions;
  readOnly: boolean;
  maxWaitMs: number;
  /** Most panes watched at once (the hub's default when unset). */
  maxPanes?: number;
  /** Append every tool call and answer to this file (JSON lines). */
  transcript?: string;
  /** Relay to the tmux server's shared daemon instead of watching in this process. */
  shared: boolean;
  /** Parse the panes on a thread of their own (the default); plain reads are answered on the thread that reads stdin (mcp/engine/). */
  engineThread?: boolean;
}

/** `panescope report FILE.jsonl [-o FILE.html]`. */
export interface ReportOptions {
  transcript: string;
  output: string;
}

export interface DemoOptions {
  /** The tmux binary (default "tmux"). */
  tmux?: string;
}

export interface GoldenOptions {
  update: boolean;
  checkTmux: boolean;
  listStale: boolean;
  /** Write an HTML report of the failing snapshots into this folder (recordings included). */
  report?: string;
  /** Record each tape as an asciicast (.cast); a failing tape's recording is kept. */
  record: boolean;
  tmux?: string;
  /** Tape files or folders searched for them. */
  paths: string[];
}

export type Command =
  | { kind: "help"; text: string }
  | { kind: "version" }
  /** `hint`: one line for stderr when a person runs the server in a terminal by mistake. */
  | { kind: "mcp"; options: McpOptions; hint?: string }
  | { kind: "demo"; options: DemoOptions }
  | { kind: "golden"; options: GoldenOptions }
  | { kind: "report"; options: ReportOptions }
  | { kind: "shell"; command: ShellCommand }
  | { kind: "daemon"; options: DaemonOptions };

export type CommandName = "mcp" | "demo" | "golden" | "report";
export const COMMANDS: readonly CommandName[] = ["mcp", "demo", "golden", "report"];

type OptionName = "socket" | "socket-path" | "tmux" | "read-only" | "shared" | "engine-thread" | "single-thread" | "max-wait-ms" | "max-panes" | "update" | "check-tmux" | "list-stale" | "help" | "transcript" | "output" | "report" | "record";

export const OPTIONS: Readonly<Record<OptionName, OptionSpec>> = {
  ...SERVER_OPTIONS,
  "read-only": { env: "PANESCOPE_READ_ONLY", help: "leave out send_keys, open_pane and close_pane" },
  shared: { env: "PANESCOPE_SHARED", help: "relay to the tmux server's shared daemon (one watcher for all)" },
  "engine-thread": { env: "PANESCOPE_ENGINE_THREAD", help: "parse panes on a thread of their own, the default: reads never wait behind a flood (docs/cli.md)" },
  "single-thread": { env: "PANESCOPE_SINGLE_THREAD", help: "parse panes on the thread that answers: less memory, reads slower beside floods (docs/cli.md)" },
  "max-wait-ms": { value: "N", env: "PANESCOPE_MAX_WAIT_MS", help: `cap on waits, in ms (default ${MAX_WAIT_DEFAULT_MS}, at most ${MAX_WAIT_LIMIT_MS})` },
  "max-panes": { value: "N", env: "PANESCOPE_MAX_PANES", help: `most panes watched at once; the least recently read is let go (default ${MAX_PANES_DEFAULT})` },
  update: { env: "PANESCOPE_UPDATE", help: "rewrite goldens that differ (never under CI=true)" },
  "check-tmux": { help: "also compare each snapshot with tmux's own rendering (capture-pane -p)" },
  "list-stale": { help: "list golden files no snapshot of these tapes writes, and run nothing" },
  help: { short: "h", help: "this help" },
  transcript: { value: "FILE", help: "append every tool call and its answer to FILE (JSON lines; see panescope report)" },
  output: { short: "o", value: "FILE", help: "the HTML page to write (default: FILE.jsonl with .html)" },
  report: { value: "DIR", env: "PANESCOPE_REPORT", help: "write an HTML report of the failing snapshots to DIR/index.html" },
  record: { help: "record each tape (asciicast v2); failing tapes' .cast files go to the --report folder (else panescope-report/)" },
};

const PRIVATE_SERVER = (who: string): string =>
  `${who} starts and removes its own private tmux server, so it takes no --socket/-L or --socket-path/-S ` +
  `(nor PANESCOPE_SOCKET/PANESCOPE_SOCKET_PATH); to watch a server of yours, connect an MCP client to "panescope -L NAME"`;

interface CommandSpec {
  usage: string;
  summary: string;
  takes: readonly OptionName[];
  /** Options that are understood but do not apply, with the reason. */
  refuses: Partial<Record<OptionName, string>>;
  notes: readonly string[];
}

const SPECS: Readonly<Record<CommandName, CommandSpec>> = {
  mcp: {
    usage: "panescope [mcp] [-L NAME | -S PATH] [--tmux PATH] [--read-only] [--max-wait-ms N] [--max-panes N] [--shared] [--single-thread] [--transcript FILE]",
    summary: "The stdio MCP server (the default command): an MCP client starts it and talks JSON-RPC on stdin/stdout; logs go to stderr.",
    takes: ["socket", "socket-path", "tmux", "read-only", "max-wait-ms", "max-panes", "shared", "single-thread", "engine-thread", "transcript", "help"],
    refuses: {},
    notes: ["Without -L/-S: tmux's default server. Flags win over the environment."],
  },
  demo: {
    usage: "panescope demo [--tmux PATH]",
    summary: "Watch a progress bar and a full-screen program through panescope, on a private tmux server it starts and removes.",
    takes: ["tmux", "help"],
    refuses: { socket: PRIVATE_SERVER("panescope demo"), "socket-path": PRIVATE_SERVER("panescope demo") },
    notes: ["-L/-S do not apply (PANESCOPE_SOCKET/PANESCOPE_SOCKET_PATH are ignored): the demo runs its own private tmux server."],
  },
  golden: {
    usage: "panescope golden [--update] [--check-tmux] [--list-stale] [--report DIR] [--record] [--tmux PATH] [PATH...]",
    summary: "Run *.tape scenarios (default: every one under golden/) and compare their screens with golden files.",
    takes: ["update", "check-tmux", "list-stale", "report", "record", "tmux", "help"],
    refuses: { socket: PRIVATE_SERVER("each golden scenario"), "socket-path": PRIVATE_SERVER("each golden scenario") },
    notes: [
      "PATH: *.tape files or folders searched for them. Goldens live beside the tape: <folder>/<tape name>/<snapshot>.golden.",
      "Exit status: 0 all passed, 1 some failed, 2 usage or tape errors.",
      "-L/-S do not apply (PANESCOPE_SOCKET/PANESCOPE_SOCKET_PATH are ignored): each scenario runs on its own private tmux server.",
    ],
  },
  report: {
    usage: "panescope report FILE.jsonl [-o FILE.html]",
    summary: "Render a transcript written by `panescope mcp --transcript FILE.jsonl` as one self-contained HTML page: each call, its answer and the screens.",
    takes: ["output", "help"],
    refuses: {},
    notes: ["The page needs no network and no other file: open it in any browser."],
  },
};

function waitCap(value: string, from: string): number {
  if (!/^\d+$/.test(value) || Number(value) > MAX_WAIT_LIMIT_MS) {
    throw usageError("mcp", `${from} must be a whole number of milliseconds from 0 to ${MAX_WAIT_LIMIT_MS}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

function optionLine(name: OptionName): string {
  return specLine(name, OPTIONS[name]);
}

/** `panescope COMMAND --help`. */
export function commandHelp(name: CommandName): string {
  const spec = SPECS[name];
  const envs = spec.takes.flatMap((option) => (OPTIONS[option].env === undefined ? [] : [OPTIONS[option].env]));
  const booleans = spec.takes.some((option) => OPTIONS[option].value === undefined && OPTIONS[option].env !== undefined);
  return [
    `usage: ${spec.usage}`,
    spec.summary,
    "",
    "options:",
    ...spec.takes.map(optionLine),
    ...(envs.length > 0 ? ["", `environment: ${envs.join(", ")}${booleans ? ` (booleans: ${BOOLEAN_WORDS})` : ""}`] : []),
    ...spec.notes,
  ].join("\n");
}

/** `panescope --help`: every command, the server options and every environment variable. */
export function topHelp(): string {
  const names: OptionName[] = ["socket", "socket-path", "tmux", "read-only", "max-wait-ms", "max-panes", "shared", "single-thread", "engine-thread", "transcript", "update", "report"];
  return [
    "panescope: watch tmux panes the way a terminal shows them (an MCP server, shell commands, golden-file tests)",
    "",
    "usage:",
    "  panescope [mcp] [options]              the stdio MCP server (the default): an MCP client starts it",
    "  panescope demo [--tmux PATH]           see it work, on a private tmux server",
    "  panescope golden [options] [PATH...]   run *.tape scenarios and compare their screens with goldens",
    "  panescope report FILE.jsonl [-o HTML]  render an MCP transcript (mcp --transcript) as an HTML page",
    "  panescope record [PANE] -o FILE.cast   record a pane as an asciicast (see panescope record --help)",
    "",
    "shell commands (through the tmux server's shared daemon, started on first use):",
    ...shellHelpLines(),
    "",
    "  panescope COMMAND --help               the options of one command",
    "  panescope --version",
    "",
    "options (of mcp, unless noted):",
    ...names.map((name) => `${optionLine(name)}${name === "tmux" ? " (every command)" : name === "update" || name === "report" ? " (golden)" : ""}`),
    "",
    "Each environment variable (env) stands in for its flag; a flag wins. An empty variable counts",
    `as unset; booleans are ${BOOLEAN_WORDS} (any case), anything else is refused.`,
  ].join("\n");
}

/** What a person who runs the server in a terminal by mistake reads (it keeps serving). */
export const TERMINAL_HINT =
  'panescope: this is an MCP server waiting for a client\'s JSON-RPC on stdin; to see what it does, run "panescope demo" (Ctrl-D quits)';

interface Parsed {
  values: Partial<Record<OptionName, string | true>>;
  positionals: string[];
}

function usageError(command: CommandName, what: string): PanescopeError {
  const help = command === "mcp" ? "panescope --help" : `panescope ${command} --help`;
  return new PanescopeError("bad-input", `${what} (see ${help})`);
}

function parseFor(command: CommandName, args: readonly string[]): Parsed | "help" {
  const spec = SPECS[command];
  const specs = Object.fromEntries(spec.takes.map((name) => [name, OPTIONS[name]]));
  const refuses = Object.fromEntries(Object.entries(spec.refuses).map(([name, reason]) => [name, { spec: OPTIONS[name as OptionName], reason }]));
  const tokens = readTokens(args, specs, refuses, (what) => usageError(command, what), `panescope ${command}`);
  if (tokens.help) return "help";
  return { values: Object.fromEntries(tokens.options.map((o) => [o.name, o.value])), positionals: tokens.positionals };
}

function stringOf(parsed: Parsed, name: OptionName): string | undefined {
  const value = parsed.values[name];
  return typeof value === "string" ? value : undefined;
}

function tmuxOf(parsed: Parsed, env: Env): { tmux?: string } {
  const tmux = stringOf(parsed, "tmux") ?? envValue(env, "PANESCOPE_TMUX");
  return tmux === undefined ? {} : { tmux };
}

function serverOf(parsed: Parsed, env: Env): TmuxServerOptions {
  const flags = { socket: stringOf(parsed, "socket"), socketPath: stringOf(parsed, "socket-path"), tmux: stringOf(parsed, "tmux") };
  return serverSelection(flags, env, (what) => usageError("mcp", what));
}

function mcpOptions(parsed: Parsed, env: Env): McpOptions {
  const flagWait = stringOf(parsed, "max-wait-ms");
  const envWait = envValue(env, "PANESCOPE_MAX_WAIT_MS");
  const shared = parsed.values.shared === true || envBoolean(env, "PANESCOPE_SHARED");
  // With --shared the daemon answers the calls and holds the panes: these would do nothing here.
  if (shared && stringOf(parsed, "transcript") !== undefined) {
    throw usageError("mcp", "--transcript records the calls this process answers, and with --shared the daemon answers them: drop --shared to keep a transcript");
  }
  if (shared && stringOf(parsed, "max-panes") !== undefined) {
    throw usageError("mcp", "--max-panes sets this process's cap, and with --shared the daemon watches the panes: give PANESCOPE_MAX_PANES to the command that starts the daemon");
  }
  // The engine thread is the default (mcp/engine/); --engine-thread says so, --single-thread opts out.
  const singleThread = parsed.values["single-thread"] === true || envBoolean(env, "PANESCOPE_SINGLE_THREAD");
  const engineAsked = parsed.values["engine-thread"] === true || envBoolean(env, "PANESCOPE_ENGINE_THREAD");
  if (singleThread && engineAsked) throw usageError("mcp", "--single-thread and --engine-thread ask for opposite things: drop one of the two");
  if (shared && engineAsked) throw usageError("mcp", "--engine-thread parses the panes this process watches, and with --shared the daemon watches them: drop one of the two");
  const engineThread = !shared && !singleThread;
  return {
    server: serverOf(parsed, env),
    readOnly: parsed.values["read-only"] === true || envBoolean(env, "PANESCOPE_READ_ONLY"),
    shared,
    ...(engineThread ? { engineThread } : {}),
    maxPanes: paneCap(stringOf(parsed, "max-panes"), env, (what) => usageError("mcp", what)),
    maxWaitMs:
      flagWait !== undefined ? waitCap(flagWait, "--max-wait-ms") : envWait !== undefined ? waitCap(envWait, "PANESCOPE_MAX_WAIT_MS") : MAX_WAIT_DEFAULT_MS,
    ...(stringOf(parsed, "transcript") === undefined ? {} : { transcript: stringOf(parsed, "transcript") }),
  };
}

function goldenOptions(parsed: Parsed, env: Env): GoldenOptions {
  return {
    update: parsed.values.update === true || envBoolean(env, "PANESCOPE_UPDATE"),
    checkTmux: parsed.values["check-tmux"] === true,
    listStale: parsed.values["list-stale"] === true,
    ...reportDir(parsed, env),
    record: parsed.values.record === true,
    ...tmuxOf(parsed, env),
    paths: parsed.positionals.length > 0 ? parsed.positionals : ["golden"],
  };
}

/**
 * The command argv asks for. No command name means `mcp` (an MCP client runs plain `panescope`);
 * `help`/`--help`/`-h` and `--version`/`-V` come first. Throws PanescopeError("bad-input").
 */
export function parseCommand(argv: readonly string[], env: Env, stdinIsTTY = false): Command {
  const [first, ...rest] = argv;
  if (first === "--help" || first === "-h" || first === "help") {
    const topic = first === "help" ? rest[0] : undefined;
    if (topic === undefined) return { kind: "help", text: topHelp() };
    if (isShellCommand(topic)) return { kind: "help", text: shellHelp(topic) };
    if (!(COMMANDS as readonly string[]).includes(topic)) throw usageError("mcp", `no help on "${topic}": the commands are ${[...COMMANDS, "record", ...SHELL_COMMANDS].join(", ")}`);
    return { kind: "help", text: commandHelp(topic as CommandName) };
  }
  if (first === "--version" || first === "-V") {
    if (rest.length > 0) throw usageError("mcp", `${first} takes nothing after it`);
    return { kind: "version" };
  }
  if (isShellCommand(first)) {
    const parsed = parseShellCommand(first, rest, env);
    return parsed.kind === "help" ? parsed : parsed.kind === "shell" ? { kind: "shell", command: parsed.command } : parsed;
  }
  const named = (COMMANDS as readonly string[]).includes(first ?? "") ? (first as CommandName) : undefined;
  const command = named ?? "mcp";
  const parsed = parseFor(command, named === undefined ? argv : rest);
  if (parsed === "help") return { kind: "help", text: commandHelp(command) };
  if (command === "report") return { kind: "report", options: reportOptions(parsed) };
  if (command !== "golden" && parsed.positionals.length > 0) {
    const [word] = parsed.positionals;
    throw usageError(
      command,
      named === undefined ? `unknown command "${word}": the commands are ${[...COMMANDS, "record", ...SHELL_COMMANDS].join(", ")} (a command comes first)` : `panescope ${command} takes no arguments, got "${word}"`,
    );
  }
  switch (command) {
    case "mcp":
      return { kind: "mcp", options: mcpOptions(parsed, env), ...(stdinIsTTY ? { hint: TERMINAL_HINT } : {}) };
    case "demo":
      return { kind: "demo", options: tmuxOf(parsed, env) };
    case "golden":
      return { kind: "golden", options: goldenOptions(parsed, env) };
  }
}

function reportDir(parsed: Parsed, env: Env): { report?: string } {
  const report = stringOf(parsed, "report") ?? envValue(env, "PANESCOPE_REPORT");
  return report === undefined ? {} : { report };
}

function reportOptions(parsed: Parsed): ReportOptions {
  const [transcript, ...more] = parsed.positionals;
  if (transcript === undefined || more.length > 0) throw usageError("report", "panescope report takes one transcript file (FILE.jsonl)");
  return { transcript, output: stringOf(parsed, "output") ?? `${transcript.replace(/\.jsonl?$/, "")}.html` };
}
