// The reader gate between a connection and its MCP server: a named reader's cursor tool calls on
// one pane without a cursor get the reader's last cursor, the cursor of each answer is kept, an
// explicit cursor is passed through and not kept, a refused stored cursor is forgotten, and a reader
// whose cursor the bound let go, or whose saved cursor could not be read back, is told so. And the
// connection itself: a call sent with the hello, before its answer, is served after a welcome of
// our protocol and refused (never run) after a hello of another.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { BusyReaders } from "../../src/daemon/busy.js";
import { acceptConnection, ReaderGate, type ConnectionHost } from "../../src/daemon/connection.js";
import { MAX_ENTRIES, ReaderCursors } from "../../src/daemon/readers.js";
import type { StdioTransport } from "../../src/mcp/stdio-transport.js";
import { DaemonConnection } from "../../src/shell/client.js";
import { HELLO, NEEDS_HELLO, PROTOCOL, type Hello } from "../../src/shell/protocol.js";

function gate(reader: string | undefined, readers = new ReaderCursors(undefined), busy = new BusyReaders()) {
  const sent: JSONRPCMessage[] = [];
  const inner = { send: async (message: JSONRPCMessage) => void sent.push(message), close: async () => undefined } as unknown as StdioTransport;
  const received: JSONRPCMessage[] = [];
  const g = new ReaderGate(inner, readers, reader, [], busy);
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

  it("starts a reader at the first byte of a pane it opened: its next read without a cursor continues from open_pane's cursor", async () => {
    const { g, received, readers } = gate("me");
    g.incoming(call(1, "open_pane", { command: "make" }));
    expect(argsOf(received[0])).toEqual({ command: "make" });
    await g.send(answer(1, { paneId: "%7", pid: 42, session: "panescope", createdSession: false, cursor: "from-first-byte" }));
    expect(readers.get("me", "%7")).toBe("from-first-byte");
    g.incoming(call(2, "wait_for", { paneId: "%7", pattern: "DONE" }));
    expect(argsOf(received[1])).toEqual({ paneId: "%7", pattern: "DONE", cursor: "from-first-byte" });
    // An open that failed keeps nothing; a reader with no name keeps nothing either.
    g.incoming(call(3, "open_pane", { command: "nope" }));
    await g.send(answer(3, { paneId: "%8", cursor: "x" }, { isError: true }));
    expect(readers.get("me", "%8")).toBeUndefined();
    const anonymous = gate(undefined);
    anonymous.g.incoming(call(1, "open_pane", { command: "make" }));
    await anonymous.g.send(answer(1, { paneId: "%7", cursor: "c" }));
    expect(anonymous.readers.get("me", "%7")).toBeUndefined();
  });

  it("tells a reader whose cursor the bound let go that it missed what came since (a read, a wait), not a new reader's first read; a new reader is not told", async () => {
    const { g, sent, readers } = gate("me");
    for (let i = 0; i <= MAX_ENTRIES; i++) readers.set(i === 0 ? "me" : `r${i}`, "%1", `c${i}`);
    const first = { first: true, missed: false, rows: [], raw: "" };
    g.incoming(call(1, "capture_since", { paneId: "%1" }));
    await g.send(answer(1, { ...first, cursor: "n1" }, { content: [{ type: "text", text: "the screen" }] }));
    const told = (sent[0] as unknown as { result: { structuredContent: Record<string, unknown>; content: { text: string }[] } }).result;
    expect(told.structuredContent).toMatchObject({ missed: true, reason: "forgotten", cursor: "n1" });
    expect(told.content[0]?.text).toMatch(/^missed: forgotten \(the daemon let this reader's cursor of the pane go.*\nthe screen$/);
    // Told once: the answer's cursor is kept again.
    g.incoming(call(2, "wait_for", { paneId: "%1", pattern: "x" }));
    await g.send(answer(2, { outcome: "matched", delta: { ...first, cursor: "n2" } }));
    expect((sent[1] as unknown as { result: { structuredContent: { delta: Record<string, unknown> } } }).result.structuredContent.delta).toMatchObject({ missed: false });
    // A wait on a pane whose cursor was let go: its delta says so.
    readers.forget("me", "%1");
    for (let i = 0; i <= MAX_ENTRIES; i++) readers.set(i === 0 ? "me" : `s${i}`, "%2", `d${i}`);
    g.incoming(call(3, "wait_for", { paneId: "%2", pattern: "x" }));
    await g.send(answer(3, { outcome: "matched", delta: { ...first, cursor: "n3" } }));
    expect((sent[2] as unknown as { result: { structuredContent: { delta: Record<string, unknown> } } }).result.structuredContent.delta).toMatchObject({ missed: true, reason: "forgotten" });
    const other = gate("new", readers);
    other.g.incoming(call(1, "capture_since", { paneId: "%1" }));
    await other.g.send(answer(1, { ...first, cursor: "m1" }));
    expect((other.sent[0] as unknown as { result: { structuredContent: Record<string, unknown> } }).result.structuredContent).toMatchObject({ missed: false });
  });

  it("tells a reader whose saved cursor could not be read back that it missed what came since, once; and while unsure which readers lost one, each reader's first read of each pane", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "panescope-gate-lost-"));
    try {
      const file = join(scratch, "readers.jsonl");
      writeFileSync(file, `${JSON.stringify(["me\0%1", "c1"])}\n["you\\u0000%1","c\n`);
      const first = { first: true, missed: false, rows: [], raw: "" };
      const textOf = (message: JSONRPCMessage | undefined) => (message as unknown as { result: { content: { text: string }[] } }).result.content[0]?.text;
      const structuredOf = (message: JSONRPCMessage | undefined) => (message as unknown as { result: { structuredContent: Record<string, unknown> } }).result.structuredContent;
      const named = new ReaderCursors(file, () => undefined);
      const you = gate("you", named);
      you.g.incoming(call(1, "capture_since", { paneId: "%1" }));
      await you.g.send(answer(1, { ...first, cursor: "y1" }, { content: [{ type: "text", text: "the screen" }] }));
      expect(structuredOf(you.sent[0])).toMatchObject({ missed: true, reason: "forgotten" });
      expect(textOf(you.sent[0])).toMatch(/^missed: forgotten \(the daemon could not read this reader's saved cursor of the pane back.*\nthe screen$/);
      // A reader the journal never named is new: not told (the damage named its reader).
      const fresh = gate("new", named);
      fresh.g.incoming(call(1, "capture_since", { paneId: "%1" }));
      await fresh.g.send(answer(1, { ...first, cursor: "n1" }));
      expect(structuredOf(fresh.sent[0])).toMatchObject({ missed: false });

      // A journal that cannot be read at all (a directory): nobody can be told apart.
      const unsure = gate("anyone", new ReaderCursors(scratch, () => undefined));
      unsure.g.incoming(call(1, "capture_since", { paneId: "%4" }));
      await unsure.g.send(answer(1, { ...first, cursor: "a1" }));
      expect(structuredOf(unsure.sent[0])).toMatchObject({ missed: true, reason: "forgotten" });
      expect(textOf(unsure.sent[0])).toMatch(/^missed: forgotten \(the daemon could not read its saved cursors back.*cannot tell whether this reader read the pane before/);
      // Answered once: its next read goes on from its cursor, unflagged.
      unsure.g.incoming(call(2, "capture_since", { paneId: "%4" }));
      expect(argsOf(unsure.received[1])).toEqual({ paneId: "%4", cursor: "a1" });
      await unsure.g.send(answer(2, { first: false, missed: false, rows: [], raw: "", cursor: "a2" }));
      expect(structuredOf(unsure.sent[1])).toMatchObject({ missed: false });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
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

describe("one call at a time per reader and pane", () => {
  const refusal = (message: JSONRPCMessage | undefined) => message as unknown as { id: number; result: { isError: boolean; content: { text: string }[]; _meta: Record<string, unknown> } };

  it("refuses a reader's second call on a pane while its first (on another connection) is unanswered, unsent, saying it is busy and what to do; the call after the first answered continues from its cursor", async () => {
    const busy = new BusyReaders();
    const readers = new ReaderCursors(undefined);
    readers.set("me", "%3", "c0");
    const waiting = gate("me", readers, busy);
    const reading = gate("me", readers, busy);
    waiting.g.incoming(call(1, "wait_for", { paneId: "%3", pattern: "x" }));
    reading.g.incoming(call(1, "capture_since", { paneId: "%03" }));
    expect(reading.received).toEqual([]); // never reaches the MCP server: nothing read, no cursor moved
    const refused = refusal(reading.sent[0]);
    expect(refused.id).toBe(1);
    expect(refused.result.isError).toBe(true);
    expect(refused.result._meta).toEqual({ "panescope/error": "not-allowed" });
    expect(refused.result.content[0]?.text).toMatch(/^error \(not-allowed\): reader "me" is busy on %3: its wait_for call \(started \d+ s ago\) has not answered yet.*Wait for that call to end.*its own reader \(--as NAME\), or pass `cursor`$/);
    expect(readers.get("me", "%3")).toBe("c0");
    await waiting.g.send(answer(1, { outcome: "matched", delta: { cursor: "c1" } }));
    reading.g.incoming(call(2, "capture_since", { paneId: "%3" }));
    expect(argsOf(reading.received[0])).toEqual({ paneId: "%3", cursor: "c1" });
  });

  it("types a send's keys alone while the reader's call runs, without its cursor and keeping none; a send that waits is refused", async () => {
    const busy = new BusyReaders();
    const readers = new ReaderCursors(undefined);
    readers.set("me", "%3", "c0");
    const waiting = gate("me", readers, busy);
    const sending = gate("me", readers, busy);
    waiting.g.incoming(call(1, "wait_for", { paneId: "%3", pattern: "x" }));
    sending.g.incoming(call(1, "send_keys", { paneId: "%3", text: "make" }));
    expect(argsOf(sending.received[0])).toEqual({ paneId: "%3", text: "make" });
    await sending.g.send(answer(1, { cursor: "after-keys" }));
    expect(readers.get("me", "%3")).toBe("c0"); // left to the wait
    sending.g.incoming(call(2, "send_keys", { paneId: "%3", text: "make", wait: { pattern: "x" } }));
    expect(sending.received).toHaveLength(1);
    expect(refusal(sending.sent.at(-1)).result.isError).toBe(true);
  });

  it("holds nothing for another reader, another pane, an explicit cursor, a tool without a pane's cursor, or an unnamed connection", () => {
    const busy = new BusyReaders();
    const me = gate("me", new ReaderCursors(undefined), busy);
    me.g.incoming(call(1, "wait_for", { paneId: "%3", pattern: "x" }));
    me.g.incoming(call(2, "capture_since", { paneId: "%4" }));
    me.g.incoming(call(3, "capture_since", { paneId: "%3", cursor: "mine" }));
    me.g.incoming(call(4, "list_panes", {}));
    gate("you", new ReaderCursors(undefined), busy).g.incoming(call(1, "capture_since", { paneId: "%3" }));
    gate(undefined, new ReaderCursors(undefined), busy).g.incoming(call(1, "capture_since", { paneId: "%3" }));
    expect(me.received).toHaveLength(4);
    expect(me.sent).toEqual([]);
    expect(busy.size).toBe(3); // me %3, me %4, you %3
  });

  it("lets the reader go when its call is cancelled (never answered) or its connection ends", async () => {
    const busy = new BusyReaders();
    const first = gate("me", new ReaderCursors(undefined), busy);
    first.g.incoming(call(7, "wait_for", { paneId: "%3", pattern: "x" }));
    first.g.incoming({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "interrupted" } } as never);
    expect(busy.size).toBe(0);
    first.g.incoming(call(8, "wait_for", { paneId: "%3", pattern: "x" }));
    expect(busy.size).toBe(1);
    first.g.ended();
    expect(busy.size).toBe(0);
    // The cancelled call's late answer lets go of nothing it no longer holds.
    const second = gate("me", new ReaderCursors(undefined), busy);
    second.g.incoming(call(1, "capture_since", { paneId: "%3" }));
    await first.g.send(answer(7, { cursor: "late" }));
    expect(busy.size).toBe(1);
    expect(second.sent).toEqual([]);
  });
});

describe("a client that goes away mid-call", () => {
  const scratch = mkdtempSync(join(tmpdir(), "panescope-gone-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /**
   * A daemon's listener (half-open sockets, as the daemon's) whose MCP server is the SDK's, with a
   * tools/call handler that waits until the test answers it: what a shell command's `wait` meets.
   */
  async function waitingDaemon(name: string, readers: ReaderCursors) {
    const path = join(scratch, name);
    const calls: Array<{ aborted: () => boolean; answer: (cursor: string) => void }> = [];
    const ends: Array<() => void> = [];
    const host: ConnectionHost = {
      readers,
      busy: new BusyReaders(),
      warn: () => undefined,
      welcome: () => ({ protocol: PROTOCOL, version: "test", pid: 1, clients: 1, startedAt: 0 }),
      serve: async (_hello, transport) => {
        const server = new Server({ name: "test", version: "0" }, { capabilities: { tools: {} } });
        server.setRequestHandler(CallToolRequestSchema, (_request, extra) => new Promise((resolve) => calls.push({ aborted: () => extra.signal.aborted, answer: (cursor) => resolve({ content: [], structuredContent: { cursor } }) })));
        await server.connect(transport);
      },
    };
    const listener = createServer({ allowHalfOpen: true }, (socket) => {
      // Registered before the connection's own listeners: runs first when the client's end comes.
      socket.once("end", () => ends.shift()?.());
      acceptConnection(socket, host);
    });
    await new Promise<void>((resolve) => listener.listen(path, resolve));
    return { path, calls, ended: () => new Promise<void>((resolve) => ends.push(resolve)), close: () => listener.close() };
  }

  const wait = { method: "tools/call", params: { name: "wait_for", arguments: { paneId: "%3", pattern: "never" } } };

  it("a shell command's hang-up cancels its wait, and the wait's late answer moves no cursor of its reader", async () => {
    const readers = new ReaderCursors(undefined);
    readers.set("me", "%3", "before");
    const daemon = await waitingDaemon("killed.sock", readers);
    const connection = await DaemonConnection.open(daemon.path);
    const [welcome, answer] = connection.requests([{ method: HELLO, params: { protocol: PROTOCOL, version: "test", reader: "me", endCancels: true } }, wait]);
    await welcome;
    const ended = daemon.ended();
    // What a killed client's socket shows the daemon: its end, after the call (the stream keeps order).
    connection.socket.end();
    await ended;
    await new Promise((resolve) => setImmediate(resolve)); // the connection's own listeners run after the test's
    expect(daemon.calls.map((call) => call.aborted())).toEqual([true]);
    daemon.calls[0]?.answer("after");
    await new Promise((resolve) => setImmediate(resolve));
    expect(readers.get("me", "%3")).toBe("before");
    await expect(answer).rejects.toThrow("the connection closed"); // the daemon closed its side, unanswered
    daemon.close();
  });

  it("a relay's end (its stdin's) still has what it sent answered", async () => {
    const daemon = await waitingDaemon("relay.sock", new ReaderCursors(undefined));
    const connection = await DaemonConnection.open(daemon.path);
    const [welcome, answer] = connection.requests([{ method: HELLO, params: { protocol: PROTOCOL, version: "test" } }, wait]);
    await welcome;
    const ended = daemon.ended();
    connection.socket.end();
    await ended;
    await new Promise((resolve) => setImmediate(resolve));
    expect(daemon.calls.map((call) => call.aborted())).toEqual([false]);
    daemon.calls[0]?.answer("after");
    expect((await answer)?.result?.structuredContent).toEqual({ cursor: "after" });
    connection.close();
    daemon.close();
  });

  it("an answer sent after the connection ended is dropped and keeps no cursor", async () => {
    const { g, sent, readers } = gate("me");
    readers.set("me", "%3", "before");
    g.incoming(call(1, "wait_for", { paneId: "%3", pattern: "never" }));
    g.ended();
    await g.send(answer(1, { cursor: "after" }));
    expect(sent).toEqual([]);
    expect(readers.get("me", "%3")).toBe("before");
  });
});

describe("a connection's hello and the calls sent with it", () => {
  const scratch = mkdtempSync(join(tmpdir(), "panescope-connection-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** A listening socket whose connections are accepted as the daemon does; its "MCP server" answers which tool ran. */
  async function daemonOn(name: string): Promise<{ path: string; served: Hello[]; ran: string[]; close: () => void }> {
    const path = join(scratch, name);
    const served: Hello[] = [];
    const ran: string[] = [];
    const host: ConnectionHost = {
      readers: new ReaderCursors(undefined),
      busy: new BusyReaders(),
      warn: () => undefined,
      welcome: () => ({ protocol: PROTOCOL, version: "test", pid: 1, clients: 1, startedAt: 0 }),
      serve: async (hello, transport) => {
        served.push(hello);
        transport.onmessage = (message) => {
          const request = message as unknown as { id: number; params: { name: string } };
          ran.push(request.params.name);
          void transport.send({ jsonrpc: "2.0", id: request.id, result: { ran: request.params.name } });
        };
        await transport.start();
      },
    };
    const listener = createServer((socket) => acceptConnection(socket, host));
    await new Promise<void>((resolve) => listener.listen(path, resolve));
    return { path, served, ran, close: () => listener.close() };
  }

  const call = { method: "tools/call", params: { name: "capture_since", arguments: { paneId: "%1" } } };

  it("serves a call sent in the same write as the hello, after the welcome", async () => {
    const daemon = await daemonOn("same-write.sock");
    const connection = await DaemonConnection.open(daemon.path);
    const [welcome, answer] = connection.requests([{ method: HELLO, params: { protocol: PROTOCOL, version: "test", reader: "me" } }, call]);
    expect((await welcome)?.result?.protocol).toBe(PROTOCOL);
    expect((await answer)?.result).toEqual({ ran: "capture_since" });
    expect(daemon.served.map((hello) => hello.reader)).toEqual(["me"]);
    connection.close();
    daemon.close();
  });

  it("refuses a call sent with a hello of another protocol, and never runs it", async () => {
    const daemon = await daemonOn("other-protocol.sock");
    const connection = await DaemonConnection.open(daemon.path);
    const [welcome, answer] = connection.requests([{ method: HELLO, params: { protocol: PROTOCOL + 1, version: "later" } }, call]);
    expect((await welcome)?.result?.protocol).toBe(PROTOCOL);
    expect((await answer)?.error).toMatchObject({ code: NEEDS_HELLO, message: `this daemon speaks protocol ${PROTOCOL}: connect again with a matching panescope` });
    expect(daemon.served).toEqual([]);
    expect(daemon.ran).toEqual([]);
    connection.close();
    daemon.close();
  });
});
