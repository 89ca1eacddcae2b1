// send_keys through MCP on a private tmux server: input typed in the order given, the documented
// newline rule, and type-wait-see in one call (the delta since just before the keys).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { typingOf } from "../../src/mcp/typing.js";
import { killAllServers, startServer, type TestServer } from "../support/tmux-fixture.js";
import { link, textOf, type Linked } from "../support/mcp-link.js";

const linked: Linked[] = [];
afterEach(async () => {
  await Promise.all(linked.splice(0).map((l) => l.close()));
  await killAllServers();
});

async function setup(command: string): Promise<{ test: TestServer; mcp: Linked; pane: string }> {
  const test = await startServer({ cols: 60, rows: 10, command, env: { PS1: "$ " } });
  const mcp = await link(test.server);
  linked.push(mcp);
  const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
  return { test, mcp, pane };
}

const structured = (result: CallToolResult) => result.structuredContent as Record<string, unknown>;
const deltaOf = (result: CallToolResult) => structured(result).delta as { raw: string; rows: { text: string }[] };

describe("send_keys input", () => {
  it("is one send-keys per text and per run of keys, in the order given", () => {
    const typing = typingOf(["Escape", { text: ":wq" }, "Enter", "C-c", { text: "" }, { text: "é" }], "input");
    expect(typing.commands).toEqual([["--", "Escape"], ["-l", "--", ":wq"], ["--", "Enter", "C-c"], ["-l", "--", "é"]]);
    expect(typing).toMatchObject({ typedChars: 4, keys: ["Escape", "Enter", "C-c"], summary: "keys Escape, then 3 characters of text, then keys Enter C-c, then 1 character of text" });
    expect(() => typingOf(["Bogus"], "input")).toThrow(/key/i);
  });

  it("reaches the program in the order given: text, a key, text (not text first, then keys)", async () => {
    const { mcp, pane } = await setup("stty -icanon -echo; exec cat -v");
    const result = await mcp.call("send_keys", { paneId: pane, input: [{ text: "a" }, "Escape", { text: "b" }, "C-a"], wait: { pattern: "a\\^\\[b\\^A" } });
    expect(structured(result)).toMatchObject({ outcome: "matched", keys: ["Escape", "C-a"], typedChars: 2 });
    expect(deltaOf(result).raw).toBe("a^[b^A");
  });
});

describe("send_keys with a wait", () => {
  it("types, waits and answers what the keys caused, in one call; a newline-ended block with enter runs in python3", async () => {
    const { mcp, pane } = await setup("python3 -q");
    expect(structured(await mcp.call("wait_for", { paneId: pane, pattern: ">>> $" })).outcome).toBe("matched");
    const one = await mcp.call("send_keys", { paneId: pane, text: "print(6*7)", enter: true, wait: { pattern: "^>>> $" } });
    expect(structured(one)).toMatchObject({ outcome: "matched" });
    expect(deltaOf(one).raw).toMatch(/^print\(6\*7\)\r?\n42\r?\n>>> $/);
    expect(textOf(one)).toMatch(/^cursor=\S+ %\d+ matched .*\nsent to %\d+: 10 characters of text, then keys Enter\nmatched at screen row \d+:/);
    // The rule of docs/tools.md: each newline an Enter, and one more with enter: the block runs.
    const block = await mcp.call("send_keys", { paneId: pane, cursor: structured(one).cursor, text: "for i in range(3):\n    print(i*i)\n", enter: true, wait: { pattern: "^>>> $" } });
    expect(structured(block).outcome).toBe("matched");
    expect(deltaOf(block).raw.replace(/\r/g, "")).toBe("for i in range(3):\n...     print(i*i)\n... \n0\n1\n4\n>>> ");
  });

  it("does not take the old prompt for the answer: a screen pattern is tested once the pane changed after the keys", async () => {
    const { mcp, pane } = await setup("python3 -q");
    await mcp.call("wait_for", { paneId: pane, pattern: ">>> $" });
    const result = await mcp.call("send_keys", { paneId: pane, text: "import time; time.sleep(0.3); print('late')", enter: true, wait: { pattern: "^>>> $" } });
    expect(deltaOf(result).raw.replace(/\r/g, ""), textOf(result)).toContain("late\n>>> ");
  });

  it("with a cursor and no wait, answers what came since the cursor up to the keys, and a cursor from just before them", async () => {
    const { mcp, pane } = await setup("sh");
    const start = structured(await mcp.call("capture_since", { paneId: pane }));
    await mcp.call("send_keys", { paneId: pane, text: "echo one", enter: true, wait: { pattern: "^one$" } });
    const sent = await mcp.call("send_keys", { paneId: pane, cursor: start.cursor, text: "echo two", enter: true });
    expect(deltaOf(sent).raw).toContain("one");
    expect(deltaOf(sent).raw).not.toContain("two");
    const after = structured(await mcp.call("wait_for", { cursor: structured(sent).cursor, pattern: "^two$" }));
    expect((after.delta as { raw: string }).raw).toContain("echo two");
    expect((after.delta as { raw: string }).raw).not.toContain("one");
  });

  it("refuses input together with the shorthand, and a wait with no condition", async () => {
    const { mcp, pane } = await setup("sh");
    expect(textOf(await mcp.call("send_keys", { paneId: pane, input: ["Enter"], text: "x" }))).toMatch(/^error \(bad-input\): give input .* or the shorthand/);
    expect(textOf(await mcp.call("send_keys", { paneId: pane, text: "x", wait: { timeoutMs: 5 } }))).toMatch(/^error \(bad-input\): give exactly one of wait\.pattern/);
  });
});
