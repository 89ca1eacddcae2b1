// Malformed params of methods other than tools/call, BUILT (dist/cli.js) over stdio, in both thread
// modes: -32602 (Invalid params) naming the method and the field and what to send, where the SDK
// answered -32603 (Internal error) with zod's issues as JSON, -32600, or nothing at all. Methods the
// server does not serve stay -32601. No tmux is asked: the socket names no server.
import { describe, expect, it } from "vitest";
import { stdioExchange } from "../../support/stdio-exchange.js";

interface Answer {
  id: number;
  result?: unknown;
  error?: { code: number; message: string };
}

const send = stdioExchange();

/** Each request after the handshake; the answers by id. */
async function exchange(modeArgs: string[], requests: Array<{ method: string; params?: unknown }>): Promise<Map<number, Answer>> {
  const answers = (await send(modeArgs, requests.map((request, i) => ({ jsonrpc: "2.0", id: i + 2, ...request })))) as Answer[];
  return new Map(answers.map((answer) => [answer.id, answer]));
}

describe.each([
  ["one thread", ["--single-thread"]],
  ["the engine thread", ["--engine-thread"]],
])("malformed params of any method (%s)", (_mode, modeArgs) => {
  it("are -32602 naming the method and the field; a method not served stays -32601", async () => {
    const answers = await exchange(modeArgs, [
      { method: "tools/list", params: { cursor: 5 } },
      { method: "tools/list", params: [] },
      { method: "ping", params: { _meta: 5 } },
      { method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: 5, version: "0" } } },
      { method: "resources/list", params: { cursor: 5 } },
      { method: "ping" },
    ]);
    expect(answers.get(2)?.error).toEqual({ code: -32602, message: "tools/list: params.cursor must be a string, not a number" });
    expect(answers.get(3)?.error).toEqual({ code: -32602, message: "tools/list: params must be an object, not an array" });
    expect(answers.get(4)?.error).toEqual({ code: -32602, message: "ping: params._meta must be an object, not a number" });
    expect(answers.get(5)?.error).toEqual({ code: -32602, message: "initialize: params.clientInfo.name must be a string, not a number" });
    expect(answers.get(6)?.error?.code).toBe(-32601);
    expect(answers.get(7)).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
  });
});
