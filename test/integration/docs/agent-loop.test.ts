// docs/tools.md's agent loop is a real transcript: each call is made through the MCP tools on a
// private tmux running python3, passing the cursor of the answer before it, and each answer's text
// is the one the page shows (cursor tokens masked: they differ on every run).
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { link, textOf } from "../../support/mcp-link.js";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

afterEach(killAllServers);

const masked = (text: string): string => text.replace(/cursor=[A-Za-z0-9_-]+/g, "cursor=TOKEN").replace(/ +$/gm, "").trimEnd();

function transcript(): { tool: string; args: Record<string, unknown>; answer: string }[] {
  const page = readFileSync(new URL("../../../docs/tools.md", import.meta.url), "utf8");
  const block = /```text\n([\s\S]*?)```/.exec(page.slice(page.indexOf("## The agent's loop")))?.[1] ?? "";
  return block
    .split(/^→ /m)
    .slice(1)
    .map((step) => {
      const [call = "", ...answer] = step.trimEnd().split("\n");
      const space = call.indexOf(" ");
      return { tool: call.slice(0, space), args: JSON.parse(call.slice(space + 1)) as Record<string, unknown>, answer: answer.join("\n") };
    });
}

describe("docs/tools.md", () => {
  it("the agent's loop is what the tools answer, call after call, each passing the cursor before it", async () => {
    const steps = transcript();
    expect(steps.map((s) => s.tool)).toEqual(["capture_since", "send_keys", "send_keys", "send_keys"]);
    const test = await startServer({ cols: 60, rows: 8, command: "python3 -q" });
    const mcp = await link(test.server);
    try {
      const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
      expect(pane).toBe("%0");
      // The page starts once the prompt is up (a first read before it would show a blank screen).
      await vi.waitFor(async () => expect((await test.run(["capture-pane", "-p", "-t", pane]))[0]).toBe(">>>"), { timeout: 10_000 });
      let cursor: string | undefined;
      let shown: string | undefined;
      for (const [i, step] of steps.entries()) {
        if (i > 0) expect(step.args.cursor, `call ${i + 1} passes the cursor of the answer before it`).toBe(shown);
        const args = { ...step.args, ...(cursor === undefined ? {} : { cursor }) };
        const result = await mcp.call(step.tool, args);
        expect(masked(textOf(result)), `answer ${i + 1}`).toBe(masked(step.answer));
        cursor = String((result.structuredContent as { cursor: string }).cursor);
        shown = /^cursor=(\S+)/.exec(step.answer)?.[1] ?? shown;
      }
    } finally {
      await mcp.close();
    }
  });
});
