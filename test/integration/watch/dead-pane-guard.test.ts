// tmux 3.2 crashes when a control client has output queued for a pane that died under
// remain-on-exit (fixed in 3.3). The trigger, repeated: panes that remain on exit, watched, whose
// programs print and exit, and a pane killed with kill-pane, all read. The server must survive on
// every version; on 3.2 such sessions are polled, elsewhere streamed.
import { afterEach, describe, expect, it } from "vitest";
import { RebuiltScreen, tmuxRows } from "../../support/rebuild.js";
import { closeAll, connect, type Capture } from "../../support/mcp-hub.js";
import { killAllServers, startServer, waitFor } from "../../support/tmux-fixture.js";


afterEach(async () => {
  await closeAll();
  await killAllServers();
});

const ROUNDS = 12;

describe("a watched pane that remains on exit dies", () => {
  it(`${ROUNDS} times, with kill-pane between: the tmux server survives and every end is seen`, { timeout: 120_000 }, async () => {
    const test = await startServer({ command: "sh" });
    const [serverPid] = await test.run(["display-message", "-p", "#{pid}"]);
    const crashes32 = (await test.server.version()).crashesOnDeadPaneOutput;
    const mcp = await connect(test.server);
    for (let round = 0; round < ROUNDS; round++) {
      // One tmux command list: remain-on-exit is set before the program can end, however loaded.
      const [pane = ""] = await test.server.runMany([
        ["new-window", "-d", "-t", "main:9", "-P", "-F", "#{pane_id}", `sleep 0.2; seq 1 300; echo round-${round}; exit 3`],
        ["set-option", "-w", "-t", "main:9", "remain-on-exit", "on"],
      ]);
      const first: Capture = await mcp.capture({ paneId: pane });
      expect(first.streaming).toBe(!crashes32);
      const seen = [first, ...(first.closed ? [] : await mcp.captureUntil(first, (d) => d.closed))];
      // tmux 3.3+ discards output it had not sent when a pane dies, so the last lines may be missing
      // from the stream (and tmux itself sometimes closes the pane before reading them): at rest
      // the audit of the dead pane's final screen makes ours equal tmux's.
      const rebuilt = new RebuiltScreen();
      for (const d of seen) rebuilt.apply(d);
      await waitFor(async () => {
        const next = await mcp.capture({ cursor: (seen.at(-1) ?? first).cursor });
        seen.push(next);
        rebuilt.apply(next);
        return JSON.stringify(rebuilt.rows()) === JSON.stringify(tmuxRows(await test.run(["capture-pane", "-p", "-t", pane])));
      }, 5000, "the dead pane's screen to equal tmux's");
      // tmux records the status of a pane that remains on exit when it sees the child exit, which
      // can be after it marked the pane dead, and tmux 3.3a sometimes never does: when an exit is
      // reported it is right (panes open_pane starts record their own: open-pane.test.ts).
      const last = seen.at(-1) ?? first;
      expect(last.closed).toBe(true);
      const exit = (await mcp.capture({ cursor: last.cursor })).exit;
      if (exit) expect(exit).toEqual({ status: 3 });
      // A plain pane read, then killed.
      const [other = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "seq 1 200; exec sleep 600"]);
      await mcp.capture({ paneId: other });
      await test.run(["kill-pane", "-t", other]);
      await test.run(["kill-pane", "-t", pane]);
    }
    // The same server, alive and answering.
    expect(await test.run(["display-message", "-p", "#{pid}"])).toEqual([serverPid]);
  });

  it("on 3.2 a streamed session whose pane turns remain-on-exit on is left and polled", { timeout: 60_000 }, async () => {
    const test = await startServer({ command: "sh", env: { PS1: "$ " } });
    if (!(await test.server.version()).crashesOnDeadPaneOutput) return;
    const [pane = ""] = await test.run(["display-message", "-p", "-t", "main", "#{pane_id}"]);
    const mcp = await connect(test.server);
    const first = await mcp.capture({ paneId: pane });
    expect(first.streaming).toBe(true);
    const [doomed = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "sleep 3; exit 0"]);
    await test.run(["set-option", "-w", "-t", doomed, "remain-on-exit", "on"]);
    const deltas = await mcp.captureUntil(first, (d) => !d.streaming, 20);
    expect(deltas.at(-1)).toMatchObject({ streaming: false, closed: false });
    // The doomed pane dies with no control client left to crash tmux; the server answers after.
    await waitFor(async () => (await test.run(["display-message", "-p", "-t", doomed, "#{pane_dead}"]))[0] === "1", 10_000, "the pane to die");
    expect(await test.run(["display-message", "-p", "ok"])).toEqual(["ok"]);
  });
});
