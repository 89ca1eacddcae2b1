// Malformed params of methods other than tools/call, BUILT (dist/cli.js) over stdio, in both thread
// modes: -32602 (Invalid params) naming the method and the field and what to send, where the SDK
// answered -32603 (Internal error) with zod's issues as JSON, -32600, or nothing at all. Methods the
// server does not serve stay -32601. No tmux is asked: the socket names no server.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");
const stateDir = mkdtempSync(join(tmpdir(), "panescope-state-"));
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) child.kill();
  rmSync(stateDir, { recursive: true, force: true });
});

interface Answer {
  id: number;
  result?: unknown;
  error?: { code: number; message: string };
}

/** Sends every request at once after the handshake, ends stdin, and resolves with the answers by id once the server has exited. */
async function exchange(modeArgs: string[], requests: Array<{ method: string; params?: unknown }>): Promise<Map<number, Answer>> {
  const child = spawn(process.execPath, [CLI, "--socket", `panescope-none-${process.pid}`, ...modeArgs], {
    env: { PATH: process.env.PATH, XDG_STATE_HOME: stateDir },
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.add(child);
  let out = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text: string) => (out += text));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const lines = [
    { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 1, method: "tools/list" }, // the handshake's end: the split server's engine takes what follows
    ...requests.map((request, i) => ({ jsonrpc: "2.0", id: i + 2, ...request })),
  ];
  child.stdin.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
  await exited;
  children.delete(child);
  const answers = out.trim().split("\n").map((line) => JSON.parse(line) as Answer);
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
