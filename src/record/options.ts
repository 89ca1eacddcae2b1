// `panescope record` options: the pane, the output file, how long, and which tmux server (the same
// -L/-S/--tmux flags and environment as the MCP server). Pure: argv and env in, options out.
import { parseArgs } from "node:util";
import { PanescopeError } from "../errors.js";
import { serverOptions, type Env } from "../options.js";
import type { TmuxServerOptions } from "../tmux/server.js";

export interface RecordOptions {
  server: TmuxServerOptions;
  /** Omitted: tmux's active pane. */
  paneId?: string;
  output: string;
  /** Seconds; omitted: until the pane closes or SIGINT/SIGTERM. */
  duration?: number;
}

export const RECORD_HELP = [
  "usage: panescope record [PANE] -o FILE.cast [--duration S] [-L NAME | -S PATH] [--tmux PATH]",
  "Record a pane as an asciicast v2 file (asciinema play FILE.cast, or asciinema-player), from its screen now",
  "until it closes, Ctrl-C (SIGINT/SIGTERM) or the duration. Output panescope missed is marked (m events).",
  "",
  "options:",
  "  -o, --output FILE        where to write the cast (required)",
  "      --duration S         stop after S seconds",
  "  -L, --socket NAME        the tmux server of `tmux -L NAME`; env PANESCOPE_SOCKET",
  "  -S, --socket-path PATH   the tmux server of `tmux -S PATH`; env PANESCOPE_SOCKET_PATH",
  "      --tmux PATH          the tmux binary (default: tmux on PATH); env PANESCOPE_TMUX",
  "PANE: a pane id such as %3 (default: tmux's active pane). Exit status: 0 recorded, 2 usage or tmux errors.",
].join("\n");

function bad(what: string): PanescopeError {
  return new PanescopeError("bad-input", `${what} (see panescope record --help)`);
}

/** The options of `panescope record …` (argv after "record"), or "help". */
export function parseRecord(argv: readonly string[], env: Env): RecordOptions | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        output: { type: "string", short: "o" },
        duration: { type: "string" },
        socket: { type: "string", short: "L" },
        "socket-path": { type: "string", short: "S" },
        tmux: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw bad(error instanceof Error ? error.message.split("\n")[0] ?? "bad options" : "bad options");
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  if (positionals.length > 1) throw bad(`panescope record takes one pane, got ${positionals.join(" ")}`);
  if (values.output === undefined || values.output === "") throw bad("-o FILE is required: where to write the cast");
  let duration: number | undefined;
  if (values.duration !== undefined) {
    duration = Number(values.duration);
    if (!/^\d+(\.\d+)?$/.test(values.duration) || duration <= 0) throw bad(`--duration takes seconds above 0, got ${JSON.stringify(values.duration)}`);
  }
  const server = serverOptions({ socket: values.socket, "socket-path": values["socket-path"], tmux: values.tmux }, env);
  return { server, output: values.output, ...(positionals[0] === undefined ? {} : { paneId: positionals[0] }), ...(duration === undefined ? {} : { duration }) };
}
