// An agent's session, only through the MCP tools on a private tmux: python3, vim closed with `:wq`
// typed in order, a `\r` progress build that fails, and two panes waited on at once. Every line
// the programs print and every exit status reach the agent in the answers, the cursor threaded as
// docs/tools.md says (open_pane, capture_since for the screen and a cursor, then one-call forms).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { link, textOf, type Linked } from "../../support/mcp-link.js";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

const dir = mkdtempSync(join(tmpdir(), "panescope-agent-loop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(killAllServers);

type Data = Record<string, unknown> & { cursor?: string; delta?: { raw: string; rows: { text: string }[]; closed: boolean } };

/** The agent: calls tools, keeps every answer's text and structured content, threads cursors. */
class Agent {
  readonly seen: string[] = [];
  constructor(private readonly mcp: Linked) {}

  async call(name: string, args: Record<string, unknown>): Promise<Data> {
    const result: CallToolResult = await this.mcp.call(name, args);
    if (result.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${textOf(result)}`);
    this.seen.push(textOf(result), JSON.stringify(result.structuredContent));
    return result.structuredContent as Data;
  }

  /** open_pane, then capture_since for the screen so far and a cursor. */
  async open(command: string): Promise<{ paneId: string; cursor: string }> {
    const { paneId } = await this.call("open_pane", { command, session: "work" });
    const first = await this.call("capture_since", { paneId });
    return { paneId: String(paneId), cursor: String(first.cursor) };
  }

  /** Every answer so far, as one text (rows, raw, and panescope's words). */
  get all(): string {
    return this.seen.join("\n").replace(/\\r\\n|\\n/g, "\n");
  }
}

async function agent(): Promise<Agent> {
  const test = await startServer({ cols: 80, rows: 20, session: "work" });
  return new Agent(await link(test.server));
}

describe("an agent's loop through the tools", () => {
  it("python3: a value, a block ended by the newline rule, exit() with its status", async () => {
    const a = await agent();
    const opened = await a.open("python3 -q");
    const paneId = opened.paneId;
    const cursor = String((await a.call("wait_for", { cursor: opened.cursor, pattern: ">>> $" })).cursor);
    const value = await a.call("send_keys", { paneId, cursor, text: "print(6*7)", enter: true, wait: { pattern: "^>>> $" } });
    expect(value.delta?.raw).toMatch(/\n42\r?\n/);
    const block = await a.call("send_keys", { paneId, cursor: value.cursor, text: "for i in range(3):\n    print(i*i)\n", enter: true, wait: { pattern: "^>>> $" } });
    expect(block.delta?.raw.replace(/\r/g, "")).toContain("\n0\n1\n4\n>>> ");
    const end = await a.call("send_keys", { paneId, cursor: block.cursor, text: "raise SystemExit(7)", enter: true, wait: { closed: true } });
    expect(end).toMatchObject({ outcome: "closed" });
    expect(a.all).toContain("closed: exit status 7");
  });

  it("vim: ordered input types, leaves insert mode and writes with :wq; the pane's exit status is 0", async () => {
    const a = await agent();
    const file = join(dir, "note.txt");
    const opened = await a.open(`vim -u NONE -N -n ${file}`);
    const paneId = opened.paneId;
    const cursor = String((await a.call("wait_for", { cursor: opened.cursor, pattern: "^~", timeoutMs: 10_000 })).cursor);
    const end = await a.call("send_keys", { paneId, cursor, input: ["i", { text: "hello from vim" }, "Escape", { text: ":wq" }, "Enter"], wait: { closed: true } });
    expect(end).toMatchObject({ outcome: "closed", delta: { closed: true, exit: { status: 0 } } });
    expect(readFileSync(file, "utf8")).toBe("hello from vim\n");
    expect(a.all).toContain("hello from vim");
    expect(a.all).toContain("closed: exit status 0");
  });

  it("a \\r progress build that fails: every line, the bar's last frame and exit status 2 are in the answers", async () => {
    const a = await agent();
    const lines = ["compiling a.c", "compiling b.c", "b.c:3: error: expected ';'", "build failed"];
    const build = join(dir, "build.sh");
    writeFileSync(
      build,
      [
        `printf '%s\\n' '${lines[0]}' '${lines[1]}'`,
        `for i in 1 2 3 4 5 6 7 8 9 10; do printf '\\r[%-10s] %d%%' "$(printf '%*s' $i '' | tr ' ' '#')" $((i*10)); done`,
        `printf '\\n%s\\n%s\\n' "${lines[2]}" '${lines[3]}'`,
        "exit 2",
      ].join("\n"),
    );
    const { cursor } = await a.open(`sh ${build}`);
    const end = await a.call("wait_for", { cursor, closed: true, view: "both" });
    expect(end).toMatchObject({ outcome: "closed", closed: true, exit: { status: 2 } });
    for (const line of lines) expect(a.all).toContain(line);
    expect(a.all).toContain("[##########] 100%");
    expect(a.all).toContain("closed: exit status 2");
  });

  it("two panes: wait on both, the one that prints answers with its delta, the other's cursor waits on", async () => {
    const a = await agent();
    const one = await a.open("sh");
    const two = await a.open("sh");
    const sentTwo = await a.call("send_keys", { paneId: two.paneId, cursor: two.cursor, text: "echo second-$((1+1))", enter: true });
    const first = await a.call("wait_for", { cursors: [one.cursor, sentTwo.cursor], pattern: "^second-2$" });
    expect(first).toMatchObject({ outcome: "matched", paneId: two.paneId });
    const cursors = first.cursors as string[];
    expect(cursors[0]).toBe(one.cursor);
    const sentOne = await a.call("send_keys", { paneId: one.paneId, cursor: cursors[0], text: "echo first-$((0+1))", enter: true });
    const second = await a.call("wait_for", { cursors: [sentOne.cursor, cursors[1]], pattern: "^first-1$" });
    expect(second).toMatchObject({ outcome: "matched", paneId: one.paneId });
    expect(second.delta?.raw).toContain("first-1");
    expect(a.all).toContain("second-2");
  });
});
