// The MCP server in-process (linked in-memory transports) against a private tmux server: schemas,
// annotations, read-only mode, and bad input answered as clear tool errors without harm.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { TmuxServer } from "../../src/tmux/server.js";
import { killAllServers, startServer, type TestServer } from "../support/tmux-fixture.js";
import { link, textOf, type Linked } from "../support/mcp-link.js";

/** vi.waitFor gives up after 1 s by default, which a slow, busy machine can miss: conditions get 10 s. */
const SETTLE = { timeout: 10_000, interval: 20 };

const linked: Linked[] = [];
afterEach(async () => {
  await Promise.all(linked.splice(0).map((l) => l.close()));
  await killAllServers();
});

async function setup(options: Parameters<typeof link>[1] = {}, command = "sh"): Promise<{ test: TestServer; mcp: Linked; pane: string }> {
  const test = await startServer({ cols: 40, rows: 8, command, env: { PS1: "$ " } });
  const mcp = await link(test.server, options);
  linked.push(mcp);
  const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
  return { test, mcp, pane };
}

function expectError(result: CallToolResult, pattern: RegExp): void {
  expect(result.isError, textOf(result)).toBe(true);
  expect(textOf(result)).toMatch(pattern);
}

const ALL = ["capture_pane", "capture_since", "close_pane", "list_panes", "open_pane", "send_keys", "wait_for"];

describe("tools/list", () => {
  it("shows every tool with input and output schemas, honest annotations, and says where pane text is untrusted", async () => {
    const mcp = await link();
    linked.push(mcp);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(ALL);
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ["capture_since", "capture_pane", "list_panes"]) expect(byName.get(name)?.description, name).toMatch(/untrusted/);
    expect(byName.get("wait_for")?.description).toMatch(/as capture_since/);
    // MCP's defaults where a hint is left out: readOnly false, destructive true, idempotent false, openWorld true.
    const hints = (name: string) => ({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true, ...byName.get(name)?.annotations });
    for (const name of ["capture_since", "capture_pane", "list_panes", "wait_for"]) expect(hints(name)).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(hints("send_keys")).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(hints("open_pane")).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
    expect(hints("close_pane")).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
  });

  it("read-only mode does not register send_keys, open_pane or close_pane", async () => {
    const mcp = await link(undefined, { readOnly: true });
    linked.push(mcp);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["capture_pane", "capture_since", "list_panes", "wait_for"]);
    expectError(await mcp.call("send_keys", { paneId: "%0", text: "x" }), /not found/i);
  });
});

describe("no tmux", () => {
  it("with no server on the socket, tools say how to start one and the MCP server keeps answering", async () => {
    const mcp = await link(new TmuxServer({ socketName: `panescope-absent-${process.pid}` }));
    linked.push(mcp);
    expectError(await mcp.call("list_panes"), /no-server.*new-session -d/);
    expectError(await mcp.call("capture_since"), /no-server/);
    expect((await mcp.client.listTools()).tools.length).toBe(ALL.length);
  });

  it("a missing tmux binary is named, with how to fix it", async () => {
    const mcp = await link(new TmuxServer({ tmux: "/nonexistent/tmux", socketName: "x" }));
    linked.push(mcp);
    expectError(await mcp.call("list_panes"), /tmux-missing.*--tmux PATH/);
  });
});

