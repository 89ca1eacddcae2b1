// wait_for through MCP on a private tmux server: a catastrophic pattern is stopped while the server
// keeps answering; patterns see rows as displayed; a timeout shows the screen; a raw match says
// where it is in words. The client validates every structuredContent against the output schema.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { killAllServers, startServer, type TestServer } from "../integration/tmux-fixture.js";
import { link, textOf, type Linked } from "./connect.js";

/** vi.waitFor gives up after 1 s by default, which a slow, busy machine can miss: conditions get 10 s. */
const SETTLE = { timeout: 10_000, interval: 20 };

const linked: Linked[] = [];
afterEach(async () => {
  await Promise.all(linked.splice(0).map((l) => l.close()));
  await killAllServers();
});

async function setup(command: string, options: Parameters<typeof link>[1] = {}): Promise<{ test: TestServer; mcp: Linked; pane: string }> {
  const test = await startServer({ cols: 60, rows: 8, command, env: { PS1: "$ " } });
  const mcp = await link(test.server, options);
  linked.push(mcp);
  await mcp.client.listTools(); // the client validates structuredContent against the schemas it listed
  const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
  return { test, mcp, pane };
}

const structured = (result: CallToolResult) => result.structuredContent as Record<string, unknown>;

describe("wait_for", () => {
  it("stops a catastrophic pattern with bad-input naming the budget, answering other calls meanwhile", async () => {
    const { mcp, pane } = await setup(`printf '%s\\n' ${"a".repeat(40)}; exec sleep 600`, { matchBudgetMs: 300 });
    await vi.waitFor(async () => expect(structured(await mcp.call("capture_pane", { paneId: pane })).rows).toContain("a".repeat(40)), SETTLE);
    const events: string[] = [];
    const started = performance.now();
    const waiting = mcp.call("wait_for", { paneId: pane, pattern: "(a|a)*b", timeoutMs: 20_000 }).then((result) => {
      events.push("wait_for");
      return result;
    });
    const listed = await mcp.call("list_panes");
    events.push("list_panes");
    const listMs = performance.now() - started;
    const captured = await mcp.call("capture_since", { paneId: pane });
    events.push("capture_since");
    const result = await waiting;
    console.log(`during a catastrophic match: list_panes answered after ${listMs.toFixed(0)} ms, the match stopped after ${(performance.now() - started).toFixed(0)} ms`);
    expect(listed.isError, textOf(listed)).toBeFalsy();
    expect(captured.isError, textOf(captured)).toBeFalsy();
    expect(events).toEqual(["list_panes", "capture_since", "wait_for"]);
    expect(result.isError).toBe(true);
    expect(result._meta).toEqual({ "panescope/error": "bad-input" });
    expect(textOf(result)).toMatch(/^error \(bad-input\): pattern ran out of its time budget \(300 ms\) on \d+ characters and was stopped/);
    const again = await mcp.call("wait_for", { paneId: pane, pattern: "a{40}" });
    expect(structured(again)).toMatchObject({ outcome: "matched", where: "screen row 0" });
  });

  it("matches the screen as displayed: the cursor row keeps its blanks, so '>>> $' finds a prompt", async () => {
    const { mcp, pane } = await setup("printf 'Python 3\\n>>> '; exec sleep 600");
    const result = await mcp.call("wait_for", { paneId: pane, pattern: ">>> $", timeoutMs: 10_000 });
    expect(structured(result)).toMatchObject({ outcome: "matched", match: ">>> ", matchedIn: "screen", where: "screen row 1", rows: [{ text: ">>> " }] });
    expect(textOf(result)).toContain("matched at screen row 1");
  });

  it("a timeout answer shows the screen's non-blank rows, as displayed", async () => {
    const { mcp, pane } = await setup("printf 'hello\\n\\nworld\\n'; exec sleep 600");
    await mcp.call("wait_for", { paneId: pane, pattern: "^world$" });
    const result = await mcp.call("wait_for", { paneId: pane, pattern: "never printed", timeoutMs: 100 });
    const top = (structured(result).screen as { top: number }).top;
    expect(structured(result)).toMatchObject({ outcome: "timeout", screenRows: [{ line: top, text: "hello" }, { line: top + 2, text: "world" }] });
    expect(structured(result).rows).toBeUndefined();
    const text = textOf(result);
    expect(text).toContain("nothing matched within 100 ms");
    expect(text).toContain("\n0|hello\n2|world");
  });

  it("a raw match says in words where it matched and gives its line, not line -1", async () => {
    const { mcp, pane } = await setup("sh");
    const before = structured(await mcp.call("capture_since", { paneId: pane }));
    await mcp.call("send_keys", { paneId: pane, text: "echo build; echo result=$((6*7))", enter: true });
    const result = await mcp.call("wait_for", { cursor: before.cursor, pattern: "result=\\d+", in: "raw" });
    const data = structured(result);
    expect(data).toMatchObject({ outcome: "matched", match: "result=42", matchedIn: "raw", rawContext: "result=42" });
    expect(data.where).toMatch(/^raw output since the cursor, line \d+ of \d+$/);
    expect(data.rows).toBeUndefined();
    expect(textOf(result)).toContain(`matched in the ${String(data.where)}; the line(s) around it:\n>result=42`);
  });
});
