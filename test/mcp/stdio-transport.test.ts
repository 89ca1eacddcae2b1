// The stdio transport over in-memory streams: unusable lines are answered (a request with a
// readable id, a batch) or named on stderr, and the transport keeps delivering the messages after
// them; a batch is answered as one array line in a session whose protocol version has batches.
import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { NOT_READING_NOTICE } from "../../src/mcp/input-hold.js";
import { salvageRequestId, StdioTransport } from "../../src/mcp/stdio-transport.js";

describe("salvageRequestId", () => {
  it("reads the id of a request from either end: SDK clients put it last, others first", () => {
    expect(salvageRequestId('{"method":"tools/call","params":{"arguments":{"text":"xxx', 'xxx"}},"jsonrpc":"2.0","id":42}')).toBe(42);
    expect(salvageRequestId('{"jsonrpc":"2.0","id":"req-7","method":"tools/call","params":{"x":"', 'yyy"}}')).toBe("req-7");
    expect(salvageRequestId('{ "jsonrpc" : "2.0" , "method" : "a" , "id" : 3 , "params" : [', '] }')).toBe(3);
  });

  it("never takes an id from inside params, a response or a notification", () => {
    expect(salvageRequestId('{"method":"x","params":{"id":5,"t":"', 'zz"}}')).toBeUndefined();
    expect(salvageRequestId('{"jsonrpc":"2.0","id":9,"result":{"content":"', '"}}')).toBeUndefined();
    expect(salvageRequestId('{"jsonrpc":"2.0","method":"notifications/x","params":{"t":"', '"}}')).toBeUndefined();
    expect(salvageRequestId('{"method":"x","params":{"s":"a\\",\\"id\\":4', '\\"id\\":4"}}')).toBeUndefined();
    expect(salvageRequestId("not json at all", "really not")).toBeUndefined();
    expect(salvageRequestId('{"method":"x","id":1.5,"p":"', '"}')).toBeUndefined();
  });
});

interface Rig {
  transport: StdioTransport;
  stdin: PassThrough;
  messages: JSONRPCMessage[];
  sent: unknown[];
  warnings: string[];
  closed: Promise<void>;
}

/** `answer`: the server's part, answering each request as it arrives (stdin's end waits for that). */
async function rig(maxLineBytes = 1024, answer = true): Promise<Rig> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const sent: unknown[] = [];
  let out = "";
  stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    const lines = out.split("\n");
    out = lines.pop() ?? "";
    for (const line of lines) sent.push(JSON.parse(line));
  });
  const warnings: string[] = [];
  const transport = new StdioTransport(stdin, stdout, { maxLineBytes, warn: (line) => void warnings.push(line) });
  const messages: JSONRPCMessage[] = [];
  transport.onmessage = (message) => {
    messages.push(message);
    if (!answer || !("method" in message && "id" in message)) return;
    // initialize: the version asked for, as the SDK's server answers one it serves.
    const result = message.method === "initialize" ? { protocolVersion: (message.params as { protocolVersion: string }).protocolVersion } : {};
    void transport.send({ jsonrpc: "2.0", id: message.id, result });
  };
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  await transport.start();
  return { transport, stdin, messages, sent, warnings, closed };
}

const request = (id: number, text = "") => JSON.stringify({ method: "tools/call", params: { name: "x", arguments: { text } }, jsonrpc: "2.0", id });

