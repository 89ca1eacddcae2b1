// `panescope [mcp]`: the stdio MCP server. stdout is the protocol, so every log line goes to stderr;
// the first one names the tmux server and the mode. Resolves when the client closes stdin.
import { join } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { McpOptions } from "../options.js";
import { TmuxServer, type TmuxServerOptions } from "../tmux/server.js";
import { version } from "../version.js";
import { Hub } from "../watch/hub.js";
import { createServer } from "./server.js";

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

/** Options come parsed (src/options.ts); resolves with the exit code once the client has gone. */
export async function main(options: McpOptions): Promise<number> {
  const log = (line: string): void => void process.stderr.write(`panescope: ${line}\n`);
  process.stderr.write(
    `panescope ${version}: MCP on stdio, tmux server ${describeServer(options.server)}, ${options.readOnly ? "read-only" : "read-write"}, wait cap ${options.maxWaitMs} ms\n`,
  );
  const server = new TmuxServer(options.server);
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
