// `panescope --transcript FILE`, BUILT (dist/cli.js), with its engine thread and in one thread: the
// file is opened once, so a FIFO read live by another program gets every call's line exactly once
// (opened a second time, its reader had taken the first close as the end, and the engine waited
// for a reader that never came). A screenshot's PNG is kept as its size, not its bytes.
import { closeSync, constants, createReadStream, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
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
  if (fifo === "") return;
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

describe.each([
  ["with the engine thread", []],
  ["in one thread", ["--single-thread"]],
])("a screenshot in a transcript, %s", (mode, flags: string[]) => {
  it("is kept as its type and size, not its bytes, and the line says so", async () => {
    const file = join(dir, `shot-${flags.length}.jsonl`);
    const env = { XDG_STATE_HOME: dir, ...(process.env.TMUX_TMPDIR ? { TMUX_TMPDIR: process.env.TMUX_TMPDIR } : {}) };
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "--socket", test.name, ...flags, "--transcript", file], env, stderr: "pipe" });
    const client = new Client({ name: "panescope-transcript-shot", version: "0" });
    await client.connect(transport);
    let png = "";
    try {
      const shot = (await client.callTool({ name: "capture_pane", arguments: { paneId: "%0", format: "png" } })) as { content: Array<{ type: string; data?: string }> };
      png = shot.content.find((item) => item.type === "image")?.data ?? "";
    } finally {
      await client.close();
    }
    expect(png.length, mode).toBeGreaterThan(0);
    const [entry] = readFileSync(file, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as TranscriptEntry);
    expect((entry?.result as { content: unknown[] }).content[0]).toEqual({ type: "image", mimeType: "image/png", bytes: Buffer.byteLength(png, "base64") });
    expect(JSON.stringify(entry)).not.toContain(png.slice(0, 64));
    expect(entry?.omitted).toEqual([{ path: "result.content[0].data", chars: png.length, kept: 0 }]);
  });
});
