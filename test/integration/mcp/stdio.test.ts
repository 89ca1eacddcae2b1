// End to end: the BUILT panescope (dist/cli.js) spawned as a stdio MCP server, driven by the SDK's
// Client against a private tmux server. Run `npx tsc -p tsconfig.build.json` first (npm test does).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");
const stateDir = mkdtempSync(join(tmpdir(), "panescope-state-"));
/** PANESCOPE_TEST_TRANSCRIPT=FILE: the answers `record` saw, written there for a person to read (off by default). */
const TRANSCRIPT = process.env.PANESCOPE_TEST_TRANSCRIPT;
const transcript: string[] = [];

interface Row {
  line: number;
  text: string;
}
interface DeltaOut {
  paneId: string;
  cursor: string;
  first: boolean;
  rows: Row[];
  raw: string;
  rawBytes: number;
  screen: { cols: number; rows: number; top: number; alternate: boolean };
  missed: boolean;
  waitMs: number;
  waitEnded: string;
}

let test: TestServer;
let client: Client;
let stderr = "";
/** Settles once stderr has a whole line: panescope writes its first line once it is connected. */
let firstLine: Promise<void>;

async function connect(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...args],
    env: { XDG_STATE_HOME: stateDir, ...(process.env.TMUX_TMPDIR ? { TMUX_TMPDIR: process.env.TMUX_TMPDIR } : {}) },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  firstLine = new Promise((resolve) => transport.stderr?.on("data", () => stderr.includes("\n") && resolve()));
  const c = new Client({ name: "panescope-e2e", version: "0" });
  await c.connect(transport);
  await c.listTools(); // from here on the client checks every structuredContent against the schemas
  return c;
}

