// Plain requests reach the SDK's request dispatch without the zod tests that fail for every request
// (request-route.ts). What counts as plain must never differ from what the SDK would accept as a
// request and pass on unchanged; everything else still takes the SDK's own path.
import { describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isJSONRPCRequest, JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { connectRouted, plainRequest } from "../../src/mcp/request-route.js";
import { RecordingTransport } from "../support/recording-transport.js";

/** Every combination of these members' values (absent included): 5 × 10 × 4 × 9 × 4 messages. */
const VALUES = {
  jsonrpc: [undefined, "2.0", "1.0", 2, null],
  id: [undefined, 0, 7, -3, "a", "", 1.5, 2 ** 60, null, true],
  method: [undefined, "tools/call", "", 5],
  params: [undefined, {}, { name: "t", arguments: { x: 1 } }, { _meta: {} }, { _meta: { progressToken: 1 } }, { _meta: 5 }, [], null, "x"],
  extra: [undefined, ["result", {}], ["error", { code: 1, message: "m" }], ["__proto__", 1]],
} as const;

function* messages(): Generator<unknown> {
  for (const jsonrpc of VALUES.jsonrpc)
    for (const id of VALUES.id)
      for (const method of VALUES.method)
        for (const params of VALUES.params)
          for (const extra of VALUES.extra) {
            const members: Array<[string, unknown]> = [];
            if (jsonrpc !== undefined) members.push(["jsonrpc", jsonrpc]);
            if (id !== undefined) members.push(["id", id]);
            if (method !== undefined) members.push(["method", method]);
            if (params !== undefined) members.push(["params", params]);
            if (extra !== undefined) members.push([extra[0], extra[1]]);
            // Through JSON, as a transport receives it (an own "__proto__" member included).
            yield JSON.parse(`{${members.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`);
          }
}

describe("plainRequest", () => {
  it("says plain only of what the SDK accepts as a request and parses to the same value", () => {
    let plain = 0;
    let requests = 0;
    for (const message of messages()) {
      const sdkRequest = isJSONRPCRequest(message);
      if (sdkRequest) requests++;
      if (!plainRequest(message)) continue;
      plain++;
      expect(sdkRequest, JSON.stringify(message)).toBe(true);
      expect(JSONRPCMessageSchema.parse(message)).toEqual(message);
    }
    // The generator makes plain requests and SDK requests that are not plain (with _meta) alike.
    expect(plain).toBeGreaterThan(0);
    expect(requests).toBeGreaterThan(plain);
  });

  it("takes the requests clients send: tools/call, tools/list, initialize, string or number ids", () => {
    expect(plainRequest({ jsonrpc: "2.0", id: 12, method: "tools/call", params: { name: "capture_since", arguments: { cursor: "x", waitMs: 5000 } } })).toBe(true);
    expect(plainRequest({ jsonrpc: "2.0", id: "r-1", method: "tools/list" })).toBe(true);
    expect(plainRequest({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } })).toBe(true);
  });

  it("leaves notifications, responses, and requests with _meta (progress tokens) to the SDK", () => {
    expect(plainRequest({ jsonrpc: "2.0", method: "notifications/initialized" })).toBe(false);
    expect(plainRequest({ jsonrpc: "2.0", id: 1, result: {} })).toBe(false);
    expect(plainRequest({ jsonrpc: "2.0", id: 1, error: { code: -1, message: "m" } })).toBe(false);
    expect(plainRequest({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: { progressToken: 3 }, name: "t" } })).toBe(false);
  });
});

async function routed(transport: RecordingTransport): Promise<{ sdkHandler: Transport["onmessage"] }> {
  const mcp = new McpServer({ name: "t", version: "0" });
  mcp.registerTool("echo", { inputSchema: {} }, (_args, extra) => ({ content: [{ type: "text", text: String(extra.requestId) }] }));
  let sdkHandler: Transport["onmessage"];
  // The handler the SDK installs at connect, seen as it is set.
  let current = transport.onmessage;
  Object.defineProperty(transport, "onmessage", {
    get: () => current,
    set: (handler: Transport["onmessage"]) => {
      sdkHandler ??= handler;
      current = handler;
    },
  });
  await connectRouted(mcp, transport);
  await transport.request({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } });
  return { sdkHandler };
}

describe("connectRouted", () => {
  it("routes around the SDK's handler, and requests, plain or with _meta, are answered as before", async () => {
    const transport = new RecordingTransport();
    const { sdkHandler } = await routed(transport);
    expect(sdkHandler).toBeDefined();
    // If an SDK update drops the dispatch this relies on, the route quietly stays the SDK's: say so.
    expect(transport.onmessage, "the route was not installed: does Protocol still have _onrequest?").not.toBe(sdkHandler);
    const plain = await transport.request({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "echo", arguments: {} } });
    expect(plain).toMatchObject({ id: 5, result: { content: [{ type: "text", text: "5" }] } });
    const withMeta = await transport.request({ jsonrpc: "2.0", id: "m", method: "tools/call", params: { name: "echo", arguments: {}, _meta: { progressToken: 1 } } });
    expect(withMeta).toMatchObject({ id: "m", result: { content: [{ type: "text", text: "m" }] } });
    const unknown = await transport.request({ jsonrpc: "2.0", id: 6, method: "no/such" });
    expect(unknown).toMatchObject({ id: 6, error: { code: -32601 } });
  });

  it("keeps the SDK's path for a transport that had a handler of its own before connect", async () => {
    const transport = new RecordingTransport();
    const seen: JSONRPCMessage[] = [];
    transport.onmessage = (message) => void seen.push(message);
    const { sdkHandler } = await routed(transport);
    expect(transport.onmessage).toBe(sdkHandler);
    expect(seen).toHaveLength(1); // the initialize: the SDK called the transport's own handler first
  });
});
