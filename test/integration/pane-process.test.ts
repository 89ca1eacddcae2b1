// The /proc look at a pane's process on a real tmux server: it vouches for a live pane, and stops
// for good on each way the pane can stop being the watched process's — including a respawn whose
// old process ignores SIGHUP and lives on. Through the hub: such a respawn during a wait is still
// answered as respawned, never as the old process's news.
import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { Hub } from "../../src/watch/hub.js";
import { PaneProcess, type PaneProcessIds } from "../../src/watch/pane-process.js";
import { killAllServers, startServer, waitFor, type TestServer } from "./tmux-fixture.js";

const hubs: Hub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  await killAllServers();
});

/** A shell that ignores SIGHUP: it outlives `respawn-pane -k`, on the pty tmux hung up. */
const STUBBORN = `sh -c 'trap "" HUP; echo old-process; while :; do sleep 1; done'`;

async function idsOf(test: TestServer, target: string): Promise<PaneProcessIds> {
  const [line = ""] = await test.run(["display-message", "-p", "-t", target, "#{pid} #{pane_pid} #{pane_tty}"]);
  const [serverPid, panePid, paneTty = ""] = line.split(" ");
  return { serverPid: Number(serverPid), panePid: Number(panePid), paneTty };
}

describe.runIf(process.platform === "linux")("PaneProcess on a real tmux server", () => {
  it("vouches for a live pane, also after it printed and after another pane opened", async () => {
    const test = await startServer({ command: "sh", env: { PS1: "$ " } });
    const found = PaneProcess.find(await idsOf(test, "main"));
    expect(found?.same()).toBe(true);
    await test.run(["send-keys", "-t", "main", "-l", "echo hello\n"]);
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", "main"])).includes("hello"), 5000, "the echo");
    await test.run(["split-window", "-t", "main", "sleep 600"]);
    expect(found?.same()).toBe(true);
    found?.close();
  });

  it("stops vouching after respawn-pane -k even though the old process lives on", async () => {
    const test = await startServer({ command: STUBBORN });
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", "main"])).includes("old-process"), 5000, "first output");
    const ids = await idsOf(test, "main");
    const found = PaneProcess.find(ids);
    expect(found?.same()).toBe(true);
    await test.run(["respawn-pane", "-k", "-t", "main", "sleep 600"]);
    expect(existsSync(`/proc/${ids.panePid}`)).toBe(true);
    expect(found?.same()).toBe(false);
    expect(PaneProcess.find(await idsOf(test, "main"))?.same()).toBe(true);
  });

  it("stops vouching when the pane is killed, and when its process exits under remain-on-exit", async () => {
    const test = await startServer({ command: "sleep 600" });
    await test.run(["split-window", "-t", "main", "sleep 600"]);
    const [first = "", second = ""] = await test.run(["list-panes", "-t", "main", "-F", "#{pane_id}"]);
    const killed = PaneProcess.find(await idsOf(test, first));
    expect(killed?.same()).toBe(true);
    await test.run(["kill-pane", "-t", first]);
    expect(killed?.same()).toBe(false);
    await test.run(["set-option", "-t", second, "-p", "remain-on-exit", "on"]);
    const ids = await idsOf(test, second);
    const exited = PaneProcess.find(ids);
    expect(exited?.same()).toBe(true);
    process.kill(ids.panePid, "SIGTERM");
    await waitFor(async () => (await test.run(["display-message", "-p", "-t", second, "#{pane_dead}"]))[0] === "1", 5000, "the pane to die");
    expect(exited?.same()).toBe(false);
  });

  it("through the hub: a respawn during a wait whose old process ignores SIGHUP is answered as respawned", async () => {
    const test = await startServer({ command: STUBBORN });
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", "main"])).includes("old-process"), 5000, "first output");
    const [pane = ""] = await test.run(["display-message", "-p", "-t", "main", "#{pane_id}"]);
    const hub = new Hub({ server: test.server, key: randomBytes(32) });
    hubs.push(hub);
    const start = await hub.capture({ paneId: pane });
    const waiting = hub.capture({ cursor: start.cursor, waitMs: 20_000 });
    await test.run(["respawn-pane", "-k", "-t", pane, "clear; echo new-process; exec sleep 600"]);
    const delta = await waiting;
    expect(delta).toMatchObject({ missed: true, reason: "respawned", first: true });
    expect(delta.rows.map((r) => r.text)).not.toContain("old-process");
  });
});
