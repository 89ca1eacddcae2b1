// The reader gate between a connection and its MCP server: a named reader's cursor tool calls on
// one pane without a cursor get the reader's last cursor, the cursor of each answer is kept, an
// explicit cursor is passed through and not kept, and a refused stored cursor is forgotten.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { ReaderGate } from "../../src/daemon/connection.js";
import { ReaderCursors } from "../../src/daemon/readers.js";
import type { StdioTransport } from "../../src/mcp/stdio-transport.js";

function gate(reader: string | undefined, readers = new ReaderCursors(undefined)) {
  const sent: JSONRPCMessage[] = [];
  const inner = { send: async (message: JSONRPCMessage) => void sent.push(message), close: async () => undefined } as unknown as StdioTransport;
  const received: JSONRPCMessage[] = [];
  const g = new ReaderGate(inner, readers, reader, []);
  g.onmessage = (message) => void received.push(message);
  return { g, sent, received, readers };
}

const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0" as const, id, method: "tools/call", params: { name, arguments: args } });
const answer = (id: number, structuredContent: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ jsonrpc: "2.0" as const, id, result: { content: [], structuredContent, ...extra } });
const argsOf = (message: JSONRPCMessage | undefined) => (message as unknown as { params: { arguments: Record<string, unknown> } }).params.arguments;

describe("the reader gate", () => {
  it("continues a reader from its last cursor of the pane, and keeps each answer's cursor (a wait's after its delta)", async () => {
    const { g, received, readers } = gate("me");
    g.incoming(call(1, "capture_since", { paneId: "%03" }));
    expect(argsOf(received[0])).toEqual({ paneId: "%03" });
    await g.send(answer(1, { cursor: "c1" }));
    expect(readers.get("me", "%3")).toBe("c1");
    g.incoming(call(2, "wait_for", { paneId: "%3", pattern: "x" }));
    expect(argsOf(received[1])).toEqual({ paneId: "%3", pattern: "x", cursor: "c1" });
    await g.send(answer(2, { cursor: "c2", delta: { cursor: "c2" } }));
    expect(readers.get("me", "%3")).toBe("c2");
  });

  it("passes an explicit cursor through and keeps nothing from its answer", async () => {
    const { g, received, readers } = gate("me");
    readers.set("me", "%1", "stored");
    g.incoming(call(1, "capture_since", { paneId: "%1", cursor: "mine" }));
    expect(argsOf(received[0])).toEqual({ paneId: "%1", cursor: "mine" });
    await g.send(answer(1, { cursor: "after-mine" }));
    expect(readers.get("me", "%1")).toBe("stored");
  });

  it("forgets a stored cursor the tool refused, and leaves other tools and unnamed connections alone", async () => {
    const { g, received, readers } = gate("me");
    readers.set("me", "%1", "stale");
    g.incoming(call(1, "capture_since", { paneId: "%1" }));
    await g.send(answer(1, {}, { isError: true, _meta: { "panescope/error": "cursor-other-server" } }));
    expect(readers.get("me", "%1")).toBeUndefined();
    g.incoming(call(2, "list_panes", {}));
    expect(argsOf(received[1])).toEqual({});
    const unnamed = gate(undefined, readers);
    readers.set("me", "%2", "c");
    unnamed.g.incoming(call(1, "capture_since", { paneId: "%2" }));
    expect(argsOf(unnamed.received[0])).toEqual({ paneId: "%2" });
  });
});
