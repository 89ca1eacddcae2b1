// Test helper: an MCP client linked in-process to a panescope server (InMemoryTransport pair) that
// checks every answer against the output schema the server advertises.
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createServer, type CreateServerOptions } from "../../src/mcp/server.js";
import { TmuxServer } from "../../src/tmux/server.js";
import { Hub } from "../../src/watch/hub.js";

export interface Linked {
  client: Client;
  hub: Hub;
  call(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function link(server: TmuxServer = new TmuxServer({ socketName: `panescope-none-${process.pid}` }), options: Partial<CreateServerOptions> = {}): Promise<Linked> {
  const hub = options.hub ?? new Hub({ server, key: randomBytes(32) });
  const mcp = createServer({ hub, server, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: "panescope-test", version: "0" });
  await client.connect(clientSide);
  // Listed first, the SDK client checks every structuredContent against the advertised output
  // schema (the server does not check its own answers: tool-list.ts).
  await client.listTools();
  return {
    client,
    hub,
    call: async (name, args = {}, callOptions = {}) => (await client.callTool({ name, arguments: args }, undefined, callOptions)) as CallToolResult,
    close: async () => {
      await client.close();
      await mcp.close();
      await hub.close();
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}
