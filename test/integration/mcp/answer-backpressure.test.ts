// A client that stops reading its answers, BUILT (dist/cli.js), in both thread modes, against a
// private tmux server: the server stops taking requests until the client reads again (its answers
// would otherwise pile up in memory without bound), says so once on stderr, and once the client
// reads, every request is answered once (tool lists, which take one path, in the order asked).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAllServers, startServer, type TestServer } from "../../support/tmux-fixture.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");
const stateDir = mkdtempSync(join(tmpdir(), "panescope-state-"));
/** Requests padded with JSON whitespace to this size: few requests, enough bytes to fill every buffer between client and server many times. */
const REQUEST_BYTES = 4096;
/** 10 MiB of requests: far more than the pipes hold and the server reads before its first answers. */
const REQUESTS = 2560;
const NOTICE = /the client is not reading its answers/;

let test: TestServer;
/** Servers a failed test left running: stopped in afterAll. */
const children = new Set<ChildProcess>();

beforeAll(async () => {
  test = await startServer({ cols: 100, rows: 20, command: "sh" });
});

afterAll(async () => {
  for (const child of children) child.kill();
  await killAllServers();
  rmSync(stateDir, { recursive: true, force: true });
});

interface Answer {
  id: number;
  result?: { isError?: boolean; structuredContent?: { cursor?: string; outcome?: string }; tools?: unknown[] };
  error?: unknown;
}

