// The two ways a tool answers: ok (structuredContent + a compact text rendering) or fail (an
// isError result whose text says what to do next). Handlers never throw; they return one of these.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isPanescopeError, messageOf, type ErrorKind } from "../errors.js";
import { showControls } from "./render.js";

export function ok(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

/** What fail() needs to know to phrase server-specific advice. */
export interface FailContext {
  /** How the tmux server is named on a command line, e.g. "-L work" or "" for the default. */
  serverArgs: string;
}

/** The error as an isError result: `error (kind): message`, plus the kind in _meta for programs. */
export function fail(error: unknown, context: FailContext = { serverArgs: "" }): CallToolResult {
  const kind: ErrorKind = isPanescopeError(error) ? error.kind : "internal";
  const own = isPanescopeError(error) ? error.advice : undefined;
  // Messages quote the caller's input and what tmux or the system said (a path in an ENOENT):
  // control characters among them are shown escaped, never sent to the reader's terminal.
  const text = showControls(`error (${kind}): ${own === undefined ? adviceFor(kind, messageOf(error), context) : `${messageOf(error)}. ${own}`}`);
  return { content: [{ type: "text", text }], isError: true, _meta: { "panescope/error": kind } };
}

function adviceFor(kind: ErrorKind, message: string, { serverArgs }: FailContext): string {
  const where = serverArgs === "" ? "the default tmux server" : `tmux server ${serverArgs}`;
  switch (kind) {
    case "no-server":
      return (
        `no tmux server is running on ${where}: start one with \`tmux ${serverArgs ? `${serverArgs} ` : ""}new-session -d\`, ` +
        "or restart panescope with --socket NAME / --socket-path PATH to watch another server"
      );
    case "tmux-missing":
      return `${message}. panescope keeps running; tools work once tmux can be run`;
    case "tmux-unsupported":
      return `${message}. panescope keeps running; restart it once it can run a supported tmux`;
    case "tmux-exited":
      return `${message}. The tmux server may have been killed or restarted: call again (panescope reconnects), or list_panes to see what is there`;
    case "command-failed":
      return `${message}. Check the arguments (list_panes shows the panes there are)`;
    case "timeout":
      return `${message}: tmux is slow or stuck; try again`;
    case "aborted":
      return `${message} (the call was cancelled)`;
    case "protocol":
    case "internal":
      return `${message}. This is a panescope bug; please report it. Other calls still work`;
    default:
      // bad-input, unknown-pane, pane-closed, cursor-*, not-allowed, golden: their messages already say what to do.
      return message;
  }
}
