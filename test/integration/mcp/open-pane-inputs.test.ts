// open_pane's inputs reach tmux as data: a cwd with tmux format syntax is that directory, an env
// that would break the pane's start-up is refused, and a pane gone before the answer is not "opened".
import { mkdirSync, mkdtempSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { closeAll, connect, isErrorText } from "../../support/mcp-hub.js";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

const dirs = mkdtempSync(join(tmpdir(), "panescope-cwd-"));

afterEach(async () => {
  await closeAll();
  await killAllServers();
});
afterAll(() => rmSync(dirs, { recursive: true, force: true }));

describe("open_pane inputs", () => {
  it("a cwd containing #{…}, #(…) or ## starts the pane in exactly that directory", { timeout: 60_000 }, async () => {
    const test = await startServer();
    const mcp = await connect(test.server);
    for (const name of ["at#{pane_id}", "run#(touch ran)", "two##hashes", "lone#"]) {
      const cwd = join(dirs, name);
      mkdirSync(cwd);
      const opened = await mcp.call("open_pane", { command: "sleep 600", session: "work", cwd });
      expect(isErrorText(opened), name).toBeUndefined();
      const { pid } = opened.structuredContent as { pid: number };
      expect(readlinkSync(`/proc/${pid}/cwd`), name).toBe(cwd);
    }
  });

  it("an env that sets TMUX or TMUX_PANE is refused, naming them, and opens nothing", { timeout: 60_000 }, async () => {
    const test = await startServer();
    const mcp = await connect(test.server);
    const before = await test.run(["list-panes", "-a", "-F", "#{pane_id}"]);
    const refused = await mcp.call("open_pane", { command: "sleep 600", env: { TMUX: "/tmp/elsewhere,1,0", TMUX_PANE: "%9" } });
    expect(isErrorText(refused)).toMatch(/bad-input.*TMUX or TMUX_PANE/s);
    expect(await test.run(["list-panes", "-a", "-F", "#{pane_id}"])).toEqual(before);
  });

  it("a pane that is gone before open_pane answers is an error, not 'opened'", { timeout: 60_000 }, async () => {
    const test = await startServer();
    // A hook kills every new window's pane right after tmux reported it (3.2a–3.7c).
    await test.run(["set-hook", "-g", "after-new-window", "kill-pane"]);
    const mcp = await connect(test.server);
    const gone = await mcp.call("open_pane", { command: "sleep 600", session: test.session });
    expect(isErrorText(gone)).toMatch(/command-failed.*already gone/s);
  });
});