/** A raw JSON-RPC client over the server's stdio that can stop reading the server's stdout. */
function serve(modeArgs: string[]) {
  const child = spawn(process.execPath, [CLI, "--socket", test.name, ...modeArgs], {
    env: { PATH: process.env.PATH, XDG_STATE_HOME: stateDir, ...(process.env.TMUX_TMPDIR ? { TMUX_TMPDIR: process.env.TMUX_TMPDIR } : {}) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.add(child);
  const answers: Answer[] = [];
  const waiting = new Map<number, (answer: Answer) => void>();
  let buffered = "";
  let stderr = "";
  const stderrWaits: Array<{ pattern: RegExp; resolve: () => void }> = [];
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const wait of stderrWaits) if (wait.pattern.test(stderr)) wait.resolve();
  });
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text: string) => {
    buffered += text;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const answer = JSON.parse(buffered.slice(0, end)) as Answer; // a cut or mixed line throws here
      buffered = buffered.slice(end + 1);
      answers.push(answer);
      waiting.get(answer.id)?.(answer);
      waiting.delete(answer.id);
    }
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => children.delete(child));
  let nextId = 0;
  const line = (method: string, params: object, pad = 0): { id: number; text: string } => {
    const id = ++nextId;
    const text = JSON.stringify({ jsonrpc: "2.0", id, method, params });
    return { id, text: `${text.slice(0, -1)}${" ".repeat(Math.max(0, pad - text.length - 2))}}\n` };
  };
  return {
    answers,
    line,
    /** The answer to request `id`, once it comes (asked before the request is written). */
    answerTo: (id: number) => new Promise<Answer>((resolve) => waiting.set(id, resolve)),
    request(method: string, params: object): Promise<Answer> {
      const { id, text } = line(method, params);
      const answer = new Promise<Answer>((resolve) => waiting.set(id, resolve));
      child.stdin.write(text);
      return answer;
    },
    notify: (method: string) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`),
    /** Resolves once the server has taken every byte written so far (the client's last write is done). */
    write: (text: string) => new Promise<void>((resolve) => child.stdin.write(text, () => resolve())),
    stderrMatching: (pattern: RegExp) => new Promise<void>((resolve) => (pattern.test(stderr) ? resolve() : stderrWaits.push({ pattern, resolve }))),
    pause: () => child.stdout.pause(),
    resume: () => child.stdout.resume(),
    async end(): Promise<string> {
      child.stdin.end();
      await exited;
      return stderr;
    },
  };
}

describe.each([
  ["one thread", ["--single-thread"]],
  ["the engine thread", ["--engine-thread"]],
])("a client that stops reading its answers (%s)", (_mode, modeArgs) => {
  it("is read no further until it reads again, then gets every answer once", async () => {
    const server = serve(modeArgs);
    await server.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } });
    server.notify("notifications/initialized");
    const call = (args: object) => server.request("tools/call", { name: "capture_since", arguments: args });
    const [pane = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "cat"]);
    const first = await call({ paneId: pane });
    const cursor = first.result?.structuredContent?.cursor ?? "";
    expect(cursor).not.toBe("");
    // Output after the cursor: every read with that cursor answers a few KB of it.
    await test.run(["send-keys", "-t", pane, "-l", `${"output line\n".repeat(400)}end-of-output\n`]);
    const ended = await server.request("tools/call", { name: "wait_for", arguments: { cursor, pattern: "^end-of-output$", in: "raw", timeoutMs: 20_000 } });
    expect(ended.result?.structuredContent?.outcome).toBe("matched");

    server.pause();
    // Reads (the front answers them itself in the split server) and tool lists (the engine's), alternating.
    const reads = new Set<number>();
    const asked = Array.from({ length: REQUESTS }, (_, i) => {
      if (i % 2 === 1) return server.line("tools/list", {}, REQUEST_BYTES);
      const read = server.line("tools/call", { name: "capture_since", arguments: { cursor, maxBytes: 3000 } }, REQUEST_BYTES);
      reads.add(read.id);
      return read;
    });
    const answered = Promise.all(asked.map((request) => server.answerTo(request.id)));
    const taken = server.write(asked.map((request) => request.text).join(""));
    const before = await Promise.race([server.stderrMatching(NOTICE).then(() => "stopped reading"), taken.then(() => "took every request")]);
    expect(before).toBe("stopped reading");

    server.resume();
    for (const answer of await answered) {
      expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
      expect(answer.result?.isError, JSON.stringify(answer.result)).toBeFalsy();
    }
    const ids = new Set(asked.map((request) => request.id));
    const order = server.answers.map((answer) => answer.id).filter((id) => ids.has(id));
    expect(order.length).toBe(asked.length); // each answered once
    // Tool lists take one path in either mode: in the order asked. (A read is answered by the
    // front or, when its view cannot, by the engine thread: two reads may cross, held or not.)
    const lists = order.filter((id) => !reads.has(id));
    expect(lists).toEqual([...lists].sort((a, b) => a - b));

    const stderr = await server.end();
    expect(stderr.match(new RegExp(NOTICE, "g"))?.length, stderr).toBe(1);
  });
});

describe("the engine thread's answers to a client that stops reading", () => {
  it("wait in the engine, not in the front's stdout, and all come in order once it reads", async () => {
    const server = serve(["--engine-thread"]);
    await server.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } });
    server.notify("notifications/initialized");
    const [pane = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "cat"]);
    await test.run(["send-keys", "-t", pane, "-l", `${"x".repeat(99)}\n`.repeat(40)]);
    const shown = await server.request("tools/call", { name: "capture_pane", arguments: { paneId: pane } });
    expect(shown.result?.isError, JSON.stringify(shown.result)).toBeFalsy();

    server.pause();
    // Short requests the engine answers with a screen each (≈20× their size): 6000 of them answer
    // tens of MB, far more than the pipes between client, front and engine hold.
    const asked = Array.from({ length: 6000 }, () => server.line("tools/call", { name: "capture_pane", arguments: { paneId: pane } }));
    const answered = Promise.all(asked.map((request) => server.answerTo(request.id)));
    void server.write(asked.map((request) => request.text).join(""));
    await server.stderrMatching(NOTICE);

    server.resume();
    for (const answer of await answered) expect(answer.result?.isError, JSON.stringify(answer.result)).toBeFalsy();
    const ids = new Set(asked.map((request) => request.id));
    const order = server.answers.map((answer) => answer.id).filter((id) => ids.has(id));
    expect(order).toEqual(asked.map((request) => request.id)); // each once, in the order asked
    const stderr = await server.end();
    // What the front held for the client: stdout's limit, and a little (the line that crossed it).
    const waited = Number(/at most (\d+) bytes of answers waited for the client here/.exec(stderr)?.[1]);
    expect(waited, stderr).toBeLessThan(256 * 1024);
  });
});
