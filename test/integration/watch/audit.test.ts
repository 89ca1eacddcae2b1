// tmux is the ground truth, the emulator its replica: where they draw the same bytes differently,
// the audit at rest takes tmux's rows and says so (healed), so that the screen a reader rebuilds
// from the answers equals tmux's. Measured on tmux 3.3a: each case below draws differently.
import { afterEach, describe, expect, it } from "vitest";
import { RebuiltScreen, tmuxRows } from "../../support/rebuild.js";
import { closeAll, connect, type Capture } from "../../support/mcp-hub.js";
import { killAllServers, promptShown, startServer, waitFor } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

// printf format strings (\033 is ESC), drawn after the watch started.
const DISAGREEMENTS: Record<string, string> = {
  "erasing half of a wide character (tmux keeps the other half)": "中文中文\\r\\033[1C\\033[X",
  "deleting half of a wide character": "中文中文\\r\\033[1C\\033[P",
  "DECCOLM (tmux clears the screen and homes the cursor; xterm without window options does nothing)": "abc\\033[?3hX",
  "DECSET 1048, save and restore the cursor (tmux ignores it)": "abc\\033[?1048h\\033[5Gxyz\\033[?1048lQ",
};

describe("the replica audit", () => {
  for (const [name, format] of Object.entries(DISAGREEMENTS)) {
    it(`${name}: at rest the rebuilt screen equals tmux's`, { timeout: 60_000 }, async () => {
      const test = await startServer({ cols: 40, rows: 6, command: "sh" });
      const mcp = await connect(test.server);
      const [pane = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "sh"]);
      const rebuilt = new RebuiltScreen();
      let delta: Capture = await mcp.capture({ paneId: pane });
      rebuilt.apply(delta);
      await test.run(["send-keys", "-t", pane, "-l", `clear; printf '${format}'; exec sleep 600\n`]);
      const healed: number[] = [];
      await waitFor(async () => {
        delta = await mcp.capture({ cursor: delta.cursor, waitMs: 500 });
        rebuilt.apply(delta);
        healed.push(...(delta.healed ?? []));
        const tmux = tmuxRows(await test.run(["capture-pane", "-p", "-t", pane]));
        return healed.length > 0 && JSON.stringify(rebuilt.rows()) === JSON.stringify(tmux);
      }, 15_000, "a heal, then the rebuilt screen equal to tmux's");
      const listed = await mcp.call("list_panes");
      const heals = (listed.structuredContent as { panes: { paneId: string; healed?: number }[] }).panes.find((p) => p.paneId === pane)?.healed;
      expect(heals).toBeGreaterThan(0);
      // The text a model reads says it too, on the pane's line.
      const text = (listed.content as { text: string }[]).map((c) => c.text).join("\n");
      expect(text.split("\n").find((line) => line.startsWith(`${pane} `))).toContain(`healed ${heals}`);
    });
  }
});

describe("a wait that ends on quiet", () => {
  it("answers tmux's rows, healed, not the replica's until the next audit", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 6, command: "sh" });
    // Audits at rest are at most one an hour here: after the first, only the wait's own can heal.
    const mcp = await connect(test.server, { auditIntervalMs: 3_600_000 });
    const [pane = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "sh"]);
    await promptShown(test, pane);
    const rebuilt = new RebuiltScreen();
    const delta: Capture = await mcp.capture({ paneId: pane });
    rebuilt.apply(delta);
    await test.run(["send-keys", "-t", pane, "-l", "clear\n"]);
    await waitFor(() => (mcp.hub.auditStats(pane)?.audits ?? 0) > 0, undefined, "the first audit at rest");
    const answer = await mcp.call("send_keys", { paneId: pane, cursor: delta.cursor, text: `printf '${DISAGREEMENTS["DECSET 1048, save and restore the cursor (tmux ignores it)"]}'`, enter: true, wait: { quietMs: 300 } });
    const data = answer.structuredContent as { outcome: string; delta: Capture };
    expect(data.outcome).toBe("quiet");
    rebuilt.apply(data.delta);
    expect(rebuilt.rows()).toEqual(tmuxRows(await test.run(["capture-pane", "-p", "-t", pane])));
    expect(data.delta.healed?.length).toBeGreaterThan(0);
  });
});