describe("StdioTransport", () => {
  it("answers an oversized request with a JSON-RPC error for its id, then serves the next", async () => {
    const r = await rig();
    r.stdin.write(`${request(1, "a".repeat(5000))}\n${request(2)}\n`);
    r.stdin.end();
    await r.closed;
    expect(r.messages).toEqual([JSON.parse(request(2))]);
    expect(r.sent).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32600, message: expect.stringMatching(/^this 50\d\d-byte request is over this server's limit of 1024 bytes per message/) } },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
    expect(r.warnings).toEqual([expect.stringMatching(/^answered request 1 with an error/)]);
  });

  it("names an oversized notification on stderr without answering it", async () => {
    const r = await rig();
    r.stdin.end(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/x", params: { t: "b".repeat(5000) } })}\n${request(3)}\n`);
    await r.closed;
    expect(r.sent).toEqual([{ jsonrpc: "2.0", id: 3, result: {} }]);
    expect(r.messages).toEqual([JSON.parse(request(3))]);
    expect(r.warnings).toEqual([expect.stringMatching(/^skipped a 50\d\d-byte message on stdin that is over .* it names no request id to answer$/)]);
  });

  it("answers a request that is not JSON with a parse error when its id is readable", async () => {
    const r = await rig();
    r.stdin.end(`{"method":"tools/call","params":{oops},"jsonrpc":"2.0","id":8}\nnot json\n${request(4)}\n`);
    await r.closed;
    expect(r.sent).toEqual([
      { jsonrpc: "2.0", id: 8, error: { code: -32700, message: expect.stringContaining("is not JSON") } },
      { jsonrpc: "2.0", id: 4, result: {} },
    ]);
    expect(r.warnings[1]).toMatch(/^skipped a 8-byte message on stdin that is not JSON/);
    expect(r.messages).toEqual([JSON.parse(request(4))]);
  });

  it("closes when stdin ends, saying so if a message was cut off", async () => {
    const r = await rig();
    r.stdin.end('{"method":"x"');
    await r.closed;
    expect(r.warnings).toEqual(["stdin ended inside a message (13 bytes without a newline): ignored"]);
    await r.transport.close(); // a second close is harmless and does not call onclose again
  });

  it("stdin's end waits for the answers of the requests read before it, and for no cancelled one", async () => {
    const r = await rig(1024, false);
    let closed = false;
    void r.closed.then(() => (closed = true));
    const cancelled = JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 6 } });
    r.stdin.end(`${request(5)}\n${request(6)}\n${cancelled}\n`);
    await new Promise((resolve) => r.stdin.once("end", resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false); // request 5 is still being worked on
    await r.transport.send({ jsonrpc: "2.0", id: 5, result: {} });
    await r.closed;
    expect(r.sent).toEqual([{ jsonrpc: "2.0", id: 5, result: {} }]);
  });

  it("stdin's end waits for both requests of a client that reused an id in flight", async () => {
    const r = await rig(1024, false);
    let closed = false;
    void r.closed.then(() => (closed = true));
    r.stdin.end(`${request(7)}\n${request(7)}\n`);
    await new Promise((resolve) => r.stdin.once("end", resolve));
    await r.transport.send({ jsonrpc: "2.0", id: 7, result: { first: true } });
    expect(closed).toBe(false); // the second request 7 is still being worked on
    await r.transport.send({ jsonrpc: "2.0", id: 7, result: { second: true } });
    await r.closed;
    expect(r.sent).toEqual([
      { jsonrpc: "2.0", id: 7, result: { first: true } },
      { jsonrpc: "2.0", id: 7, result: { second: true } },
    ]);
  });

  it("answers that find stdout full wait on one drain listener however many there are", async () => {
    const stdout = new PassThrough({ highWaterMark: 16 }); // nobody reads it yet: full at once
    const transport = new StdioTransport(new PassThrough(), stdout, { warn: () => undefined });
    await transport.start();
    let done = 0;
    const written = Array.from({ length: 20 }, (_, id) => transport.send({ jsonrpc: "2.0", id, result: {} }).then(() => void done++));
    // Node warns of a leak (MaxListenersExceededWarning) past 10 listeners of one event.
    expect(stdout.listenerCount("drain")).toBe(1);
    expect(done).toBe(0);
    stdout.resume(); // the client reads: stdout drains
    await Promise.all(written);
    expect(done).toBe(20);
    expect(stdout.listenerCount("drain")).toBe(0);
  });

  it("reads no request while stdout does not drain, says so once, and answers every one once it drains", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough({ highWaterMark: 16 }); // nobody reads it yet: full at the first answer
    const warnings: string[] = [];
    const transport = new StdioTransport(stdin, stdout, { warn: (line) => void warnings.push(line) });
    const read: unknown[] = [];
    transport.onmessage = (message) => {
      if (!("method" in message && "id" in message)) return;
      read.push(message.id);
      void transport.send({ jsonrpc: "2.0", id: message.id, result: {} });
    };
    await transport.start();
    const first = new Promise((resolve) => stdin.once("data", resolve));
    stdin.write(`${request(1)}\n`);
    await first;
    expect(read).toEqual([1]);
    expect(stdin.isPaused()).toBe(true);
    stdin.write(`${request(2)}\n${request(3)}\n`);
    expect(stdin.readableLength).toBeGreaterThan(0); // waits in stdin, unread
    expect(read).toEqual([1]);
    expect(warnings).toEqual([NOT_READING_NOTICE]);

    let out = "";
    const answered = new Promise<void>((resolve) =>
      stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.split("\n").length > 3) resolve();
      }),
    ); // the client reads: stdout drains, stdin is read again
    await answered;
    expect(read).toEqual([1, 2, 3]);
    expect(out.trim().split("\n").map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([1, 2, 3]);
    expect(warnings).toEqual([NOT_READING_NOTICE]);
  });
});

const initialize = (version: string, id = 0) => JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "0" } } });
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const note = { jsonrpc: "2.0", method: "notifications/x" };
const line = (message: unknown) => `${JSON.stringify(message)}\n`;