describe("bad input", () => {
  it("hostile or unknown pane ids are refused, and the server still answers", async () => {
    const { test, mcp } = await setup();
    for (const paneId of ["%1;kill-server", "-t", "%0 ", "", "main:0"]) {
      expectError(await mcp.call("capture_since", { paneId }), /paneId/);
      expectError(await mcp.call("send_keys", { paneId, text: "x" }), /paneId/);
    }
    expectError(await mcp.call("capture_since", { paneId: "%999999" }), /unknown-pane.*list_panes/);
    expectError(await mcp.call("send_keys", { paneId: "%999999", text: "x" }), /unknown-pane/);
    expectError(await mcp.call("close_pane", { paneId: "%999999", force: true }), /unknown-pane/);
    expect((await test.run(["list-sessions", "-F", "#{session_name}"]))).toEqual(["main"]);
    expect((await mcp.call("list_panes")).isError).toBeFalsy();
  });

  it("a pane id above tmux's largest is out of range, not malformed; one up to it is looked for, however it is spelled", async () => {
    const { mcp, pane } = await setup();
    const outOfRange = "error (bad-input): invalid arguments for capture_since: pane id %4294967296 is out of range: tmux numbers panes from %0 to %4294967295 (list_panes shows the panes there are) (at paneId)";
    expect(textOf(await mcp.call("capture_since", { paneId: "%4294967296" }))).toBe(outOfRange);
    expectError(await mcp.call("send_keys", { paneId: "%99999999999999", text: "x" }), /bad-input.*pane id %99999999999999 is out of range/);
    expectError(await mcp.call("capture_since", { paneId: "%2147483647" }), /unknown-pane.*no pane %2147483647.*list_panes/);
    const found = await mcp.call("capture_since", { paneId: `%00000000000${pane.slice(1)}` });
    expect(found.structuredContent, textOf(found)).toMatchObject({ paneId: pane });
  });

  it("key names with spaces, semicolons or unknown words are refused naming the accepted forms", async () => {
    const { mcp, pane } = await setup();
    for (const key of ["C-c; kill-server", "Enter Enter", "Bogus", "'", "a".repeat(1000)]) {
      expectError(await mcp.call("send_keys", { paneId: pane, keys: [key] }), /key name|at most/);
    }
    expectError(await mcp.call("send_keys", { paneId: pane }), /nothing to send/);
  });

  it("a NUL or a lone surrogate in text is bad input (not an internal error), and nothing is typed", async () => {
    const { test, mcp, pane } = await setup({}, "stty -echo; exec cat");
    for (const text of ["before\0after", "x\uD800y"]) {
      const result = await mcp.call("send_keys", { paneId: pane, text });
      expectError(result, /error \(bad-input\): text contains (a NUL|a lone UTF-16 surrogate)/);
      expect(result._meta).toEqual({ "panescope/error": "bad-input" });
    }
    expectError(await mcp.call("open_pane", { command: "echo a\0b" }), /bad-input.*command contains a NUL/);
    expectError(await mcp.call("open_pane", { env: { A: "\uDC00" } }), /bad-input.*env\.A contains a lone UTF-16 surrogate/);
    expect((await mcp.call("send_keys", { paneId: pane, text: "ok 😀", enter: true })).isError).toBeFalsy();
    await vi.waitFor(async () => expect(await test.run(["capture-pane", "-p", "-t", pane])).toContain("ok 😀"), SETTLE);
    expect((await test.run(["capture-pane", "-p", "-t", pane])).join("\n")).not.toMatch(/before|after|x.y/);
  });

  it("negative numbers are refused; a huge waitMs is capped and the cap is reported", async () => {
    const { mcp, pane } = await setup({ maxWaitMs: 200 });
    expectError(await mcp.call("capture_since", { paneId: pane, waitMs: -5 }), /waitMs cannot be negative/);
    expectError(await mcp.call("capture_since", { paneId: pane, maxLines: -1 }), /maxLines cannot be negative/);
    expectError(await mcp.call("capture_since", { paneId: pane, maxLines: 1e9 }), /maxLines is at most/);
    expectError(await mcp.call("capture_since", { paneId: pane, maxBytes: 0 }), /maxBytes must be at least 1/);
    expectError(await mcp.call("capture_since", { paneId: pane, maxBytes: 2 ** 40 }), /maxBytes is at most/);
    expectError(await mcp.call("capture_since", { paneId: pane, waitMs: 1.5 }), /whole number/);
    const first = await mcp.call("capture_since", { paneId: pane });
    const capped = await mcp.call("capture_since", { cursor: first.structuredContent?.cursor, waitMs: 1e12 });
    expect(capped.structuredContent).toMatchObject({ waitMs: 200, waitCapMs: 200, waitClamped: true, waitEnded: "timeout" });
    expect(textOf(capped)).toContain("capped at 200");
  });

  it("a megabyte string is refused in every text field, and the server still answers", async () => {
    const { mcp, pane } = await setup();
    const big = "x".repeat(1024 * 1024);
    expectError(await mcp.call("send_keys", { paneId: pane, text: big }), /text is at most/);
    expectError(await mcp.call("capture_since", { cursor: big }), /cursor is longer/);
    expectError(await mcp.call("wait_for", { paneId: pane, pattern: big }), /pattern is at most/);
    expectError(await mcp.call("open_pane", { command: big }), /command is at most/);
    expect((await mcp.call("capture_since", { paneId: pane })).isError).toBeFalsy();
  });

  it("malformed, tampered and other-pane cursors are errors that say to start again", async () => {
    const { test, mcp, pane } = await setup();
    const first = await mcp.call("capture_since", { paneId: pane });
    const cursor = String(first.structuredContent?.cursor);
    expectError(await mcp.call("capture_since", { cursor: "not a cursor!" }), /cursor-malformed.*omit `cursor`/);
    const flipped = cursor.slice(0, 10) + (cursor[10] === "A" ? "B" : "A") + cursor.slice(11);
    expectError(await mcp.call("capture_since", { cursor: flipped }), /cursor-(tampered|malformed)/);
    await test.run(["split-window", "-d", "-t", pane, "sh"]);
    const [, other = ""] = await test.run(["list-panes", "-F", "#{pane_id}"]);
    expectError(await mcp.call("capture_since", { paneId: other, cursor }), /cursor-other-pane/);
  });

  it("wait_for refuses a bad regex and an ambiguous request", async () => {
    const { mcp, pane } = await setup();
    expectError(await mcp.call("wait_for", { paneId: pane, pattern: "(" }), /not a valid JavaScript regular expression/);
    expectError(await mcp.call("wait_for", { paneId: pane, pattern: "a", quietMs: 10 }), /exactly one of/);
    expectError(await mcp.call("wait_for", { paneId: pane }), /exactly one of/);
  });
});

