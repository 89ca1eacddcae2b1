// wait_for through MCP on a private tmux server: a catastrophic pattern is stopped while the server
// keeps answering; patterns see rows as displayed; a timeout shows the screen; a raw match says
// where it is in words. The client validates every structuredContent against the output schema.
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { killAllServers, promptShown, startServer, type TestServer } from "../support/tmux-fixture.js";
import { link, textOf, type Linked } from "../support/mcp-link.js";

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

  it("matches a line the pane wrapped: a long token in a narrow pane is one line to the pattern", async () => {
    // Printed once watched: a seed paints rows one by one and cannot tell a wrap (docs/faults.md).
    const { test, mcp, pane } = await setup(`tmux wait-for print; printf '%s\\n' 'see https://example.com/${"x".repeat(60)}/end for more'; exec sleep 600`);
    const { cursor } = structured(await mcp.call("capture_since", { paneId: pane })) as { cursor: string };
    await test.run(["wait-for", "-S", "print"]);
    const result = await mcp.call("wait_for", { cursor, pattern: "https://\\S+/end for more$", timeoutMs: 5000 });
    expect(structured(result)).toMatchObject({ outcome: "matched", match: `https://example.com/${"x".repeat(60)}/end for more`, where: "screen rows 0-1" });
    expect(textOf(result)).toContain("matched at screen rows 0-1");
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

  it("a timeout says what did not happen, as the wait asked it: never quiet, not closed", async () => {
    const { mcp, pane } = await setup("while :; do printf .; sleep 0.01; done");
    const quiet = await mcp.call("wait_for", { paneId: pane, quietMs: 200, timeoutMs: 300 });
    expect(structured(quiet)).toMatchObject({ outcome: "timeout" });
    expect(textOf(quiet)).toContain("the pane was never quiet for 200 ms within 300 ms");
    const closed = await mcp.call("wait_for", { paneId: pane, closed: true, timeoutMs: 100 });
    expect(textOf(closed)).toContain("the pane did not close within 100 ms");
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

  it("answers the output it waited for: after send_keys, wait_for's delta holds the 42 and capture_since with its cursor follows on", async () => {
    const { mcp, pane } = await setup("python3 -q");
    await mcp.call("wait_for", { paneId: pane, pattern: ">>> $" });
    const sent = structured(await mcp.call("send_keys", { paneId: pane, text: "print(6*7)", enter: true }));
    const waited = await mcp.call("wait_for", { cursor: sent.cursor, pattern: "^>>> $" });
    const data = structured(waited);
    const delta = data.delta as { raw: string; rows: { text: string }[]; first: boolean };
    expect(data).toMatchObject({ outcome: "matched", match: ">>> " });
    expect(delta.first).toBe(false);
    expect(delta.raw).toMatch(/print\(6\*7\)\r?\n42\r?\n>>> $/);
    expect(delta.rows.map((r) => r.text)).toContain("42");
    expect(textOf(waited)).toMatch(/^cursor=\S+ %\d+ matched /);
    expect(textOf(waited)).toContain("\n|42\n");
    // The cursor after the answer: nothing more to read, nothing skipped.
    const next = await mcp.call("capture_since", { cursor: data.cursor });
    expect(textOf(next)).toBe("no change");
  });

  it("after send_keys, the prompt the keys found is not their answer: a screen pattern waits for the pane to change since the keys", async () => {
    // No echo, and the answer comes 300 ms after the line: the old prompt stays on the screen meanwhile.
    const { mcp, pane } = await setup(`stty -echo; while printf '> '; read line; do sleep 0.3; echo "$line" | tr a-z A-Z; done`);
    const start = structured(await mcp.call("wait_for", { paneId: pane, pattern: "^> $" }));
    expect(start.outcome).toBe("matched");
    const sent = structured(await mcp.call("send_keys", { paneId: pane, cursor: start.cursor, text: "hello", enter: true }));
    const waited = structured(await mcp.call("wait_for", { cursor: sent.cursor, pattern: "^> $" }));
    expect(waited.outcome).toBe("matched");
    expect((waited.delta as { raw: string }).raw).toMatch(/HELLO\r?\n> $/);
    // Nothing new since the keys' answer: the same pattern, asked again, matches at once.
    const again = structured(await mcp.call("wait_for", { cursor: waited.cursor, pattern: "^> $", timeoutMs: 5000 }));
    expect(again).toMatchObject({ outcome: "matched", cursor: waited.cursor });
  });

  it("a quiet answer holds what the pane wrote just before it went quiet, however late tmux delivers it", async () => {
    const { test, mcp, pane } = await setup("exec sleep 600");
    const first = structured(await mcp.call("capture_since", { paneId: pane }));
    // A read with a cursor before tmux stops: the first one asks tmux which server it is.
    const start = structured(await mcp.call("capture_since", { cursor: first.cursor }));
    const [serverPid = "", paneTty = ""] = (await test.run(["display-message", "-p", "-t", pane, "#{pid} #{pane_tty}"]))[0]?.split(" ") ?? [];
    // tmux stops; words reach the pane's terminal and wait in the pty while the pane looks quiet.
    process.kill(Number(serverPid), "SIGSTOP");
    let waited: Promise<CallToolResult>;
    try {
      const tty = openSync(paneTty, constants.O_WRONLY | constants.O_NOCTTY);
      writeSync(tty, "late words\n");
      closeSync(tty);
      waited = mcp.call("wait_for", { cursor: start.cursor, quietMs: 300, timeoutMs: 20_000 });
      // Past the quiet period (a slower machine only makes the test easier to pass).
      await sleep(1500);
    } finally {
      process.kill(Number(serverPid), "SIGCONT");
    }
    const result = structured(await waited);
    expect(result).toMatchObject({ outcome: "quiet" });
    expect((result.delta as { raw: string }).raw).toContain("late words");
  });

  it("without a cursor, answers what came during the call", async () => {
    const { mcp, pane } = await setup("sh");
    expect(structured(await mcp.call("wait_for", { paneId: pane, pattern: "[$#] $" })).outcome).toBe("matched");
    const waiting = mcp.call("wait_for", { paneId: pane, pattern: "^done$" });
    const observer = await mcp.hub.observer(pane);
    await vi.waitFor(() => expect(observer.waiting).toBeGreaterThan(0)); // it has begun: what follows is its to answer
    await mcp.call("send_keys", { paneId: pane, text: "echo do''ne", enter: true });
    const data = structured(await waiting);
    expect(data.outcome).toBe("matched");
    expect((data.delta as { raw: string }).raw).toContain("done");
  });

  it("waits on several panes: the first whose condition holds answers, named, with its delta; the other cursors come back unchanged", async () => {
    const { test, mcp, pane } = await setup("sh");
    const [other = ""] = await test.run(["split-window", "-d", "-P", "-F", "#{pane_id}", "-t", pane, "sh"]);
    await promptShown(test, other);
    const first = structured(await mcp.call("capture_since", { paneId: pane }));
    const second = structured(await mcp.call("capture_since", { paneId: other }));
    await mcp.call("send_keys", { paneId: other, text: "echo from-the-second", enter: true });
    const result = await mcp.call("wait_for", { cursors: [first.cursor, second.cursor], pattern: "^from-the-second$" });
    const data = structured(result);
    expect(data).toMatchObject({ outcome: "matched", paneId: other, match: "from-the-second" });
    expect(data.cursors).toEqual([first.cursor, data.cursor]);
    expect((data.delta as { raw: string }).raw).toContain("from-the-second");
    expect(textOf(result)).toContain(`cursors=${String(first.cursor)} ${String(data.cursor)}`);
    // Nothing more in either: a short wait times out and gives both cursors back as they were.
    const idle = structured(await mcp.call("wait_for", { cursors: data.cursors, pattern: "never printed", timeoutMs: 50 }));
    expect(idle).toMatchObject({ outcome: "timeout", cursors: data.cursors });
    // The first pane's cursor still reads everything since it: the second pane's answer took nothing from it.
    await mcp.call("send_keys", { paneId: pane, text: "echo from-the-first", enter: true });
    const again = structured(await mcp.call("wait_for", { cursors: data.cursors, paneIds: [], pattern: "^from-the-first$" }));
    expect(again).toMatchObject({ outcome: "matched", paneId: pane });
    expect((again.delta as { raw: string }).raw).toContain("echo from-the-first");
  });

  it("a respawn during a wait goes on in the new program: its output can match, and the answer says respawned", async () => {
    const { test, mcp, pane } = await setup("sh");
    const first = structured(await mcp.call("capture_since", { paneId: pane }));
    const waiting = mcp.call("wait_for", { cursor: first.cursor, pattern: "^from-the-new-one$", timeoutMs: 20_000 });
    // Respawned once the wait waits on the pane's first program (before, the call would find the new one).
    const observer = await mcp.hub.observer(pane);
    await vi.waitFor(() => expect(observer.waiting).toBeGreaterThan(0), SETTLE);
    await test.run(["respawn-pane", "-k", "-t", pane, "sh -c 'echo from-the-new-one; exec sleep 60'"]);
    const answer = structured(await waiting);
    expect(answer.outcome).toBe("matched");
    expect(answer.delta).toMatchObject({ missed: true, reason: "respawned" });
  });

  it("refuses a pane named twice", async () => {
    const { mcp, pane } = await setup("sh");
    const first = structured(await mcp.call("capture_since", { paneId: pane }));
    expect(textOf(await mcp.call("wait_for", { cursors: [first.cursor], paneIds: [pane], quietMs: 10 }))).toMatch(/^error \(bad-input\): pane %\d+ is named twice/);
  });

  it("refuses empty lists of panes with what to give, not a bug report", async () => {
    const { mcp } = await setup("sh");
    for (const empty of [{ cursors: [] }, { paneIds: [] }, { cursors: [], paneIds: [] }]) {
      expect(textOf(await mcp.call("wait_for", { ...empty, quietMs: 10 }))).toBe("error (bad-input): cursors and paneIds name no pane: give at least one cursor or pane id (or omit both to wait on the active pane)");
    }
  });
});
