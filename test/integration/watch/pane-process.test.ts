// The /proc look at a pane's process on a real tmux server: it vouches for a live pane, and stops
// for good on each way the pane can stop being the watched process's — including a respawn whose
// old process ignores SIGHUP and lives on (through the hub: liveness.test.ts).
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { PaneProcess, type PaneProcessIds } from "../../../src/watch/confirm/pane-process.js";
import { IGNORES_HUP, killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

afterEach(killAllServers);

async function idsOf(test: TestServer, target: string): Promise<PaneProcessIds> {
  const [line = ""] = await test.run(["display-message", "-p", "-t", target, "#{pid} #{pane_pid} #{pane_tty}"]);
  const [serverPid, panePid, paneTty = ""] = line.split(" ");
  return { serverPid: Number(serverPid), panePid: Number(panePid), paneTty };
}

/**
 * The pane's process found in /proc, once it holds its terminal: tmux's child takes the pty as its
 * controlling terminal after the fork, which a loaded machine may not have run yet (3.3a, 3.6a, CI).
 */
async function found(test: TestServer, target: string): Promise<PaneProcess> {
  let pane: PaneProcess | undefined;
  await waitFor(async () => (pane = PaneProcess.find(await idsOf(test, target))) !== undefined, 20_000, `${target}'s process on its terminal`);
  return pane as PaneProcess;
}

describe.runIf(process.platform === "linux")("PaneProcess on a real tmux server", () => {
  it("vouches for a live pane, also after it printed and after another pane opened", async () => {
    const test = await startServer({ command: "sh", env: { PS1: "$ " } });
    const live = await found(test, "main");
    expect(live.same()).toBe(true);
    await test.run(["send-keys", "-t", "main", "-l", "echo hello\n"]);
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", "main"])).includes("hello"), 5000, "the echo");
    await test.run(["split-window", "-t", "main", "sleep 600"]);
    expect(live.same()).toBe(true);
    live.close();
  });

  it("stops vouching after respawn-pane -k even though the old process lives on", async () => {
    const test = await startServer({ command: IGNORES_HUP });
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", "main"])).includes("old-process"), 5000, "first output");
    const ids = await idsOf(test, "main");
    try {
      // It printed, so it runs on its terminal: found at once.
      const old = PaneProcess.find(ids);
      expect(old?.same()).toBe(true);
      await test.run(["respawn-pane", "-k", "-t", "main", "sleep 600"]);
      expect(existsSync(`/proc/${ids.panePid}`)).toBe(true);
      expect(old?.same()).toBe(false);
      const renewed = await found(test, "main");
      expect(renewed.same()).toBe(true);
      renewed.close();
    } finally {
      process.kill(ids.panePid, "SIGKILL");
    }
  });

  it("stops vouching when the pane is killed, and when its process exits under remain-on-exit", async () => {
    const test = await startServer({ command: "sleep 600" });
    await test.run(["split-window", "-t", "main", "sleep 600"]);
    const [first = "", second = ""] = await test.run(["list-panes", "-t", "main", "-F", "#{pane_id}"]);
    const killed = await found(test, first);
    expect(killed.same()).toBe(true);
    await test.run(["kill-pane", "-t", first]);
    expect(killed.same()).toBe(false);
    await test.run(["set-option", "-t", second, "-p", "remain-on-exit", "on"]);
    const exited = await found(test, second);
    expect(exited.same()).toBe(true);
    process.kill((await idsOf(test, second)).panePid, "SIGTERM");
    await waitFor(async () => (await test.run(["display-message", "-p", "-t", second, "#{pane_dead}"]))[0] === "1", 5000, "the pane to die");
    expect(exited.same()).toBe(false);
  });
});
