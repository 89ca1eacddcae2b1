// JSON-RPC batches: which sessions take one, what answers its members, and the bounds (pure), then
// the real MCP server in-process on the stdio transport (in-memory streams; no tmux is asked).
import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { batchMember, batchRefusal, MAX_BATCH_ANSWER_BYTES, MAX_BATCH_MEMBERS, negotiatedVersion, OpenBatches } from "../../src/mcp/batch.js";
import { connectRouted } from "../../src/mcp/request-route.js";
import { createServer } from "../../src/mcp/server.js";
import { StdioTransport } from "../../src/mcp/stdio-transport.js";
import { TmuxServer } from "../../src/tmux/server.js";
import { Hub } from "../../src/watch/hub.js";

describe("batchRefusal", () => {
  it("takes a batch only in a session on 2025-03-26 or earlier", () => {
    expect(batchRefusal("2025-03-26", 2)).toBeUndefined();
    expect(batchRefusal("2024-11-05", 2)).toBeUndefined();
    expect(batchRefusal("2025-06-18", 2)).toMatch(/^JSON-RPC batches are not part of MCP protocol version 2025-06-18, which this session negotiated .*send each message on its own line$/);
    expect(batchRefusal("2025-11-25", 2)).toMatch(/not part of MCP protocol version 2025-11-25/);
    expect(batchRefusal(undefined, 2)).toMatch(/^a JSON-RPC batch came before initialize/);
  });

  it("refuses an empty batch and one over the member limit, saying what to send", () => {
    expect(batchRefusal("2025-03-26", 0)).toMatch(/empty JSON-RPC batch .* send at least one message/);
    expect(batchRefusal("2025-03-26", MAX_BATCH_MEMBERS)).toBeUndefined();
    expect(batchRefusal("2025-03-26", MAX_BATCH_MEMBERS + 1)).toMatch(/batch of 1001 messages is over this server's limit of 1000 per batch; send fewer/);
  });
});

describe("negotiatedVersion", () => {
  it("is the version asked for when the server serves it, else the server's latest (as the SDK answers)", () => {
    expect(negotiatedVersion("2025-03-26")).toBe("2025-03-26");
    expect(negotiatedVersion("1999-01-01")).not.toBe("1999-01-01");
    expect(batchRefusal(negotiatedVersion("1999-01-01"), 1)).toBeDefined(); // an unknown version is answered with one that has no batches
  });
});

describe("batchMember", () => {
  it("passes a request, a notification and a response on, and answers anything else with its own error", () => {
    const request = { jsonrpc: "2.0", id: 1, method: "ping" };
    expect(batchMember(request, 0)).toEqual({ message: request });
    expect(batchMember({ jsonrpc: "2.0", method: "notifications/initialized" }, 1)).toEqual({ message: { jsonrpc: "2.0", method: "notifications/initialized" } });
    expect(batchMember({ jsonrpc: "2.0", id: 4, result: {} }, 2)).toEqual({ message: { jsonrpc: "2.0", id: 4, result: {} } });
    const error = (member: unknown) => JSON.parse((batchMember(member, 3) as { error: string }).error) as unknown;
    expect(error(1)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^member 3 of this batch is not a JSON-RPC 2.0 message/) } });
    expect(error({ foo: "boo" })).toMatchObject({ id: null, error: { code: -32600 } });
    // A request with a usable id is answered under it; a response's id never is.
    expect(error({ jsonrpc: "1.0", id: 9, method: "ping" })).toMatchObject({ id: 9, error: { code: -32600 } });
    expect(error({ jsonrpc: "1.0", id: 9, result: {} })).toMatchObject({ id: null });
  });
});