describe("policy", () => {
  it("never types into or closes panescope's own pane, even with force", async () => {
    // TMUX_PANE without TMUX: which server it belongs to is unknown, so it is refused on any.
    const { mcp, pane } = await setup({ ownPane: { paneId: "%0" } });
    expect(pane).toBe("%0");
    expectError(await mcp.call("send_keys", { paneId: pane, text: "x" }), /not-allowed.*panescope itself runs in/);
    expectError(await mcp.call("close_pane", { paneId: pane, force: true }), /not-allowed/);
    const panes = (await mcp.call("list_panes")).structuredContent?.panes as { self: boolean }[];
    expect(panes[0]?.self).toBe(true);
  });

  it("closes only panes it opened unless forced", async () => {
    const { test, mcp, pane } = await setup();
    expectError(await mcp.call("close_pane", { paneId: pane }), /not opened by panescope: pass `force: true`/);
    const opened = await mcp.call("open_pane", { command: "sleep 60", cols: 50, rows: 10 });
    expect(opened.structuredContent).toMatchObject({ session: "panescope", createdSession: true });
    const id = String(opened.structuredContent?.paneId);
    const split = await mcp.call("open_pane", { command: "sleep 60", split: "vertical", rows: 4 });
    expect(split.structuredContent).toMatchObject({ session: "panescope", createdSession: false });
    const sizes = await test.run(["list-panes", "-t", "=panescope:", "-F", "#{pane_id} #{pane_width}x#{pane_height}"]);
    expect(sizes).toContain(`${String(split.structuredContent?.paneId)} 50x4`);
    const panes = (await mcp.call("list_panes")).structuredContent?.panes as { paneId: string; opened: boolean }[];
    expect(panes.filter((p) => p.opened).map((p) => p.paneId).sort()).toEqual([id, String(split.structuredContent?.paneId)].sort());
    expect((await mcp.call("close_pane", { paneId: id })).structuredContent).toEqual({ paneId: id, openedByPanescope: true, ended: false });
    expect(await test.run(["list-panes", "-a", "-F", "#{pane_id}"])).not.toContain(id);
  });
});

