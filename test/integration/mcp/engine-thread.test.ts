// `panescope --engine-thread`, BUILT (dist/cli.js), against a private tmux server: plain reads are
// answered beside the engine thread from the panes' published views, and what they answer is what
// the server answers in one thread: every byte of a flood once, in order; a closed, respawned or
// moved pane and a tampered cursor as the engine says (it answers whatever needs its checks).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");
const stateDir = mkdtempSync(join(tmpdir(), "panescope-state-"));

interface Delta {
  paneId: string;
  cursor: string;
  rows: Array<{ line: number; text: string }>;
  raw: string;
  missed: boolean;
  reason?: string;
  closed: boolean;
}

let test: TestServer;
let client: Client;
let stderr = "";

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function capture(args: Record<string, unknown>): Promise<Delta> {
  const result = await call("capture_since", args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as unknown as Delta;
}

async function paneRunning(command: string): Promise<string> {
  const [pane = ""] = await test.run(["new-window", "-d", "-t", `${test.session}:`, "-P", "-F", "#{pane_id}", command]);
  return pane;
}

beforeAll(async () => {
  test = await startServer({ cols: 60, rows: 10, command: "sh" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "--socket", test.name, "--engine-thread"],
    env: { XDG_STATE_HOME: stateDir, ...(process.env.TMUX_TMPDIR ? { TMUX_TMPDIR: process.env.TMUX_TMPDIR } : {}) },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: "panescope-engine-thread", version: "0" });
  await client.connect(transport);
  await client.listTools(); // from here on the client checks every structuredContent against the schemas
});

afterAll(async () => {
  await client?.close();
  await killAllServers();
  rmSync(stateDir, { recursive: true, force: true });
});

describe("panescope --engine-thread", () => {
  it("reads a flood as it comes: every line once, in order, nothing missed", async () => {
    const pane = await paneRunning("stty -echo; read go; seq 1 40000; echo done; exec sleep 600");
    let { cursor } = await capture({ paneId: pane });
    await call("send_keys", { paneId: pane, keys: ["Enter"] });
    let raw = "";
    // Reads while the flood runs (most answered beside the engine), then until its last line.
    for (let reads = 0; !/^done\r?$/m.test(raw); reads++) {
      const delta = await capture({ cursor, maxBytes: 4 * 1024 * 1024, view: "raw" });
      expect(delta.missed, `read ${reads}`).toBe(false);
      raw += delta.raw;
      cursor = delta.cursor;
    }
    const numbers = raw.split(/\r?\n/).slice(0, 40000);
    expect(numbers).toEqual(Array.from({ length: 40000 }, (_, i) => String(i + 1)));
  });

  it("answers a closed pane as closed, and a respawned one as respawned", async () => {
    const closing = await paneRunning("sleep 600");
    const before = await capture({ paneId: closing });
    await test.run(["kill-pane", "-t", closing]);
    await waitFor(async () => (await capture({ cursor: before.cursor })).closed, 20_000, "the pane closed");

    const respawning = await paneRunning("echo first; exec sleep 600");
    const old = await capture({ paneId: respawning });
    await test.run(["respawn-pane", "-k", "-t", respawning, "echo second; exec sleep 600"]);
    await waitFor(async () => (await capture({ cursor: old.cursor })).reason === "respawned", 20_000, "the respawn flagged");
  });

  it("flags a pane that moved to another session once the engine sees it", async () => {
    const pane = await paneRunning("echo here; exec sleep 600");
    const start = await capture({ paneId: pane });
    await test.run(["new-session", "-d", "-s", "elsewhere"]);
    await test.run(["move-pane", "-s", pane, "-t", "elsewhere:"]);
    // Reads beside the engine answer only within a second of the engine's checks; then it looks.
    await waitFor(async () => (await capture({ cursor: start.cursor })).reason === "moved", 20_000, "the move flagged");
  });

  it("a tampered cursor is the engine's error", async () => {
    const pane = await paneRunning("exec sleep 600");
    const { cursor } = await capture({ paneId: pane });
    const tampered = `${cursor.slice(0, 10)}${cursor[10] === "A" ? "B" : "A"}${cursor.slice(11)}`;
    const result = await call("capture_since", { cursor: tampered });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("cursor-tampered");
  });

  it("a failed engine thread ends the server with status 1 and says why, though stdin stays open", async () => {
    const failing = execa(process.execPath, ["--import", join(import.meta.dirname, "../../support/fail-worker.mjs"), CLI, "--socket", test.name, "--engine-thread"], {
      env: { XDG_STATE_HOME: stateDir },
      stdin: "pipe", // never ended: the server must not wait for it
      reject: false,
      timeout: 20_000,
    });
    const result = await failing;
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("the engine thread failed: injected failure of a worker thread");
  });

  it("answered reads beside the engine thread (it says how many when it exits)", async () => {
    // A quiet pane read in a chain: after the engine's first answers, the front's. How many is the
    // machine's (a view answers within half a second of the engine's last verdict, and a busy
    // machine delays verdicts): a threshold of ten failed once with exactly ten under the matrix.
    const pane = await paneRunning("echo quiet; exec sleep 600");
    let { cursor } = await capture({ paneId: pane });
    for (let i = 0; i < 20; i++) cursor = (await capture({ cursor })).cursor;
    await client.close();
    await waitFor(() => /reads answered beside the engine thread/.test(stderr), 20_000, "the front's last line");
    const answered = Number(/panescope: (\d+) reads answered beside the engine thread/.exec(stderr)?.[1]);
    expect(answered).toBeGreaterThan(0);
  });
});
