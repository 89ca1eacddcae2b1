// Big histories: the replica keeps a bounded scrollback and seeds only that much from tmux; asking
// capture_pane for more history than it keeps reads the rest from tmux instead of cutting silently.
import { afterEach, describe, expect, it } from "vitest";
import { closeAll, connect } from "../../support/mcp-hub.js";
import { killAllServers, startServer, waitFor } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

describe("history", () => {
  it("capture_pane returns the history asked for, beyond what the replica keeps", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 10, command: "sh" });
    await test.run(["set-option", "-g", "history-limit", "20000"]);
    const [pane = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "seq 1 12000; exec sleep 600"]);
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", pane])).includes("12000"), 10_000, "the output");
    // A replica keeping 200 lines of scrollback.
    const mcp = await connect(test.server, { scrollback: 200 });
    const result = await mcp.call("capture_pane", { paneId: pane, history: 5000 });
    const shown = result.structuredContent as { history: string[]; rows: string[] };
    expect(shown.history).toHaveLength(5000);
    // The lines right above the screen, oldest first: the screen shows 12000 on its second-to-last
    // row (the last is blank below it), so 9 lines of output are on screen.
    expect(shown.history.at(-1)).toBe("11991");
    expect(shown.history[0]).toBe("6992");
    expect(shown.rows.at(-2)).toBe("12000");
  });
});
