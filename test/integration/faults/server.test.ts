// Faults around the processes: the tmux server killed and started again on the same socket,
// panescope restarted with the same cursor key, and a client cancelling a waiting call.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { PaneObserver } from "../../../src/observe/pane/observer.js";
import { closeAll, connect, paneIn, texts } from "../../support/mcp-hub.js";
import { killAllServers, promptShown, startServer, waitFor } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

/** Readers waiting on an observer (private: the leak check looks inside on purpose). */
function waitersOf(observer: PaneObserver): number {
  return (observer as unknown as { wakeup: { size: number } }).wakeup.size;
}

function timers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
}

describe("the tmux server goes away", () => {
  it("a kill-server ends pending waits with closed; after a new server starts, old cursors are missed, server-restarted", async () => {
    const test = await startServer({ cols: 60, rows: 12, command: "echo before-restart; exec sleep 600" });
    const pane = await paneIn(test, "main");
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", pane])).includes("before-restart"), 5000, "output");
    const mcp = await connect(test.server);
    const start = await mcp.capture({ paneId: pane });
    const waiting = mcp.capture({ cursor: start.cursor, waitMs: 20_000 });
    await test.run(["kill-server"]);
    // Decision: a wait on a pane whose server went away ends with closed: true, the last screen kept.
    // It ends on the news ("change"), not at its 20 s deadline ("timeout").
    const ended = await waiting;
    expect(ended).toMatchObject({ closed: true, missed: false, waitEnded: "change" });
    // While no server runs, the old cursor reads the closed pane's last screen (not an error).
    const gone = await mcp.capture({ paneId: pane });
    expect(gone.closed).toBe(true);
    expect(texts(gone)).toContain("before-restart");
    expect(await mcp.call("list_panes")).toMatchObject({ isError: true });

    // A new server on the same socket: pane ids start again at %0, so the id is the same.
    await test.server.run(["-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "50", "-y", "10", "echo after-restart; exec sleep 600"]);
    await test.server.sizeNewSession("=main:", 50, 10);
    expect(await paneIn(test, "main")).toBe(pane);
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", pane])).includes("after-restart"), 5000, "new output");
    const delta = await mcp.capture({ cursor: start.cursor });
    expect(delta).toMatchObject({ missed: true, reason: "server-restarted", first: true, closed: false });
    expect(texts(delta)).toContain("after-restart");
    expect(delta.screen).toMatchObject({ cols: 50, rows: 10 });
    // The new pane streams: later output arrives as a normal delta, without restarting panescope.
    await test.run(["split-window", "-t", pane, "sh"]);
    const [fresh = ""] = await test.run(["display-message", "-p", "-t", "main", "#{pane_id}"]);
    await promptShown(test, fresh);
    const first = await mcp.capture({ paneId: fresh });
    await test.run(["send-keys", "-t", fresh, "-l", "echo streaming-again\n"]);
    const deltas = await mcp.captureUntil(first, (d) => texts(d).includes("streaming-again"));
    expect(deltas.every((d) => d.streaming && !d.missed)).toBe(true);
  });
});

describe("panescope restarts", () => {
  it("a new hub with the same persisted key answers an earlier process's cursor as missed, restarted", async () => {
    const test = await startServer({ cols: 60, rows: 12, command: "echo persistent; exec sleep 600" });
    const pane = await paneIn(test, "main");
    const key = randomBytes(32);
    const before = await connect(test.server, { key, instance: randomBytes(8) });
    const old = await before.capture({ paneId: pane });
    await before.close();
    const after = await connect(test.server, { key, instance: randomBytes(8) });
    const delta = await after.capture({ cursor: old.cursor });
    expect(delta).toMatchObject({ missed: true, reason: "restarted", first: true });
    expect(texts(delta)).toContain("persistent");
    // The same cursor under another key is not genuine: an error, never a delta.
    const stranger = await connect(test.server, { key: randomBytes(32) });
    const result = await stranger.call("capture_since", { cursor: old.cursor });
    expect(result).toMatchObject({ isError: true, _meta: { "panescope/error": "cursor-tampered" } });
  });
});

describe("a client cancels a waiting call", () => {
  it("the wait ends at once and leaves no waiter, listener or timer behind", async () => {
    const test = await startServer({ cols: 60, rows: 12, command: "sh" });
    const pane = await paneIn(test, "main");
    const mcp = await connect(test.server, {}, { maxWaitMs: 60_000 });
    const start = await mcp.capture({ paneId: pane });
    const observer = await mcp.hub.observer(pane);
    const timersBefore = timers();
    const controller = new AbortController();
    const call = mcp.capture({ cursor: start.cursor, waitMs: 60_000 }, { signal: controller.signal });
    await waitFor(() => waitersOf(observer) === 1, 5000, "the call to wait");
    controller.abort();
    await expect(call).rejects.toThrow();
    // The server side lets go on the cancel, not at the 60 s deadline (past this test's timeout).
    await waitFor(() => waitersOf(observer) === 0 && timers() <= timersBefore, 10_000, "the server side to let go");
    // The pane is still readable afterwards.
    expect((await mcp.capture({ cursor: start.cursor })).first).toBe(false);
  });

  it("through the hub, an aborted wait returns the (empty) delta at once", async () => {
    const test = await startServer({ cols: 60, rows: 12, command: "sh" });
    const pane = await paneIn(test, "main");
    const mcp = await connect(test.server);
    const start = await mcp.hub.capture({ paneId: pane });
    const observer = await mcp.hub.observer(pane);
    const controller = new AbortController();
    const waiting = mcp.hub.capture({ cursor: start.cursor, waitMs: 60_000, signal: controller.signal });
    await waitFor(() => waitersOf(observer) === 1, 5000, "the wait to start");
    controller.abort();
    const delta = await waiting;
    expect(delta).toMatchObject({ missed: false, closed: false, rows: [], raw: "" });
    expect(waitersOf(observer)).toBe(0);
  });
});
