// fd 1 shared by the split server's threads (engine/shared-stdout.ts), BUILT (dist/cli.js), against
// a private tmux server: the engine writes its short answers itself, and while a client does not
// read (the socket Node's child_process gives a child fills: the engine's writes fail) every line
// still arrives whole, each request answered once, the front's answers and the engine's mixed. A
// write cut short (Linux takes a short one whole or not at all) is shared-stdout.test.ts's.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAllServers, startServer, type TestServer } from "../../support/tmux-fixture.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");
const stateDir = mkdtempSync(join(tmpdir(), "panescope-state-"));

let test: TestServer;

beforeAll(async () => {
  test = await startServer({ cols: 80, rows: 10, command: "sh" });
});

afterAll(async () => {
  await killAllServers();
  rmSync(stateDir, { recursive: true, force: true });
});

interface Answer {
  id: number;
  result?: { structuredContent?: { cursor?: string } };
  error?: unknown;
}

/** A raw JSON-RPC client over the server's stdio, which can stop reading its stdout for a while. */
function serve(): {
  request(method: string, params: object): { id: number; answer: Promise<Answer> };
  pause(): void;
  resume(): void;
  lines: string[];
  end(): Promise<string>;
} {
  const child = spawn(process.execPath, [CLI, "--socket", test.name, "--engine-thread"], {
    env: { PATH: process.env.PATH, XDG_STATE_HOME: stateDir, ...(process.env.TMUX_TMPDIR ? { TMUX_TMPDIR: process.env.TMUX_TMPDIR } : {}) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiting = new Map<number, (answer: Answer) => void>();
  let buffered = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text: string) => {
    buffered += text;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      lines.push(line);
      const answer = JSON.parse(line) as Answer; // a line cut or mixed with another throws here
      waiting.get(answer.id)?.(answer);
      waiting.delete(answer.id);
    }
  });
  let nextId = 0;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    request(method, params) {
      const id = ++nextId;
      const answer = new Promise<Answer>((resolve) => waiting.set(id, resolve));
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      return { id, answer };
    },
    pause: () => child.stdout.pause(),
    resume: () => child.stdout.resume(),
    lines,
    async end() {
      child.stdin.end();
      await exited;
      return stderr;
    },
  };
}

describe("fd 1 shared by the engine thread and the front", () => {
  it("keeps every line whole while the client stops reading, the engine's own writes and the front's mixed", async () => {
    const [pane = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "i=0; while :; do i=$((i+1)); printf 'line %s %0150d\\n' $i $i; sleep 0.01; done"]);
    const server = serve();
    await server.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } }).answer;
    await server.request("tools/list", {}).answer;
    const call = (args: object) => server.request("tools/call", { name: "capture_since", arguments: args });
    const first = await call({ paneId: pane }).answer;
    const cursor = first.result?.structuredContent?.cursor ?? "";
    expect(cursor).not.toBe("");
    // Waits, one at a time: the engine answers each, and writes the short ones itself.
    let latest = cursor;
    for (let i = 0; i < 5; i++) latest = (await call({ cursor: latest, waitMs: 1000, maxBytes: 1000 }).answer).result?.structuredContent?.cursor ?? latest;

    // The client stops reading. Waits alone first: the engine writes until the socket is full (a
    // write then fails, or takes part of a line and the front writes the rest). Then waits (the
    // engine's) and plain reads (the front's) pile up behind them.
    server.pause();
    const asked: Array<{ id: number; answer: Promise<Answer> }> = [];
    const wait = (i: number) => call({ cursor, waitMs: 20, maxBytes: 200 + (i % 7) * 150 });
    for (let i = 0; i < 200; i++) asked.push(wait(i));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (let i = 0; i < 300; i++) asked.push(i % 2 === 0 ? wait(i) : call({ cursor, maxBytes: 2000 + (i % 5) * 600 }));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    server.resume();
    const answers = await Promise.all(asked.map((a) => a.answer));
    for (const answer of answers) expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
    const ids = server.lines.map((line) => (JSON.parse(line) as Answer).id);
    expect(new Set(ids).size).toBe(ids.length); // each answered once
    expect(ids.length).toBe(asked.length + 8);
    const stderr = await server.end();
    const direct = Number(/(\d+) answers written by the engine thread itself/.exec(stderr)?.[1] ?? "-1");
    const beside = Number(/(\d+) reads answered beside the engine thread/.exec(stderr)?.[1] ?? "-1");
    expect(direct, stderr).toBeGreaterThan(0);
    expect(beside, stderr).toBeGreaterThan(0);
  });
});