describe("OpenBatches", () => {
  it("gives a batch's line once its last request is answered, the answers in one array", () => {
    const batches = new OpenBatches();
    expect(batches.open([1, 2], ['{"e":0}'])).toEqual({ complete: false });
    expect(batches.waits(1)).toBe(true);
    expect(batches.answer(2, '{"id":2}')).toEqual({ complete: false });
    expect(batches.answer(1, '{"id":1}')).toEqual({ complete: true, line: '[{"e":0},{"id":2},{"id":1}]\n' });
    expect(batches.waits(1)).toBe(false);
  });

  it("leaves a cancelled request out, and says nothing for a batch with nothing to answer", () => {
    const batches = new OpenBatches();
    expect(batches.open([], [])).toEqual({ complete: true });
    expect(batches.open([], ['{"e":1}'])).toEqual({ complete: true, line: '[{"e":1}]\n' });
    batches.open([5], []);
    expect(batches.answer(5, undefined)).toEqual({ complete: true });
  });

  it("answers an id reused in two batches in the order the batches came", () => {
    const batches = new OpenBatches();
    batches.open([7], []);
    batches.open([7, 8], []);
    expect(batches.answer(7, '"a"')).toEqual({ complete: true, line: '["a"]\n' });
    expect(batches.answer(7, '"b"')).toEqual({ complete: false });
    expect(batches.answer(8, '"c"')).toEqual({ complete: true, line: '["b","c"]\n' });
  });

  it("holds at most MAX_BATCH_ANSWER_BYTES of answers: one past it is an error saying to send that request alone", () => {
    const batches = new OpenBatches();
    batches.open([1, 2, 3], []);
    const big = `"${"x".repeat(MAX_BATCH_ANSWER_BYTES / 2)}"`;
    expect(batches.answer(1, big)).toEqual({ complete: false });
    const second = batches.answer(2, big);
    expect(second.dropped).toBe(big.length);
    expect(batches.answer(3, "3").line).toMatch(/,\{"jsonrpc":"2.0","id":2,"error":\{"code":-32603,"message":"the answer to this request \(\d+ bytes\) was dropped: .*send this request on its own line"\}\},3\]\n$/);
    // Written, its bytes are free again.
    batches.open([4], []);
    expect(batches.answer(4, big)).toEqual({ complete: true, line: `[${big}]\n` });
  });
});

describe("the MCP server on the stdio transport, in-process", () => {
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  /** The server's answer lines to `lines` after an initialize asking `version` (its answer checked, then left out). */
  async function exchange(version: string, lines: unknown[]): Promise<unknown[]> {
    const server = new TmuxServer({ socketName: `panescope-none-${process.pid}` });
    const hub = new Hub({ server, key: randomBytes(32), warn: () => undefined });
    const mcp = createServer({ hub, server });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new StdioTransport(stdin, stdout, { warn: () => undefined });
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    closing.push(async () => {
      await mcp.close();
      await hub.close();
    });
    await connectRouted(mcp, transport);
    let out = "";
    stdout.setEncoding("utf8").on("data", (text: string) => (out += text));
    const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "0" } } };
    stdin.end([initialize, { jsonrpc: "2.0", method: "notifications/initialized" }, ...lines].map((line) => `${JSON.stringify(line)}\n`).join(""));
    await closed;
    // Sent at once, the lines after initialize may be answered before it.
    const answers = out.trim().split("\n").map((line) => JSON.parse(line) as { id?: unknown });
    expect(answers.filter((answer) => answer.id === 0)).toEqual([expect.objectContaining({ result: expect.objectContaining({ protocolVersion: version }) as unknown })]);
    return answers.filter((answer) => answer.id !== 0);
  }

  it("answers a batch of a 2025-03-26 session with one array: each request's answer, none for its notification", async () => {
    const answers = await exchange("2025-03-26", [
      [
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        { jsonrpc: "2.0", id: 3, method: "no/such/method" },
        7,
      ],
      [{ jsonrpc: "2.0", method: "notifications/roots/list_changed" }],
      { jsonrpc: "2.0", id: 4, method: "ping" },
    ]);
    expect(answers).toHaveLength(2); // the array, then ping 4's own line; nothing for the batch of one notification
    const [batch, single] = answers as [Array<{ id: unknown }>, unknown];
    expect([...batch].sort((a, b) => String(a.id).localeCompare(String(b.id)))).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: { tools: expect.arrayContaining([expect.objectContaining({ name: "capture_since" })]) as unknown } },
      { jsonrpc: "2.0", id: 3, error: expect.objectContaining({ code: -32601 }) as unknown },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^member 4 of this batch/) as unknown } },
    ]);
    expect(single).toEqual({ jsonrpc: "2.0", id: 4, result: {} });
  });

  it("refuses a batch of a 2025-06-18 session with one error saying to send each message on its own line", async () => {
    const answers = await exchange("2025-06-18", [[{ jsonrpc: "2.0", id: 1, method: "ping" }], { jsonrpc: "2.0", id: 2, method: "ping" }]);
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^JSON-RPC batches are not part of MCP protocol version 2025-06-18.*send each message on its own line$/) as unknown } },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });
});
