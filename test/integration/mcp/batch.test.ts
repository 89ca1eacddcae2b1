// JSON-RPC batches, BUILT (dist/cli.js) over stdio, in both thread modes: a session on 2025-03-26
// gets one array line answering each request of a batch; one on 2025-06-18 gets one -32600 error
// saying to send each message on its own line; a batch past the member limit is one error. Never
// silence: the SDK skipped every batch with a stderr line and its client waited for ever. No tmux
// is asked: the socket names no server.
import { describe, expect, it } from "vitest";
import { ofHandshake, stdioExchange } from "../../support/stdio-exchange.js";

interface Answer {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

const send = stdioExchange();

/** Every answer line after the handshake's (arrays kept whole), on `version`, stdin ended after `lines`. */
async function exchange(modeArgs: string[], version: string, lines: unknown[]): Promise<Array<Answer | Answer[]>> {
  return (await send(modeArgs, lines, version)).filter((answer) => !ofHandshake(answer)) as Array<Answer | Answer[]>;
}

const byId = (answers: Answer[]) => [...answers].sort((a, b) => String(a.id).localeCompare(String(b.id)));

describe.each([
  ["one thread", ["--single-thread"]],
  ["the engine thread", ["--engine-thread"]],
])("a JSON-RPC batch (%s)", (_mode, modeArgs) => {
  it("of a 2025-03-26 session is answered in one array line, each request once, its notifications not", async () => {
    const note = { jsonrpc: "2.0", method: "notifications/roots/list_changed" };
    const answers = await exchange(modeArgs, "2025-03-26", [
      [{ jsonrpc: "2.0", id: 2, method: "ping" }, note, { jsonrpc: "2.0", id: 3, method: "tools/list" }, 7],
      [note],
      Array.from({ length: 1001 }, () => note),
      { jsonrpc: "2.0", id: 4, method: "ping" },
    ]);
    expect(answers).toHaveLength(3);
    const batch = answers.find((answer) => Array.isArray(answer)) ?? [];
    expect(byId(batch)).toEqual([
      { jsonrpc: "2.0", id: 2, result: {} },
      { jsonrpc: "2.0", id: 3, result: expect.objectContaining({ tools: expect.any(Array) as unknown }) as unknown },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^member 3 of this batch is not a JSON-RPC 2.0 message/) as unknown } },
    ]);
    expect(answers.filter((answer) => !Array.isArray(answer))).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^this JSON-RPC batch of 1001 messages is over this server's limit of 1000 per batch/) as unknown } },
      { jsonrpc: "2.0", id: 4, result: {} },
    ]);
  });

  it("of a 2025-06-18 session is one -32600 error saying to send each message on its own line", async () => {
    const answers = await exchange(modeArgs, "2025-06-18", [[{ jsonrpc: "2.0", id: 2, method: "ping" }], { jsonrpc: "2.0", id: 3, method: "ping" }]);
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^JSON-RPC batches are not part of MCP protocol version 2025-06-18.*send each message on its own line$/) as unknown } },
      { jsonrpc: "2.0", id: 3, result: {} },
    ]);
  });
});