describe("StdioTransport with JSON-RPC batches", () => {
  it("answers each request of a 2025-03-26 session's batch in one array line, and none of its notifications", async () => {
    const r = await rig();
    r.stdin.end(`${initialize("2025-03-26")}\n${line([ping(1), note, ping(2)])}${line([note, note])}${line(ping(3))}`);
    await r.closed;
    expect(r.sent).toEqual([
      { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-03-26" } },
      [
        { jsonrpc: "2.0", id: 1, result: {} },
        { jsonrpc: "2.0", id: 2, result: {} },
      ],
      { jsonrpc: "2.0", id: 3, result: {} },
    ]);
    expect(r.messages.slice(1)).toEqual([ping(1), note, ping(2), note, note, ping(3)]);
  });

  it("answers [] with one Invalid Request (id null), and each invalid member with its own error in the array", async () => {
    const r = await rig();
    r.stdin.end(`${initialize("2024-11-05")}\n[]\n${line([1, ping(4), { foo: "boo" }, { jsonrpc: "2.0", id: 5, method: 6 }])}`);
    await r.closed;
    expect(r.sent.slice(1)).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^an empty JSON-RPC batch/) } },
      [
        { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^member 0 of this batch is not/) } },
        { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^member 2 /) } },
        { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^member 3 /) } },
        { jsonrpc: "2.0", id: 4, result: {} },
      ],
    ]);
    expect(r.messages.slice(1)).toEqual([ping(4)]);
  });

  it("refuses a batch of a 2025-06-18 session, or one before initialize, with one error and delivers none of it", async () => {
    const r = await rig();
    r.stdin.end(`${line([ping(1)])}${initialize("2025-06-18")}\n${line([ping(2), note])}${line(ping(3))}`);
    await r.closed;
    expect(r.sent).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^a JSON-RPC batch came before initialize.*send each message on its own line$/) } },
      { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-06-18" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^JSON-RPC batches are not part of MCP protocol version 2025-06-18, which this session negotiated.*send each message on its own line$/) } },
      { jsonrpc: "2.0", id: 3, result: {} },
    ]);
    expect(r.messages.map((message) => ("id" in message ? message.id : undefined))).toEqual([0, 3]);
    expect(r.warnings).toEqual([expect.stringMatching(/^answered a 42-byte JSON-RPC batch of 1 message with an error: a JSON-RPC batch came before initialize/), expect.stringMatching(/^answered a \d+-byte JSON-RPC batch of 2 messages with an error: JSON-RPC batches are not part/)]);
  });

  it("takes a batch read right behind initialize, before its answer, by the version the server will answer", async () => {
    const r = await rig(1024, false);
    r.stdin.write(`${initialize("2025-03-26")}\n${line([ping(1)])}`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.messages.map((message) => ("id" in message ? message.id : undefined))).toEqual([0, 1]);
    await r.transport.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-03-26" } });
    await r.transport.send({ jsonrpc: "2.0", id: 1, result: {} });
    expect(r.sent).toEqual([{ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-03-26" } }, [{ jsonrpc: "2.0", id: 1, result: {} }]]);
  });

  it("an initialize answered with an error leaves the session's version as it was", async () => {
    const r = await rig(1024, false);
    r.stdin.write(`${initialize("2025-03-26")}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    await r.transport.send({ jsonrpc: "2.0", id: 0, error: { code: -32602, message: "no" } });
    r.stdin.write(line([ping(1)]));
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.sent.at(-1)).toMatchObject({ id: null, error: { message: expect.stringMatching(/before initialize/) } });
  });

  it("writes a batch's line once its slowest request is answered, leaves a cancelled one out, and stdin's end waits for it", async () => {
    const r = await rig(1024, false);
    let closed = false;
    void r.closed.then(() => (closed = true));
    r.stdin.write(`${initialize("2025-03-26")}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    await r.transport.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-03-26" } });
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 6 } };
    r.stdin.end(`${line([ping(5), ping(6), ping(7)])}${line(cancel)}`);
    await new Promise((resolve) => r.stdin.once("end", resolve));
    await r.transport.send({ jsonrpc: "2.0", id: 7, result: { slow: false } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.sent).toHaveLength(1); // the batch waits for request 5
    expect(closed).toBe(false);
    await r.transport.send({ jsonrpc: "2.0", id: 5, result: { slow: true } });
    await r.closed;
    expect(r.sent.slice(1)).toEqual([
      [
        { jsonrpc: "2.0", id: 7, result: { slow: false } },
        { jsonrpc: "2.0", id: 5, result: { slow: true } },
      ],
    ]);
  });

  it("answers a batch line over the size limit, or not JSON, with one error (id null): its client may be waiting", async () => {
    const r = await rig();
    r.stdin.end(`${initialize("2025-03-26")}\n${line([{ ...ping(1), params: { t: "a".repeat(2000) } }])}[{"jsonrpc":"2.0","id":2,"method":"ping"}\n${line(ping(3))}`);
    await r.closed;
    expect(r.sent.slice(1)).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^this 20\d\d-byte JSON-RPC batch is over this server's limit of 1024 bytes per message/) } },
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^this 41-byte JSON-RPC batch is not JSON/) } },
      { jsonrpc: "2.0", id: 3, result: {} },
    ]);
  });
});
