// tools/call results go out as the tool returned them: the SDK's Server no longer parses each one
// into a copy (unchecked-results.ts), while requests are still parsed and other methods unchanged.
import { describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { skipResultRecheck } from "../../src/mcp/unchecked-results.js";
import { RecordingTransport } from "../support/recording-transport.js";

async function serve(skip: boolean): Promise<{ transport: RecordingTransport; result: { content: []; structuredContent: { n: number } } }> {
  const mcp = new McpServer({ name: "t", version: "0" });
  if (skip) skipResultRecheck(mcp);
  const result = { content: [] as [], structuredContent: { n: 1 } };
  mcp.registerTool("t", { inputSchema: {} }, () => result);
  const transport = new RecordingTransport();
  await mcp.connect(transport);
  await transport.request({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } });
  return { transport, result };
}

describe("skipResultRecheck", () => {
  it("sends the tool's result object itself (the SDK's Server sent a parsed copy)", async () => {
    for (const skip of [false, true]) {
      const { transport, result } = await serve(skip);
      const reply = await transport.request({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: {} } });
      expect(reply.result).toEqual(result);
      expect(reply.result === result, `skip=${skip}`).toBe(skip);
    }
  });

  it("still refuses a malformed tools/call request, as Invalid params, and serves other methods as before", async () => {
    const { transport } = await serve(true);
    const bad = await transport.request({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { arguments: {} } });
    // The SDK's parse answered -32603 (Internal error) with zod's issues as JSON (call-request.ts).
    expect(bad.error).toEqual({ code: -32602, message: "tools/call needs params.name, a tool's name as a string (tools/list lists them); it is missing" });
    const listed = await transport.request({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });
    expect((listed.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual(["t"]);
  });
});
