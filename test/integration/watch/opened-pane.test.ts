// A pane panescope opened is known, and its end read, from the pane's own process — never from a
// pane option, which any program can write at any scope and which survives respawn-pane. Each
// forgery of issue 24 item 4 on a real tmux server, and panes recognised across panescope restarts.
// Where an assertion is about something that did NOT happen, a genuine end in another pane of the
// same session is awaited first: tmux reports subscriptions in order, one pass for every pane.
import { afterEach, describe, expect, it } from "vitest";
import { closeAll, connect, isErrorText, texts, type Capture, type Faults } from "../../support/mcp-hub.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

interface Listed {
  paneId: string;
  command: string;
  dead: boolean;
  opened: boolean;
  exitStatus?: number;
}

async function open(mcp: Faults, command?: string): Promise<string> {
  const opened = await mcp.call("open_pane", { session: "work", ...(command === undefined ? {} : { command }) });
  expect(isErrorText(opened)).toBeUndefined();
  return String(opened.structuredContent?.paneId);
}

async function listed(mcp: Faults, paneId: string): Promise<Listed | undefined> {
  const panes = (await mcp.call("list_panes")).structuredContent?.panes as Listed[];
  return panes.find((p) => p.paneId === paneId);
}

async function closedWith(mcp: Faults, paneId: string, status: number): Promise<void> {
  const waited = await mcp.call("wait_for", { paneId, closed: true, timeoutMs: 20_000 });
  expect(waited.structuredContent).toMatchObject({ outcome: "closed", exit: { status } });
}

/** A genuine end in another pane of the session, awaited: every earlier subscription change is in. */
async function syncSubscriptions(mcp: Faults): Promise<void> {
  await closedWith(mcp, await open(mcp, "exit 9"), 9);
}

async function shellServer(): Promise<TestServer> {
  const test = await startServer();
  // open_pane runs tmux's default-shell; a plain sh starts at once (no rc files).
  await test.run(["set-option", "-g", "default-shell", "/bin/sh"]);
  return test;
}

describe("the end of a pane panescope opened cannot be forged", () => {
  it("respawn-pane -k of a pane whose command exited 3 reads alive, not closed with exit 3", { timeout: 90_000 }, async () => {
    const test = await shellServer();
    const mcp = await connect(test.server);
    const paneId = await open(mcp, "echo first; exit 3");
    await closedWith(mcp, paneId, 3);
    const before = await mcp.capture({ paneId });
    await test.run(["respawn-pane", "-k", "-t", paneId, "sh"]);
    await test.run(["send-keys", "-t", paneId, "-l", "echo alive-$((6*7))\n"]);
    // In tmux first: until then a read of the ended pane answers at once, and would be read in a loop.
    // (Typed before the shell prompts, the output shares a line with the prompt: "# alive-42".)
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", paneId])).some((row) => row.includes("alive-42")), 15_000, "the new shell's output");
    const [after] = (await mcp.captureUntil(before, (d) => texts(d).some((t) => t.includes("alive-42")))).slice(-1) as [Capture];
    expect(after.closed).not.toBe(true);
    expect(await listed(mcp, paneId)).toMatchObject({ dead: false, opened: false });
    expect((await listed(mcp, paneId))?.exitStatus).toBeUndefined();
    const waited = await mcp.call("wait_for", { cursor: after.cursor, pattern: "alive-42", in: "screen", timeoutMs: 20_000 });
    expect(waited.structuredContent).toMatchObject({ outcome: "matched" });
    expect(waited.structuredContent?.closed).not.toBe(true);
  });

  it("set -g @panescope_status 0 makes no pane read closed, neither watched nor new, opened or not", { timeout: 90_000 }, async () => {
    const test = await shellServer();
    const mcp = await connect(test.server);
    const ours = await open(mcp, "cat");
    const watched = await mcp.capture({ paneId: ours });
    await test.run(["set-option", "-g", "@panescope_status", "0"]);
    await test.run(["set-option", "-w", "-t", ours, "@panescope_status", "0:panescope-open-000000000000-held"]);
    await syncSubscriptions(mcp);
    expect((await mcp.capture({ cursor: watched.cursor })).closed).not.toBe(true);
    const user = await mcp.capture({ paneId: "%0" });
    expect(user.closed).not.toBe(true);
    for (const paneId of [ours, "%0"]) {
      const pane = await listed(mcp, paneId);
      expect(pane).toMatchObject({ dead: false });
      expect(pane?.exitStatus).toBeUndefined();
    }
    expect((await listed(mcp, "%0"))?.opened).toBe(false);
    expect(isErrorText(await mcp.call("close_pane", { paneId: "%0" }))).toMatch(/not opened by panescope/);
    // A genuine end still reads as one, with its own status.
    await mcp.call("send_keys", { paneId: ours, keys: ["C-d"] });
    await closedWith(mcp, ours, 0);
  });

  it("a program that marks its own pane closed with set -p is still running, and its real end counts", { timeout: 90_000 }, async () => {
    const test = await shellServer();
    const mcp = await connect(test.server);
    const paneId = await open(mcp);
    const start = await mcp.capture({ paneId });
    await mcp.call("send_keys", { paneId, text: "tmux set -p @panescope_status 0:panescope-open-000000000000-held; echo marked-$((1+1))", enter: true });
    const [marked] = (await mcp.captureUntil(start, (d) => texts(d).some((t) => t.startsWith("marked-2")))).slice(-1) as [Capture];
    await syncSubscriptions(mcp);
    expect((await mcp.capture({ cursor: marked.cursor })).closed).not.toBe(true);
    expect((await listed(mcp, paneId))?.exitStatus).toBeUndefined();
    await mcp.call("send_keys", { paneId, text: "exit 7", enter: true });
    await closedWith(mcp, paneId, 7);
  });
});

describe("panes panescope opened, across panescope restarts", () => {
  it("a later panescope lists them as opened, names their program, and closes them without force", { timeout: 90_000 }, async () => {
    const test = await shellServer();
    const first = await connect(test.server);
    const running = await open(first, "sleep 600");
    const ended = await open(first, "echo done; exit 3");
    await closedWith(first, ended, 3);
    await first.close();
    const later = await connect(test.server);
    await waitFor(async () => (await listed(later, running))?.command === "sleep", 15_000, "sleep in the foreground");
    expect(await listed(later, running)).toMatchObject({ opened: true, command: "sleep" });
    expect(await listed(later, ended)).toMatchObject({ opened: true, command: "echo", exitStatus: 3 });
    expect((await later.call("close_pane", { paneId: ended })).structuredContent).toEqual({ paneId: ended, openedByPanescope: true, ended: true, exitStatus: 3 });
    expect((await later.call("close_pane", { paneId: running })).structuredContent).toEqual({ paneId: running, openedByPanescope: true, ended: false });
    expect(await test.run(["list-panes", "-a", "-F", "#{pane_id}"])).not.toContain(running);
  });
});
