// `panescope [mcp]`: the stdio MCP server. stdout is the protocol, so every log line goes to stderr;
// the first one names the tmux server and the mode. Resolves when the client closes stdin.
import { join } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { isPanescopeError, PanescopeError, messageOf } from "../errors.js";
import { TmuxServer, type TmuxServerOptions } from "../tmux/server.js";
import { version } from "../version.js";
import { Hub } from "../watch/hub.js";
import { createServer, DEFAULT_MAX_WAIT_MS } from "./server.js";

export interface McpOptions {
  server: TmuxServerOptions;
  readOnly: boolean;
  maxWaitMs: number;
}

const MAX_WAIT_LIMIT_MS = 3_600_000;

const USAGE = `usage: panescope [mcp] [--socket NAME | --socket-path PATH] [--tmux PATH] [--read-only] [--max-wait-ms N]
  -L, --socket NAME       tmux server socket name (tmux -L); env PANESCOPE_SOCKET
  -S, --socket-path PATH  tmux server socket path (tmux -S); env PANESCOPE_SOCKET_PATH
      --tmux PATH         tmux binary; env PANESCOPE_TMUX
      --read-only         no send_keys, open_pane, close_pane; env PANESCOPE_READ_ONLY=1
      --max-wait-ms N     cap on waits (default ${DEFAULT_MAX_WAIT_MS}); env PANESCOPE_MAX_WAIT_MS`;

function waitCap(value: string, from: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > MAX_WAIT_LIMIT_MS) {
    throw new PanescopeError("bad-input", `${from} must be a whole number of milliseconds from 0 to ${MAX_WAIT_LIMIT_MS}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** Flags win over the environment. Pure: argv and env in, options out (throws bad-input). */
export function parseOptions(args: readonly string[], env: NodeJS.ProcessEnv): McpOptions {
  const server: TmuxServerOptions = {};
  if (env.PANESCOPE_SOCKET) server.socketName = env.PANESCOPE_SOCKET;
  if (env.PANESCOPE_SOCKET_PATH) server.socketPath = env.PANESCOPE_SOCKET_PATH;
  if (env.PANESCOPE_TMUX) server.tmux = env.PANESCOPE_TMUX;
  let readOnly = env.PANESCOPE_READ_ONLY === "1" || env.PANESCOPE_READ_ONLY === "true";
  let maxWaitMs = env.PANESCOPE_MAX_WAIT_MS ? waitCap(env.PANESCOPE_MAX_WAIT_MS, "PANESCOPE_MAX_WAIT_MS") : DEFAULT_MAX_WAIT_MS;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    const eq = arg.indexOf("=");
    const [flag, inline] = arg.startsWith("--") && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? args[++i];
      if (v === undefined || v === "") throw new PanescopeError("bad-input", `${flag} needs a value\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case "-L":
      case "--socket":
        server.socketName = value();
        delete server.socketPath;
        break;
      case "-S":
      case "--socket-path":
        server.socketPath = value();
        break;
      case "--tmux":
        server.tmux = value();
        break;
      case "--read-only":
        readOnly = true;
        break;
      case "--max-wait-ms":
        maxWaitMs = waitCap(value(), "--max-wait-ms");
        break;
      default:
        throw new PanescopeError("bad-input", `unknown argument ${JSON.stringify(arg)}\n${USAGE}`);
    }
  }
  return { server, readOnly, maxWaitMs };
}

export function describeServer(options: TmuxServerOptions): string {
  if (options.socketPath !== undefined) return `-S ${options.socketPath}`;
  if (options.socketName !== undefined) return `-L ${options.socketName}`;
  return "default socket";
}

/**
 * TMUX_PANE names a pane of the server panescope runs under; it is ours only if that is the server
 * we watch. TMUX is "socket,pid,session"; when it is missing, assume the same server (refuse more).
 */
export function ownPaneOf(options: TmuxServerOptions, env: NodeJS.ProcessEnv): string | undefined {
  const pane = env.TMUX_PANE;
  if (!pane) return undefined;
  const socket = env.TMUX?.split(",")[0];
  if (!socket) return pane;
  const ours =
    options.socketPath ?? join(env.TMUX_TMPDIR ?? "/tmp", `tmux-${process.getuid?.() ?? 0}`, options.socketName ?? "default");
  return socket === ours ? pane : undefined;
}

export async function main(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stderr.write(`${USAGE}\n`);
    return 0;
  }
  let options: McpOptions;
  try {
    options = parseOptions(args, process.env);
  } catch (error) {
    process.stderr.write(`panescope: ${messageOf(error)}\n`);
    return 2;
  }
  const log = (line: string): void => void process.stderr.write(`panescope: ${line}\n`);
  const server = new TmuxServer(options.server);
  // An old tmux is refused now; a missing one is not: tools say so, and work once it is installed.
  const tmux = await server.requireSupported().then(
    (found) => `tmux ${found.label}`,
    (error: unknown) => {
      if (isPanescopeError(error, "tmux-unsupported")) return error;
      return `tmux unknown (${messageOf(error)})`;
    },
  );
  if (tmux instanceof PanescopeError) {
    log(tmux.message);
    return 2;
  }
  process.stderr.write(
    `panescope ${version}: MCP on stdio, tmux server ${describeServer(options.server)}, ${options.readOnly ? "read-only" : "read-write"}, wait cap ${options.maxWaitMs} ms, ${tmux}\n`,
  );
  const hub = new Hub({ server, warn: log });
  const ownPane = ownPaneOf(options.server, process.env);
  const mcp = createServer({ hub, server, readOnly: options.readOnly, maxWaitMs: options.maxWaitMs, ...(ownPane ? { ownPane } : {}) });
  const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: 64 * 1024 * 1024 });
  // Set before connect: the SDK keeps (and calls) an onclose that is already there.
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  const stop = (): void => void mcp.close().catch(() => undefined);
  // The SDK's stdio transport does not notice EOF: the client closing stdin ends the server.
  process.stdin.once("end", stop);
  process.stdout.on("error", stop);
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await mcp.connect(transport);
  await closed;
  await hub.close();
  log("stdin closed, bye");
  return 0;
}