describe("waiting", () => {
  it("a client's cancel ends a waiting capture_since at once", async () => {
    const { mcp, pane } = await setup();
    const first = await mcp.call("capture_since", { paneId: pane });
    const capture = vi.spyOn(mcp.hub, "capture");
    const controller = new AbortController();
    const call = mcp.call("capture_since", { cursor: first.structuredContent?.cursor, waitMs: 25_000 }, { signal: controller.signal });
    await vi.waitFor(() => expect(capture).toHaveBeenCalled(), SETTLE);
    controller.abort();
    await expect(call).rejects.toThrow();
    await capture.mock.results[0]?.value;
    expect((await mcp.call("list_panes")).isError).toBeFalsy();
  }, 20_000); // the 25 s wait must end on the cancel: an ignored cancel fails by timeout

  it("a wait with maxLines: 0 still wakes on a change that is only rows (a screen clear)", async () => {
    const { test, mcp, pane } = await setup({}, "echo some text; stty -echo; read x; printf '\\033[H\\033[2J'; exec sleep 600");
    await vi.waitFor(async () => expect(await test.run(["capture-pane", "-p", "-t", pane])).toContain("some text"), SETTLE);
    const first = await mcp.call("capture_since", { paneId: pane });
    const waiting = mcp.call("capture_since", { cursor: first.structuredContent?.cursor, waitMs: 20_000, maxLines: 0 });
    await test.run(["send-keys", "-t", pane, "Enter"]);
    const woke = (await waiting).structuredContent;
    expect(woke).toMatchObject({ waitEnded: "change", rows: [], raw: "" });
    expect((woke?.truncated as { rows: number }).rows).toBeGreaterThan(0);
  }, 10_000); // the 20 s wait must end on the change: a missed wake-up fails by timeout

  it("wait_for ends with timeout when nothing matches, and with quiet when the pane is silent", async () => {
    const { mcp, pane } = await setup();
    const timeout = await mcp.call("wait_for", { paneId: pane, pattern: "never-printed", timeoutMs: 150 });
    expect(timeout.structuredContent).toMatchObject({ outcome: "timeout", timeoutMs: 150 });
    const quiet = await mcp.call("wait_for", { paneId: pane, quietMs: 100, timeoutMs: 5000 });
    expect(quiet.structuredContent).toMatchObject({ outcome: "quiet" });
  });

  it("capture_pane shows the screen, scrollback and a cursor that continues it", async () => {
    const { test, mcp, pane } = await setup({}, "seq 1 20; sleep 60");
    await vi.waitFor(async () => expect(await test.run(["capture-pane", "-p", "-t", pane])).toContain("20"), SETTLE);
    const shot = await mcp.call("capture_pane", { paneId: pane, history: 5 });
    const data = shot.structuredContent as { rows: string[]; history: string[]; cursor: string };
    expect(data.rows.slice(0, 7)).toEqual(["14", "15", "16", "17", "18", "19", "20"]);
    expect(data.history).toEqual(["9", "10", "11", "12", "13"]);
    expect(textOf(shot)).toContain("\n-5|9\n|10\n");
    const next = await mcp.call("capture_since", { cursor: data.cursor });
    expect(next.structuredContent).toMatchObject({ first: false, rows: [] });
  });

  it("capture_pane of a pane with no scrollback has no history, not its first row again", async () => {
    const { test, mcp, pane } = await setup({}, "echo HELLO; sleep 60");
    await vi.waitFor(async () => expect(await test.run(["capture-pane", "-p", "-t", pane])).toContain("HELLO"), SETTLE);
    const shot = await mcp.call("capture_pane", { paneId: pane, history: 3 });
    const data = shot.structuredContent as { rows: string[]; history: string[] };
    expect(data.rows[0]).toBe("HELLO");
    expect(data.history).toEqual([]);
    expect(textOf(shot)).not.toContain("-1|");
  });
});