async function call(name: string, args: Record<string, unknown> = {}, options: { signal?: AbortSignal } = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

async function capture(args: Record<string, unknown>): Promise<DeltaOut> {
  const result = await call("capture_since", args);
  expect(result.isError, text(result)).toBeFalsy();
  return result.structuredContent as unknown as DeltaOut;
}

function record(title: string, result: CallToolResult): void {
  const d = result.structuredContent as unknown as DeltaOut;
  const key = { rows: d.rows, screen: d.screen, raw: d.raw, rawBytes: d.rawBytes, first: d.first, missed: d.missed };
  transcript.push(`=== ${title}\n--- text content\n${text(result)}\n--- structuredContent (key fields)\n${JSON.stringify(key, null, 1)}\n`);
}

/** A new window running `command` (a shell script); returns its pane id. */
async function paneRunning(command: string): Promise<string> {
  const [pane = ""] = await test.run(["new-window", "-d", "-t", `${test.session}:`, "-P", "-F", "#{pane_id}", command]);
  return pane;
}

afterAll(() => {
  rmSync(stateDir, { recursive: true, force: true });
  if (TRANSCRIPT !== undefined && transcript.length > 0) writeFileSync(TRANSCRIPT, transcript.join("\n"));
});

// Every check, as the server runs by default (its engine on a thread of its own, plain reads
// answered beside it: mcp/engine/) and in one thread: the answers must not tell them apart.
describe.each([
  ["panescope over stdio", []],
  ["panescope --single-thread over stdio", ["--single-thread"]],
])("%s", (_, mode: string[]) => {
  beforeAll(async () => {
    stderr = "";
    test = await startServer({ cols: 50, rows: 12, command: "sh", env: { PS1: "$ " } });
    client = await connect(["--socket", test.name, ...mode]);
  });

  afterAll(async () => {
    await client?.close();
    await killAllServers();
  });

  it("logs only to stderr, first naming the tmux server and the mode, then tmux's version at the first tool call", async () => {
    await firstLine;
    expect(stderr.split("\n")[0]).toMatch(new RegExp(`^panescope \\S+: MCP on stdio, tmux server -L ${test.name}, read-write, wait cap \\d+ ms$`));
    // initialize and tools/list asked nothing of tmux: the version is asked by the first call.
    expect(stderr).not.toMatch(/^panescope: tmux /m);
    await call("list_panes");
    await waitFor(() => /^panescope: tmux \d+\.\d+/m.test(stderr), 20_000, "tmux's version on stderr");
  });

  it("lists the tools with input and output schemas and annotations", async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual(["capture_pane", "capture_since", "close_pane", "list_panes", "open_pane", "send_keys", "wait_for"]);
    expect(byName.get("capture_since")?.inputSchema.properties).toHaveProperty("cursor");
    expect(byName.get("capture_since")?.outputSchema?.properties).toHaveProperty("rows");
    expect(byName.get("capture_since")?.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get("close_pane")?.annotations?.destructiveHint ?? true).toBe(true); // MCP's default, left out
  });

  it("the first call returns the screen and a cursor", async () => {
    const pane = await paneRunning("printf 'hello\\nworld\\n'; exec sleep 600");
    await client.callTool({ name: "wait_for", arguments: { paneId: pane, pattern: "^world$" } });
    const first = await capture({ paneId: pane });
    expect(first.first).toBe(true);
    expect(first.rows.map((r) => r.text)).toEqual(["hello", "world", ""]);
    expect(first.cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("a progress bar redrawn 50 times is one changed row, its frames in raw", async () => {
    // "ready" once echo is off: an Enter sent before `stty -echo` ran was echoed, and the bar drew
    // on line 1 (seen on a busy machine). The bar's frames overwrite the word.
    const pane = await paneRunning("stty -echo; printf ready; read x; i=0; while [ $i -lt 50 ]; do i=$((i+1)); printf '\\rprogress %d%%' $i; done; printf '\\n'; exec sleep 600");
    expect((await call("wait_for", { paneId: pane, pattern: "^ready" })).structuredContent).toMatchObject({ outcome: "matched" });
    const start = await capture({ paneId: pane });
    await call("send_keys", { paneId: pane, keys: ["Enter"] });
    expect((await call("wait_for", { paneId: pane, pattern: "progress 50%" })).structuredContent).toMatchObject({ outcome: "matched" });
    const result = await call("capture_since", { cursor: start.cursor });
    record("capture_since on a progress bar", result);
    const d = result.structuredContent as unknown as DeltaOut;
    expect(d.rows.map((r) => r.text)).toEqual(["progress 50%"]);
    expect(d.raw).toContain("\rprogress 1%\rprogress 2%");
    expect(text(result)).toMatch(/\n0\|progress 50%\n/);
    expect(text(result)).toMatch(/\nraw not on screen: 49 frames, \d+ B$/);
  });

  it("a scrolling log reports its new lines once, never the whole screen again", async () => {
    const pane = await paneRunning("stty -echo; read x; seq 1 40; read x; seq 41 45; exec sleep 600");
    const start = await capture({ paneId: pane });
    await call("send_keys", { paneId: pane, keys: ["Enter"] });
    await call("wait_for", { paneId: pane, pattern: "^40$" });
    const log = await capture({ cursor: start.cursor });
    const numbers = log.rows.filter((r) => /^\d+$/.test(r.text));
    expect(numbers.map((r) => r.text)).toEqual(Array.from({ length: 40 }, (_, i) => String(i + 1)));
    expect(numbers.map((r) => r.line - (numbers[0]?.line ?? 0))).toEqual(Array.from({ length: 40 }, (_, i) => i));
    await call("send_keys", { paneId: pane, keys: ["Enter"] });
    await call("wait_for", { paneId: pane, pattern: "^45$" });
    const more = await capture({ cursor: log.cursor });
    expect(more.rows.map((r) => r.text).filter((t) => t !== "")).toEqual(["41", "42", "43", "44", "45"]);
  });

  it("vim on the alternate screen is flagged, with the whole screen as rows", async () => {
    const pane = await paneRunning("sh");
    const start = await capture({ paneId: pane });
    await call("send_keys", { paneId: pane, text: "vim -u NONE -N", enter: true });
    expect((await call("wait_for", { paneId: pane, pattern: "^~", timeoutMs: 10_000 })).structuredContent).toMatchObject({ outcome: "matched" });
    await call("send_keys", { paneId: pane, text: "ihello from vim" });
    await call("wait_for", { paneId: pane, pattern: "^hello from vim$" });
    const result = await call("capture_since", { cursor: start.cursor });
    record("capture_since on vim", result);
    const d = result.structuredContent as unknown as DeltaOut;
    expect(d.screen.alternate).toBe(true);
    expect(d.rows[0]).toEqual({ line: d.screen.top, text: "hello from vim" });
    expect(d.rows.filter((r) => r.text === "~").length).toBeGreaterThanOrEqual(d.screen.rows - 3);
    expect(d.rows.map((r) => r.text)).toContain("-- INSERT --");
    expect(d.rows.every((r) => r.line - d.screen.top >= 0 && r.line - d.screen.top < d.screen.rows)).toBe(true);
    expect(text(result).split("\n")[0]).toMatch(/^cursor=\S+ %\d+ @\d+,\d+ alt$/);
    expect(text(result)).not.toMatch(/^>/m); // raw drawing is never shown by default: the rows are the screen
    await call("send_keys", { paneId: pane, keys: ["Escape", ":", "q", "!", "Enter"] });
  });

  it("waitMs returns as soon as output arrives, before the cap", async () => {
    // "ready" once echo is off, so the change the wait ends on is the program's line, not the Enter's echo.
    const pane = await paneRunning("stty -echo; printf ready; read x; echo arrived; exec sleep 600");
    await call("wait_for", { paneId: pane, pattern: "^ready" });
    const start = await capture({ paneId: pane });
    const waiting = capture({ cursor: start.cursor, waitMs: 25_000 });
    await call("send_keys", { paneId: pane, keys: ["Enter"] });
    const d = await waiting;
    expect(d).toMatchObject({ waitMs: 25_000, waitEnded: "change" });
    expect(d.raw + d.rows.map((r) => r.text).join("\n")).toContain("arrived");
  });

  it("wait_for matches a regex in raw output since a cursor, and notices quiet", async () => {
    const pane = await paneRunning("sh");
    const before = await capture({ paneId: pane });
    await call("send_keys", { paneId: pane, text: "echo build; echo result=$((6*7))", enter: true });
    const matched = await call("wait_for", { cursor: before.cursor, pattern: "result=\\d+", in: "raw" });
    expect(matched.structuredContent).toMatchObject({ outcome: "matched", match: "result=42" });
    const quiet = await call("wait_for", { paneId: pane, quietMs: 150 });
    expect(quiet.structuredContent).toMatchObject({ outcome: "quiet" });
  });

  it("a catastrophic wait_for pattern is stopped in the built matcher worker while other calls are answered", async () => {
    const pane = await paneRunning(`printf '%s\\n' ${"a".repeat(40)}; exec sleep 600`);
    await call("wait_for", { paneId: pane, pattern: "^a{40}$" });
    const order: string[] = [];
    const stopped = call("wait_for", { paneId: pane, pattern: "(a|a)*b" }).then((result) => (order.push("wait_for"), result));
    const listed = await call("list_panes");
    order.push("list_panes");
    const result = await stopped;
    expect(listed.isError, text(listed)).toBeFalsy();
    expect(order).toEqual(["list_panes", "wait_for"]);
    expect(text(result)).toMatch(/^error \(bad-input\): pattern ran out of its time budget \(500 ms\)/);
  });

  it("send_keys types hostile text literally and the tmux server survives", async () => {
    const pane = await paneRunning("cat");
    const hostile = `'; kill-server; echo "$HOME" #{pane_id} \\;`;
    // Typed, then shown twice: the tty's echo, then cat's copy. Waited for before the next line, so a
    // slow cat cannot print its copy after the next line's echo (seen once on a loaded CI machine).
    const literal = hostile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const twice = `^${literal}\\n${literal}$`;
    const sent = await call("send_keys", { paneId: pane, text: hostile, enter: true, wait: { pattern: twice } });
    expect(sent.isError, text(sent)).toBeFalsy();
    expect(sent.structuredContent).toMatchObject({ outcome: "matched" });
    await call("send_keys", { paneId: pane, text: "ends with;", enter: true });
    // cat's copy of the last line comes after its echo.
    const seen = await call("wait_for", { paneId: pane, pattern: "^ends with;\\nends with;$" });
    expect(seen.structuredContent).toMatchObject({ outcome: "matched" });
    const screen = (await call("capture_pane", { paneId: pane })).structuredContent as { rows: string[] };
    expect(screen.rows.filter((r) => r === hostile)).toHaveLength(2); // the tty's echo, then cat's copy
    const listed = await call("list_panes");
    expect(listed.isError, text(listed)).toBeFalsy();
    expect(await test.run(["display-message", "-p", "-t", pane, "#{pane_id}"])).toEqual([pane]);
  });

  it("answers a malformed cursor, another pane's cursor and an unknown pane with errors", async () => {
    const a = await capture({ paneId: await paneRunning("sleep 600") });
    const other = await paneRunning("sleep 600");
    const malformed = await call("capture_since", { cursor: "nonsense!" });
    expect(malformed.isError).toBe(true);
    expect(text(malformed)).toMatch(/cursor-malformed.*omit `cursor`/);
    const mixed = await call("capture_since", { paneId: other, cursor: a.cursor });
    expect(text(mixed)).toMatch(/cursor-other-pane/);
    const unknown = await call("capture_since", { paneId: "%999999" });
    expect(text(unknown)).toMatch(/unknown-pane.*list_panes/);
  });

  it("a client's cancel ends a waiting call at once, and the server keeps answering", async () => {
    const start = await capture({ paneId: await paneRunning("sleep 600") });
    const controller = new AbortController();
    const waiting = call("capture_since", { cursor: start.cursor, waitMs: 25_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(waiting).rejects.toThrow(/abort/i);
    const listed = await call("list_panes");
    expect(listed.isError, text(listed)).toBeFalsy();
  });

  it("--read-only hides the input tools", async () => {
    const readOnly = await connect(["--socket", test.name, "--read-only", ...mode]);
    try {
      const { tools } = await readOnly.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["capture_pane", "capture_since", "list_panes", "wait_for"]);
    } finally {
      await readOnly.close();
    }
  });
});
