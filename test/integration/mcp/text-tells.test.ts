// What QA found the text answer leaving out, on a real tmux through the tools: output that left the
// screen reading as before (`seq 5` run again on a settled 60x8 sh pane) told as its scroll and its
// lines, never `no change`; rows maxLines cut said in the text; a closed pane's exit status in
// capture_pane as in capture_since; a hint for common key names tmux spells otherwise.
import { afterEach, describe, expect, it } from "vitest";
import { link, textOf, type Linked } from "../../support/mcp-link.js";
import { killAllServers, startServer, waitFor } from "../../support/tmux-fixture.js";

afterEach(killAllServers);

interface Answer {
  text: string;
  data: { cursor: string; raw: string; rows: Array<{ line: number; text: string }>; truncated: { rows: number } };
}

async function call(mcp: Linked, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await mcp.call(name, args);
  if (result.isError) throw new Error(`${name}: ${textOf(result)}`);
  return { text: textOf(result), data: result.structuredContent as Answer["data"] };
}

/** `seq 5` typed at the prompt; answers once everything since `cursor` holds its output and the next prompt. */
async function seq5(mcp: Linked, cursor: string, args: Record<string, unknown> = {}): Promise<Answer> {
  await mcp.call("send_keys", { paneId: "%0", text: "seq 5", enter: true });
  let answer: Answer | undefined;
  await waitFor(async () => {
    answer = await call(mcp, "capture_since", { cursor, waitMs: 1000, ...args });
    return /5\r?\n# $/.test(answer.data.raw);
  }, 10_000, "seq 5's output and the prompt");
  if (!answer) throw new Error("no answer");
  return answer;
}

async function shellPane(): Promise<{ mcp: Linked; cursor: string }> {
  const tmux = await startServer({ command: "sh", cols: 60, rows: 8, env: { PS1: "# " } });
  const mcp = await link(tmux.server);
  const first = await call(mcp, "capture_since", { paneId: "%0" });
  return { mcp, cursor: first.data.cursor };
}

describe("output that leaves the screen looking as it did", () => {
  it("is told as the scroll and the lines it wrote, never `no change`", async () => {
    const { mcp, cursor } = await shellPane();
    const once = await seq5(mcp, cursor);
    const twice = await seq5(mcp, once.data.cursor);
    // The screen now: `5`, `# seq 5`, 1..5, `#`; one more `seq 5` leaves exactly that again.
    const again = await seq5(mcp, twice.data.cursor);
    expect(again.data.rows).toHaveLength(7);
    expect(again.text).not.toContain("no change");
    expect(again.text.split("\n")).toEqual([expect.stringMatching(/^cursor=\S+ %0 scrolled 6 @7,2$/), "1|# seq 5", "|1", "|2", "|3", "|4", "|5", "|#"]);
    await mcp.close();
  });

  it("`seq 5` after `seq 5`: its lines, not a scroll down and one row; maxLines' cut said as the JSON counts it", async () => {
    const { mcp, cursor } = await shellPane();
    const once = await seq5(mcp, cursor);
    const twice = await seq5(mcp, once.data.cursor, { maxLines: 2 });
    expect(twice.data.truncated.rows).toBe(5);
    expect(twice.text.split("\n")).toEqual([expect.stringMatching(/^cursor=\S+ %0 scrolled 5 @7,2$/), "cut 5 rows (maxLines/maxBytes)", "6|5", "|#"]);
    const whole = await call(mcp, "capture_since", { cursor: once.data.cursor });
    expect(whole.text.split("\n").slice(1)).toEqual(["1|# seq 5", "|1", "|2", "|3", "|4", "|5", "|#"]);
    await mcp.close();
  });
});

describe("capture_pane of a pane whose program ended", () => {
  it("says how it ended, as capture_since and wait_for do", async () => {
    const tmux = await startServer({ cols: 60, rows: 8 });
    const mcp = await link(tmux.server);
    const opened = await call(mcp, "open_pane", { command: 'bash -c "echo starting; sleep 1; echo bye; exit 3"' });
    const paneId = (opened.data as unknown as { paneId: string }).paneId;
    const waited = await call(mcp, "wait_for", { paneId, closed: true, timeoutMs: 10_000 });
    expect(waited.text).toContain("closed: exit status 3");
    const captured = await call(mcp, "capture_pane", { paneId });
    expect(captured.text.split("\n").at(-1)).toBe("closed: exit status 3");
    expect(captured.data).toMatchObject({ closed: true, exit: { status: 3 } });
    await mcp.close();
  });
});

describe("send_keys with a key name tmux spells otherwise", () => {
  it.each([
    ["Return", "Enter"],
    ["Ctrl-C", "C-c"],
    ["ESC", "Escape"],
  ])("refuses %j, types nothing, and asks: did you mean %j", async (name, meant) => {
    const tmux = await startServer({ command: "sh", cols: 60, rows: 8, env: { PS1: "# " } });
    const mcp = await link(tmux.server);
    for (const args of [{ input: [name] }, { keys: [name] }]) {
      const result = await mcp.call("send_keys", { paneId: "%0", ...args });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`(did you mean "${meant}"?)`);
    }
    await mcp.close();
  });
});
