// `clear`, `tput clear`, `reset` and `printf '\033c'` in a shell with history: every row a reader saw
// that changed is reported, line numbers never go backwards, and the screen rebuilt from the
// answers equals tmux's.
import { afterEach, describe, expect, it } from "vitest";
import { RebuiltScreen, tmuxRows } from "../../support/rebuild.js";
import { closeAll, connect, paneIn, texts, type Capture } from "../../support/mcp-hub.js";
import { killAllServers, startServer, waitFor } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

const CLEARS = ["clear", "tput clear", "reset", "printf '\\033c'"];

describe("clearing the screen", () => {
  for (const command of CLEARS) {
    it(`${command}: the rebuilt screen equals tmux's and line numbers never go back`, { timeout: 60_000 }, async () => {
      const test = await startServer({ cols: 60, rows: 12, command: "sh", env: { PS1: "$ ", TERM: "xterm-256color" } });
      const pane = await paneIn(test, "main");
      const mcp = await connect(test.server);
      const rebuilt = new RebuiltScreen();
      const read = async (delta: Capture): Promise<Capture> => {
        rebuilt.apply(delta);
        return delta;
      };
      let delta = await read(await mcp.capture({ paneId: pane }));
      await test.run(["send-keys", "-t", pane, "-l", "seq 1 40; echo history-done\n"]);
      for (const d of await mcp.captureUntil(delta, (x) => texts(x).includes("history-done"))) delta = await read(d);
      const topBefore = delta.screen.top;
      await test.run(["send-keys", "-t", pane, "-l", `${command}; echo cleared\n`]);
      for (const d of await mcp.captureUntil(delta, (x) => texts(x).includes("cleared"))) {
        expect(d.screen.top).toBeGreaterThanOrEqual(topBefore);
        expect(d.first).toBe(false);
        delta = await read(d);
      }
      // At rest the reader's screen is tmux's screen.
      await waitFor(async () => {
        const next = await mcp.capture({ cursor: delta.cursor });
        delta = await read(next);
        const tmux = tmuxRows(await test.run(["capture-pane", "-p", "-t", pane]));
        return JSON.stringify(rebuilt.rows()) === JSON.stringify(tmux);
      }, 10_000, "the rebuilt screen to equal tmux's");
    });
  }
});
