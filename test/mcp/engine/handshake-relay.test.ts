// The front's side of the handshake: which lines it answers, the engine's copy of `initialize`
// under the front's own id, that copy's answer dropped from the engine's output and nothing else.
import type { JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { HandshakeRelay } from "../../../src/mcp/engine/handshake-relay.js";

const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } };

function relay(): { relay: HandshakeRelay; answered: JSONRPCRequest[]; toEngine: string[]; over: () => number; dropped: () => number } {
  const answered: JSONRPCRequest[] = [];
  const toEngine: string[] = [];
  let overs = 0;
  let dropped = 0;
  const relay = new HandshakeRelay({
    answer: (request) => answered.push(request),
    toEngine: (line) => toEngine.push(line),
    dropped: () => dropped++,
    over: () => overs++,
  });
  return { relay, answered, toEngine, over: () => overs, dropped: () => dropped };
}

describe("HandshakeRelay", () => {
  it("answers initialize and gives the engine a copy under an id of its own", () => {
    const { relay: r, answered, toEngine, over } = relay();
    expect(r.take(JSON.stringify(initialize))).toBe(true);
    expect(answered).toEqual([initialize]);
    expect(toEngine).toHaveLength(1);
    const copy = JSON.parse(toEngine[0] ?? "") as { id: unknown };
    expect(toEngine[0]?.endsWith("\n")).toBe(true);
    expect(copy).toEqual({ ...initialize, id: copy.id });
    expect(copy.id).toMatch(/^panescope-front-handshake-\d+$/);
    expect(over()).toBe(0);
  });

  it("answers tools/list alone, and the handshake is then over", () => {
    const { relay: r, answered, toEngine, over } = relay();
    const list = { jsonrpc: "2.0", id: "a", method: "tools/list", params: {} };
    expect(r.take(JSON.stringify(list))).toBe(true);
    expect(answered).toEqual([list]);
    expect(toEngine).toEqual([]);
    expect(over()).toBe(1);
  });

  it("leaves every other line to someone else: calls, notifications, _meta, broken JSON", () => {
    const { relay: r, answered, toEngine } = relay();
    const lines = [
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "capture_since", arguments: { paneId: "%1", note: "initialize" } } }),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      JSON.stringify({ ...initialize, params: { ...initialize.params, _meta: { progressToken: 1 } } }),
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"',
      JSON.stringify({ jsonrpc: "2.0", method: "initialize" }), // no id: a notification, not a request
    ];
    for (const line of lines) expect(r.take(line), line).toBe(false);
    expect(answered).toEqual([]);
    expect(toEngine).toEqual([]);
    expect(r.notification(lines[1] ?? "")).toBe(true);
    expect(r.notification(lines[0] ?? "")).toBe(false);
  });

  it("drops the answer to each copy from the engine's output, once, and keeps every other line", () => {
    const { relay: r, toEngine, dropped } = relay();
    r.take(JSON.stringify(initialize));
    r.take(JSON.stringify({ ...initialize, id: 5 }));
    expect(r.filtering).toBe(true);
    const ids = toEngine.map((line) => (JSON.parse(line) as { id: string }).id);
    const answer = (id: unknown): string => JSON.stringify({ result: { protocolVersion: "2025-06-18" }, jsonrpc: "2.0", id });
    // A client's text that quotes the id (escaped in the JSON) is not an answer to a copy.
    const quoting = JSON.stringify({ result: { content: [{ type: "text", text: `"id":"${ids[0]}"` }] }, jsonrpc: "2.0", id: 3 });
    const block = `${answer(7)}\n${answer(ids[0])}\n${quoting}\n`;
    expect(r.filter(block)).toBe(`${answer(7)}\n${quoting}\n`);
    // That copy's id was answered: the same line again is passed on, as is any line once all are dropped.
    expect(r.filter(`${answer(ids[0])}\n`)).toBe(`${answer(ids[0])}\n`);
    expect(dropped()).toBe(1);
    expect(r.filter(`${answer(ids[1])}\n${answer(8)}\n`)).toBe(`${answer(8)}\n`);
    expect(r.filter(`${answer(ids[1])}\n`)).toBe(`${answer(ids[1])}\n`);
    expect(dropped()).toBe(2);
    expect(r.filtering).toBe(false);
  });
});
