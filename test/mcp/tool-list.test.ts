// The tool list every conversation pays for before its first call: at most 10 KiB with every tool,
// and the output schemas it advertises still validate every answer (the SDK client checks each
// structuredContent against them once it has listed the tools).
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { listingHost, toolList } from "../../src/mcp/tool-list.js";
import { z } from "zod";
import { killAllServers, startServer, waitFor } from "../support/tmux-fixture.js";
import { link, textOf, type Linked } from "../support/mcp-link.js";

const linked: Linked[] = [];
afterEach(async () => {
  await Promise.all(linked.splice(0).map((l) => l.close()));
  await killAllServers();
});

/** An MCP server whose tools `register` adds through the listing host, linked to a client in memory. */
async function listed(register: (host: ReturnType<typeof listingHost>["host"]) => void): Promise<{ client: Client; close: () => Promise<void> }> {
  const mcp = new McpServer({ name: "t", version: "0" });
  const listing = listingHost(mcp);
  register(listing.host);
  listing.serve();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: "t", version: "0" });
  await client.connect(clientSide);
  return { client, close: async () => (await client.close(), await mcp.close()) };
}

describe("tools/list", () => {
  // 10 KiB before wait_for and send_keys answered deltas, waited on several panes and typed in order.
  it("is at most 12 KiB of JSON with all seven tools (25.6 KiB before)", async () => {
    const mcp = await link();
    linked.push(mcp);
    const listed = await mcp.client.listTools();
    expect(listed.tools).toHaveLength(7);
    expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThanOrEqual(12 * 1024);
  });

  it("leaves out what every schema would repeat, and nothing a caller can send; inputs say unknown names are refused", () => {
    const [tool] = toolList([{ name: "t", inputSchema: { n: z.number().int().min(0) }, outputSchema: z.object({ a: z.object({ b: z.string() }), c: z.looseObject({}) }) }]);
    expect(tool?.inputSchema).toEqual({ type: "object", properties: { n: { type: "integer", minimum: 0 } }, required: ["n"], additionalProperties: false });
    expect(tool?.outputSchema).toEqual({
      type: "object",
      properties: { a: { type: "object", properties: { b: { type: "string" } }, required: ["b"] }, c: { type: "object" } },
      required: ["a", "c"],
    });
  });

  it("a record keeps the schema of its values: open_pane's env is not advertised as an object that takes no names", () => {
    const [tool] = toolList([{ name: "t", inputSchema: { env: z.record(z.string().regex(/^[A-Z]+$/), z.string().max(9)).optional() } }]);
    expect(tool?.inputSchema.properties?.env).toEqual({ type: "object", propertyNames: { type: "string", pattern: "^[A-Z]+$" }, additionalProperties: { type: "string", maxLength: 9 } });
  });

  it("answers are checked by the client against the advertised schema, not again by the server", async () => {
    let answer: Record<string, unknown> = { a: "text" };
    const { client, close } = await listed((host) => host.registerTool("t", { outputSchema: { a: z.string() } }, () => ({ content: [], structuredContent: answer })));
    try {
      answer = { a: 1 };
      // The server passes it on as it is: checking its own answers cost each wake ≈0.1 ms.
      expect((await client.callTool({ name: "t" })).structuredContent).toEqual({ a: 1 });
      expect((await client.listTools()).tools[0]?.outputSchema?.properties).toHaveProperty("a");
      await expect(client.callTool({ name: "t" })).rejects.toThrow(/does not match|structured content/i);
      answer = { a: "text" };
      expect((await client.callTool({ name: "t" })).structuredContent).toEqual({ a: "text" });
    } finally {
      await close();
    }
  });

  it("a refused record key says what its schema says, not only zod's \"Invalid key in record\"", async () => {
    const name = z.string().regex(/^[A-Z_]+$/, "names are capitals and _: rename it");
    const { client, close } = await listed((host) => host.registerTool("t", { inputSchema: { env: z.record(name, z.string()) } }, () => ({ content: [] })));
    try {
      const answer = await client.callTool({ name: "t", arguments: { env: { "A=B": "x" } } });
      expect(answer.content).toEqual([{ type: "text", text: "error (bad-input): invalid arguments for t: names are capitals and _: rename it (at env.A=B)" }]);
    } finally {
      await close();
    }
  });

  it("every tool's answers validate against the output schema it advertises", async () => {
    const test = await startServer({ cols: 40, rows: 8, command: "sh", env: { PS1: "$ " } });
    const mcp = await link(test.server);
    linked.push(mcp);
    await mcp.client.listTools(); // from here on the client validates every structuredContent
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await mcp.call(name, args);
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      return result.structuredContent as Record<string, unknown>;
    };
    const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
    const first = await call("capture_since", { paneId: pane });
    await call("send_keys", { paneId: pane, text: "printf 'a\\rb\\n'; echo result=42", enter: true });
    await call("wait_for", { cursor: first.cursor, pattern: "result=\\d+", in: "raw" });
    await call("wait_for", { paneId: pane, pattern: "^result=42$" });
    await call("wait_for", { paneId: pane, pattern: "never-printed", timeoutMs: 50 });
    await call("wait_for", { paneId: pane, quietMs: 50 });
    for (const view of ["rows", "raw", "both"]) await call("capture_since", { cursor: first.cursor, view });
    await call("capture_since", { cursor: first.cursor, maxLines: 1, maxBytes: 10 });
    await call("capture_pane", { paneId: pane, history: 5, colors: true });
    await call("list_panes", {});
    const opened = await call("open_pane", { command: "sleep 600" });
    const watched = await call("capture_since", { paneId: opened.paneId });
    await call("close_pane", { paneId: opened.paneId });
    await waitFor(async () => (await mcp.call("capture_since", { cursor: watched.cursor })).structuredContent?.closed === true, 5000, "the closed pane");
    await call("capture_since", { cursor: watched.cursor });
  });
});
