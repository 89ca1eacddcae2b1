// `panescope record` options: the pane, the output file, how long, and which tmux server (the same
// -L/-S/--tmux flags and environment as the MCP server). Read with the option model every command
// shares (options/model.ts), so its refusals are worded as theirs are. Pure: argv and env in, options out.
import { PanescopeError } from "../errors.js";
import { optionLine, readTokens, SERVER_OPTIONS, serverSelection, valueOf, type Env, type OptionSpec } from "../options/model.js";
import type { TmuxServerOptions } from "../tmux/server.js";

export interface RecordOptions {
  server: TmuxServerOptions;
  /** Omitted: tmux's active pane. */
  paneId?: string;
  output: string;
  /** Seconds; omitted: until the pane closes or SIGINT/SIGTERM. */
  duration?: number;
}

const O = {
  output: { short: "o", value: "FILE", help: "where to write the cast (required)" },
  duration: { value: "S", help: "stop after S seconds" },
  ...SERVER_OPTIONS,
  help: { short: "h", help: "this help" },
} as const satisfies Record<string, OptionSpec>;

export const RECORD_HELP = [
  "usage: panescope record [PANE] -o FILE.cast [--duration S] [-L NAME | -S PATH] [--tmux PATH]",
  "Record a pane as an asciicast v2 file (asciinema play FILE.cast, or asciinema-player), from its screen now",
  "until it closes, Ctrl-C (SIGINT/SIGTERM) or the duration. Output panescope missed is marked (m events).",
  "",
  "options:",
  ...(["output", "duration", "socket", "socket-path", "tmux"] as const).map((name) => optionLine(name, O[name])),
  "PANE: a pane id such as %3 (default: tmux's active pane). Exit status: 0 recorded, 2 usage or tmux errors, or the cast could no longer be written (valid up to there), 130/143 a second Ctrl-C/SIGTERM stopped it at once.",
].join("\n");

function bad(what: string): PanescopeError {
  return new PanescopeError("bad-input", `${what} (see panescope record --help)`);
}

/** The options of `panescope record …` (argv after "record"), or "help". */
export function parseRecord(argv: readonly string[], env: Env): RecordOptions | "help" {
  const tokens = readTokens(argv, O, {}, bad, "panescope record");
  if (tokens.help) return "help";
  const [paneId, ...extra] = tokens.positionals;
  if (extra.length > 0) throw bad(`panescope record takes one pane, got ${tokens.positionals.join(" ")}`);
  if (paneId !== undefined && !/^%\d+$/.test(paneId)) throw bad(`a pane is %N (e.g. %3; panescope list shows them), got ${JSON.stringify(paneId)}`);
  const output = valueOf(tokens, "output");
  if (output === undefined) throw bad("-o FILE is required: where to write the cast");
  const given = valueOf(tokens, "duration");
  const duration = given === undefined ? undefined : Number(given);
  if (given !== undefined && (!/^\d+(\.\d+)?$/.test(given) || duration === 0)) throw bad(`--duration takes seconds above 0, got ${JSON.stringify(given)}`);
  const server = serverSelection({ socket: valueOf(tokens, "socket"), socketPath: valueOf(tokens, "socket-path"), tmux: valueOf(tokens, "tmux") }, env, bad);
  return { server, output, ...(paneId === undefined ? {} : { paneId }), ...(duration === undefined ? {} : { duration }) };
}
