// Malformed params of any registered method are -32602 (Invalid params) naming the method and the
// field and saying what to send (params-check.ts); the SDK answered them -32603 (Internal error)
// with zod's issues as JSON. In-process: panescope's server over connectRouted, as main.ts runs it.
import { randomBytes } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SetLevelRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkParams } from "../../src/mcp/params-check.js";
import { connectRouted } from "../../src/mcp/request-route.js";
import { createServer } from "../../src/mcp/server.js";
import { TmuxServer } from "../../src/tmux/server.js";
import { Hub } from "../../src/watch/hub.js";
import { RecordingTransport } from "../support/recording-transport.js";

const INITIALIZE = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } } as const;

async function panescope(): Promise<RecordingTransport> {
  const server = new TmuxServer({ socketName: `panescope-none-${process.pid}` });
  const mcp = createServer({ hub: new Hub({ server, key: randomBytes(32) }), server });
  const transport = new RecordingTransport();
  await connectRouted(mcp, transport);
  await transport.request(INITIALIZE);
  return transport;
}

/** The error `transport`'s server answers `method` with `params` (a request as the transport passes it on). */
async function errorOf(transport: RecordingTransport, method: string, params: unknown): Promise<unknown> {
  const answer = await transport.request({ jsonrpc: "2.0", id: 9, method, params } as JSONRPCMessage);
  return answer.error;
}

describe("malformed params", () => {
  it("tools/list with a cursor that is not a string is -32602 naming the field and its type", async () => {
    const transport = await panescope();
    expect(await errorOf(transport, "tools/list", { cursor: 5 })).toEqual({ code: -32602, message: "tools/list: params.cursor must be a string, not a number" });
    expect(await errorOf(transport, "tools/list", [])).toEqual({ code: -32602, message: "tools/list: params must be an object, not an array" });
  });

  it("ping with a _meta that is not an object, or a progress token of neither type, is -32602", async () => {
    const transport = await panescope();
    expect(await errorOf(transport, "ping", { _meta: 5 })).toEqual({ code: -32602, message: "ping: params._meta must be an object, not a number" });
    expect(await errorOf(transport, "ping", { _meta: { progressToken: {} } })).toEqual({ code: -32602, message: "ping: params._meta.progressToken must be a string or a number, not an object" });
  });

  it("initialize missing its members names each one, at most three", async () => {
    const transport = await panescope();
    expect(await errorOf(transport, "initialize", { protocolVersion: 5 })).toEqual({
      code: -32602,
      message: "initialize: params.protocolVersion must be a string, not a number; params.capabilities is missing: send an object; params.clientInfo is missing: send an object",
    });
  });

  it("a method with no handler stays -32601 (Method not found), whatever its params", async () => {
    const transport = await panescope();
    expect(await errorOf(transport, "resources/list", { cursor: 5 })).toMatchObject({ code: -32601 });
    expect(await errorOf(transport, "no/such", [])).toMatchObject({ code: -32601 });
  });

  it("a handler registered after checkParams answers its bad params -32602 too, with the values it takes", async () => {
    const mcp = new McpServer({ name: "t", version: "0" }, { capabilities: { logging: {} } });
    checkParams(mcp);
    mcp.server.setRequestHandler(SetLevelRequestSchema, () => ({}));
    const transport = new RecordingTransport();
    await connectRouted(mcp, transport);
    await transport.request(INITIALIZE);
    expect(await errorOf(transport, "logging/setLevel", { level: "loud" })).toEqual({
      code: -32602,
      message: 'logging/setLevel: params.level must be one of "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency", not "loud"',
    });
    expect(await transport.request({ jsonrpc: "2.0", id: 10, method: "logging/setLevel", params: { level: "info" } })).toMatchObject({ id: 10, result: {} });
  });

  it("a zod error a handler throws itself stays its own (-32603), not the caller's", async () => {
    const mcp = new McpServer({ name: "t", version: "0" }, { capabilities: { logging: {} } });
    checkParams(mcp);
    mcp.server.setRequestHandler(SetLevelRequestSchema, () => z.object({ kept: z.string() }).parse({}));
    const transport = new RecordingTransport();
    await connectRouted(mcp, transport);
    await transport.request(INITIALIZE);
    expect(await errorOf(transport, "logging/setLevel", { level: "info" })).toMatchObject({ code: -32603 });
  });
});
