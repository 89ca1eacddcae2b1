// `panescope --transcript FILE`, BUILT (dist/cli.js), with its engine thread and in one thread: the
// file is opened once, so a FIFO read live by another program gets every call's line exactly once
// (opened a second time, its reader had taken the first close as the end, and the engine waited
// for a reader that never came).
import { closeSync, constants, createReadStream, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../../src/mcp/transcript.js";
import { killAllServers, startServer, type TestServer } from "../../support/tmux-fixture.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");
const dir = mkdtempSync(join(tmpdir(), "panescope-transcript-fifo-"));
let test: TestServer;
let fifo = "";

beforeAll(async () => {
  test = await startServer({ cols: 40, rows: 6, command: "sh" });
});
afterEach(() => {
  // A server left waiting to open the FIFO (the defect) is let go, so that it can end.
  closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
});
afterAll(async () => {
  await killAllServers();
  rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ["with the engine thread", []],
  ["in one thread", ["--single-thread"]],
])("a transcript that is a FIFO, %s", (mode, flags: string[]) => {
  it("gets every call's line exactly once, and its end when the server ends", async () => {
    fifo = join(dir, `${flags.length}.jsonl`);
    await execa("mkfifo", [fifo]);
    const reader = createReadStream(fifo, "utf8");
    let read = "";
    reader.on("data", (chunk) => (read += String(chunk)));
    const ended = new Promise<void>((resolve) => reader.once("end", resolve));
    const env = { XDG_STATE_HOME: dir, ...(process.env.TMUX_TMPDIR ? { TMUX_TMPDIR: process.env.TMUX_TMPDIR } : {}) };
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "--socket", test.name, ...flags, "--transcript", fifo], env, stderr: "pipe" });
    const client = new Client({ name: "panescope-transcript-fifo", version: "0" });
    await client.connect(transport);
    try {
      const first = await Promise.race([client.callTool({ name: "list_panes", arguments: {} }).then(() => "answered"), ended.then(() => "the transcript ended before any call")]);
      expect(first, mode).toBe("answered");
      await client.callTool({ name: "capture_pane", arguments: { paneId: "%999" } });
    } finally {
      await client.close();
    }
    await ended;
    const entries = read.trimEnd().split("\n").map((line) => JSON.parse(line) as TranscriptEntry);
    expect(entries.map((e) => [e.seq, e.tool])).toEqual([
      [1, "list_panes"],
      [2, "capture_pane"],
    ]);
  });
});
