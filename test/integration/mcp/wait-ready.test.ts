// Waiting until a program is ready for input, through the tools on a private tmux: `ready: true`
// ends when the pane's foreground program reads its terminal (from /proc) after a moment of quiet,
// and says what it rests on. A busy loop never answers ready; a program that printed its prompt and
// then works before it reads answers only once it reads. Ordering and content only, no timings.
import { closeSync, constants, openSync, readFileSync, writeSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { link, textOf, type Linked } from "../../support/mcp-link.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const linked: Linked[] = [];
afterEach(async () => {
  await Promise.all(linked.splice(0).map((l) => l.close()));
  await killAllServers();
});

type Data = Record<string, unknown> & { outcome?: string; cursor?: string; readiness?: { ready?: boolean; evidence: string; detail: string }; delta?: { raw: string } };

async function setup(): Promise<{ test: TestServer; call: (name: string, args: Record<string, unknown>) => Promise<{ data: Data; text: string }> }> {
  const test = await startServer({ cols: 80, rows: 20 });
  const mcp = await link(test.server);
  linked.push(mcp);
  return {
    test,
    call: async (name, args) => {
      const result = await mcp.call(name, args);
      expect(result.isError, textOf(result)).toBeFalsy();
      return { data: result.structuredContent as Data, text: textOf(result) };
    },
  };
}

async function paneOf(test: TestServer, command: string): Promise<string> {
  const [paneId = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main:", command]);
  return paneId;
}

/** The pane process's children's names now (what runs in the foreground of a shell). */
function children(test: TestServer, panePid: string): string[] {
  const pids = readFileSync(`/proc/${panePid}/task/${panePid}/children`, "utf8").trim().split(" ").filter(Boolean);
  return pids.flatMap((pid) => {
    try {
      return [readFileSync(`/proc/${pid}/comm`, "utf8").trim()];
    } catch {
      return [];
    }
  });
}

describe.runIf(process.platform === "linux")("wait_for and send_keys with ready: true", () => {
  it("python3 at its prompt is ready, on the evidence of /proc, and the answer carries what it printed", { timeout: 60_000 }, async () => {
    const { test, call } = await setup();
    const paneId = await paneOf(test, "python3 -q");
    const first = await call("wait_for", { paneId, ready: true, timeoutMs: 20_000 });
    expect(first.data).toMatchObject({ outcome: "ready", readiness: { ready: true, evidence: "proc" } });
    expect(first.text).toMatch(/ready \(from \/proc\): python3 .* is waiting for input/);
    // Type a statement that works before it prints: the answer comes once python reads again.
    const ran = await call("send_keys", { paneId, cursor: first.data.cursor, text: "import time; time.sleep(0.5); print('slept')", enter: true, wait: { ready: true, timeoutMs: 20_000 } });
    expect(ran.data).toMatchObject({ outcome: "ready", readiness: { ready: true, evidence: "proc" } });
    expect(ran.data.delta?.raw.replace(/\r/g, "")).toContain("\nslept\n>>> ");
  });

  it("what the program wrote just before it read is in the answer, however late tmux delivers it", { timeout: 60_000 }, async () => {
    const { test, call } = await setup();
    const paneId = await paneOf(test, "read first; sleep 2; read second");
    const [serverPid = "", panePid = "", paneTty = ""] = (await test.run(["display-message", "-p", "-t", paneId, "#{pid} #{pane_pid} #{pane_tty}"]))[0]?.split(" ") ?? [];
    const start = await call("wait_for", { paneId, ready: true, timeoutMs: 20_000 });
    const waited = call("send_keys", { paneId, cursor: start.data.cursor, text: "go", enter: true, wait: { ready: true, timeoutMs: 30_000 } });
    await waitFor(() => children(test, panePid).includes("sleep"), 15_000, "the sleep");
    // The wait saw the echo and now looks at /proc while the shell sleeps. Then tmux stops and words
    // reach the pane's terminal, as if the program wrote them just before it read again: they wait
    // in the pty while /proc shows the shell reading. (The pauses give the wait time to look; a
    // slower machine only makes the test easier to pass, never makes it fail.)
    await sleep(800);
    process.kill(Number(serverPid), "SIGSTOP");
    try {
      const tty = openSync(paneTty, constants.O_WRONLY | constants.O_NOCTTY);
      writeSync(tty, "late words\n");
      closeSync(tty);
      await waitFor(() => !children(test, panePid).includes("sleep"), 15_000, "the sleep's end");
      await sleep(1000);
    } finally {
      process.kill(Number(serverPid), "SIGCONT");
    }
    const answer = await waited;
    expect(answer.data).toMatchObject({ outcome: "ready", readiness: { ready: true } });
    expect(answer.data.delta?.raw).toContain("late words");
  });

  it("a busy loop is never ready: the wait times out and says the program is running", { timeout: 60_000 }, async () => {
    const { test, call } = await setup();
    const paneId = await paneOf(test, "while :; do :; done");
    const waited = await call("wait_for", { paneId, ready: true, timeoutMs: 1500 });
    expect(waited.data).toMatchObject({ outcome: "timeout", readiness: { ready: false, evidence: "proc" } });
    expect(waited.text).toMatch(/not ready \(from \/proc\): .* is running/);
  });

  it("a program that printed its prompt and works before it reads is ready only once it reads", { timeout: 60_000 }, async () => {
    const { test, call } = await setup();
    const paneId = await paneOf(test, "printf 'name? '; sleep 1; read name; echo \"got $name\"");
    const [panePid = ""] = await test.run(["display-message", "-p", "-t", paneId, "#{pane_pid}"]);
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", paneId])).join("\n").includes("name?"), 15_000, "the prompt");
    const waited = await call("wait_for", { paneId, ready: true, timeoutMs: 20_000 });
    expect(waited.data).toMatchObject({ outcome: "ready", readiness: { ready: true, evidence: "proc" } });
    // The prompt was on the screen all along; the answer came after the sleep had ended.
    expect(children(test, panePid)).not.toContain("sleep");
    expect(waited.data.readiness?.detail).toMatch(/^(ba|da)?sh \(pid \d+, S in \w+\) is waiting for input/);
  });

  it("ready is one condition among the others: two at once are refused", async () => {
    const { test } = await setup();
    const mcp = linked[0] as Linked;
    const refused = await mcp.call("wait_for", { paneId: "%0", ready: true, quietMs: 100 });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/exactly one of pattern, quietMs, closed: true or ready: true/);
    await test.kill();
  });
});
