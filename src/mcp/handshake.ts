// The handshake of the split server (engine/front.ts): `initialize` and `tools/list` answered on the
// front thread by an MCP server made as the engine's is, while the engine thread starts. A worker
// takes ≈18 ms to start on a 2-core VM before it loads the server's face: answered by the engine,
// the handshake took 2.9–3.0× `node -e ''` against 2.2–2.4× in one thread (issue 28 asks ≤ 3×).
// This server's tools are never called: every tools/call is the engine's.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import type { McpOptions } from "../options.js";
import { TmuxServer } from "../tmux/server.js";
import { Hub } from "../watch/hub.js";
import { ownPaneFromEnv } from "./own-pane.js";
import { createServer, type CreateServerOptions } from "./server.js";

/** What main.ts and the handshake both give createServer: the same options, the same tool list. */
export function serverOptions(options: McpOptions, hub: Hub, server: TmuxServer): CreateServerOptions {
  const ownPane = ownPaneFromEnv(process.env);
  return { hub, server, readOnly: options.readOnly, maxWaitMs: options.maxWaitMs, ...(ownPane ? { ownPane } : {}) };
}

/** Answers a handshake request by writing its answer line (`write`); resolves once it is written. */
export type HandshakeAnswer = (request: JSONRPCRequest) => void;

export async function handshake(options: McpOptions, write: (line: string) => void): Promise<HandshakeAnswer> {
  const server = new TmuxServer(options.server);
  // A hub that never watches: the tools hold it, and none of them runs here.
  const hub = new Hub({ server, warn: () => undefined, maxPanes: options.maxPanes });
  const mcp = createServer(serverOptions(options, hub, server));
  const transport: Transport = {
    start: async () => undefined,
    close: async () => undefined,
    send: async (message: JSONRPCMessage) => write(serializeMessage(message)),
  };
  await mcp.connect(transport);
  return (request) => transport.onmessage?.(request);
}
