// What the agent saw, end to end: the built panescope as a stdio MCP server with --transcript,
// driven by the SDK's client against a private tmux server, appends each call and answer; then
// `panescope report` renders that file as a page showing the calls and the pane's screen.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../../src/mcp/transcript.js";
import { killAllServers, startServer, type TestServer } from "../../support/tmux-fixture.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");
let dir = "";
let test: TestServer;
let pane = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "panescope-transcript-e2e-"));
  test = await startServer({ cols: 40, rows: 6, command: "sh", env: { PS1: "$ " } });
  [pane = ""] = await test.run(["display-message", "-p", "-t", `${test.session}:`, "#{pane_id}"]);
});
afterAll(async () => {
  await killAllServers();
  await rm(dir, { recursive: true, force: true });
});

describe("panescope mcp --transcript, then panescope report", () => {
  it("records each tool call with its answer, and the page shows them and the screen", async () => {
    const file = join(dir, "agent.jsonl");
    const env = { XDG_STATE_HOME: dir, ...(process.env.TMUX_TMPDIR ? { TMUX_TMPDIR: process.env.TMUX_TMPDIR } : {}) };
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "--socket", test.name, "--transcript", file], env, stderr: "pipe" });
    const client = new Client({ name: "panescope-e2e", version: "0" });
    await client.connect(transport);
    try {
      await test.run(["send-keys", "-t", pane, "echo transcript-42", "Enter"]);
      await client.callTool({ name: "wait_for", arguments: { paneId: pane, pattern: "^transcript-42$", timeoutMs: 5000 } });
      await client.callTool({ name: "capture_pane", arguments: { paneId: pane } });
      await client.callTool({ name: "capture_pane", arguments: { paneId: "%999" } });
    } finally {
      await client.close();
    }
    const entries = (await readFile(file, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as TranscriptEntry);
    expect(entries.map((e) => [e.seq, e.tool])).toEqual([
      [1, "wait_for"],
      [2, "capture_pane"],
      [3, "capture_pane"],
    ]);
    expect(entries[1]?.arguments).toEqual({ paneId: pane });
    expect(JSON.stringify(entries[1]?.result)).toContain("transcript-42");
    expect(entries[2]?.result).toMatchObject({ isError: true });

    const report = await execa(process.execPath, [CLI, "report", file], { reject: false });
    expect(report.exitCode, report.stderr).toBe(0);
    expect(report.stdout).toBe(`wrote ${join(dir, "agent.html")}: 3 calls`);
    const page = await readFile(join(dir, "agent.html"), "utf8");
    expect(page.match(/<section class="item /g)).toHaveLength(3);
    expect(page).toContain("transcript-42");
    expect(page).toContain("3 calls, 1 answered with an error");
  });

  it("refuses a transcript it cannot write with exit 2 and the same one line, with or without the engine thread", async () => {
    const file = join(dir, "no-such-folder", "t.jsonl");
    const run = (...flags: string[]) => execa(process.execPath, [CLI, "--socket", test.name, ...flags, "--transcript", file], { reject: false, input: "", timeout: 30_000 });
    const [engine, single] = await Promise.all([run(), run("--single-thread")]);
    const said = `panescope: --transcript ${file}: cannot open it for appending (ENOENT: no such file or directory, open '${file}'); name a file in a folder you can write`;
    expect([engine.exitCode, engine.stderr]).toEqual([2, said]);
    expect([single.exitCode, single.stderr]).toEqual([2, said]);
  });
});

