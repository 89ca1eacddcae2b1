// Wrong params in tools/call, BUILT (dist/cli.js) over stdio, in both thread modes: a call that
// names no tool is JSON-RPC -32602 (Invalid params) saying what to send; a tool that is not one, or
// arguments that are not an object or hold a wrong value, are every tool's bad-input result saying
// what to fix. The SDK answered the first two -32603 (Internal error) with zod's issues as JSON.
import { describe, expect, it } from "vitest";
import { stdioExchange } from "../../support/stdio-exchange.js";

interface Answer {
  id: number;
  result?: { isError?: boolean; content?: Array<{ text?: string }>; _meta?: Record<string, unknown>; tools?: Array<{ name: string }> };
  error?: { code: number; message: string };
}

const send = stdioExchange();

/** Each of `calls` as a tools/call's params (undefined: none) after the handshake; the answers by id. */
async function exchange(modeArgs: string[], calls: unknown[]): Promise<Map<number, Answer>> {
  const answers = (await send(modeArgs, calls.map((params, i) => ({ jsonrpc: "2.0", id: i + 2, method: "tools/call", ...(params === undefined ? {} : { params }) })))) as Answer[];
  return new Map(answers.map((answer) => [answer.id, answer]));
}

const TOOLS = ["capture_pane", "capture_since", "close_pane", "list_panes", "open_pane", "send_keys", "wait_for"];
const text = (answer: Answer | undefined): string => (answer?.result?.content ?? []).map((c) => c.text ?? "").join("\n");

describe.each([
  ["one thread", ["--single-thread"]],
  ["the engine thread", ["--engine-thread"]],
])("wrong params in tools/call (%s)", (_mode, modeArgs) => {
  it("a call that names no tool is -32602 saying what to send", async () => {
    const answers = await exchange(modeArgs, [undefined, { arguments: {} }, { name: 5, arguments: {} }, { name: "capture_since", arguments: {}, task: 5 }]);
    expect(answers.get(2)?.error).toEqual({ code: -32602, message: 'tools/call needs params {"name": TOOL, "arguments": {...}}; params is missing' });
    expect(answers.get(3)?.error).toEqual({ code: -32602, message: "tools/call needs params.name, a tool's name as a string (tools/list lists them); it is missing" });
    expect(answers.get(4)?.error).toEqual({ code: -32602, message: "tools/call needs params.name, a tool's name as a string (tools/list lists them); it is a number" });
    expect(answers.get(5)?.error?.code).toBe(-32602);
    expect(answers.get(5)?.error?.message).toMatch(/^tools\/call params are not valid: .*\(at params\.task\)$/);
  });

  it("every tool answers arguments that are not an object, or a wrong value, as bad input saying what to fix", async () => {
    const wrong = ["x", [1], null, 7];
    const calls = TOOLS.flatMap((name) => [...wrong.map((args) => ({ name, arguments: args })), { name, arguments: { cursor: 5 } }]);
    const answers = await exchange(modeArgs, calls);
    expect(answers.get(1)?.result?.tools?.map((tool) => tool.name).sort()).toEqual(TOOLS);
    calls.forEach((call, i) => {
      const answer = answers.get(i + 2);
      expect(answer?.error, JSON.stringify(call)).toBeUndefined();
      expect(answer?.result?.isError, JSON.stringify(call)).toBe(true);
      expect(answer?.result?._meta, JSON.stringify(call)).toEqual({ "panescope/error": "bad-input" });
      const said = typeof call.arguments === "object" && call.arguments !== null && !Array.isArray(call.arguments) ? /\(at cursor\)|has no argument "cursor"/ : new RegExp(`^error \\(bad-input\\): the arguments of ${call.name} must be an object of named arguments .*, not (a string|an array|null|a number): tools/list shows what ${call.name} takes$`);
      expect(text(answer), JSON.stringify(call)).toMatch(said);
    });
  });

  it("a tool that is not one is bad input naming the tools there are", async () => {
    const answers = await exchange(modeArgs, [{ name: "capture_sinse", arguments: {} }, { name: "nope", arguments: "x" }]);
    expect(answers.get(2)?.result?.isError).toBe(true);
    expect(text(answers.get(2))).toBe(`error (bad-input): tool "capture_sinse" not found (did you mean "capture_since"?): this server's tools are ${TOOLS.join(", ")}`);
    expect(text(answers.get(3))).toMatch(/^error \(bad-input\): tool "nope" not found: /);
  });
});
