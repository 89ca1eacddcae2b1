// capture-pane text on every tmux version: raw (never escaped like command output), with tmux
// 3.6+'s tabs expanded before it is compared with panescope's rendering.
import { describe, expect, it } from "vitest";
import { crossCheck } from "../../../src/golden/run.js";
import { startPaneSession } from "../../../src/golden/session.js";

describe("capture-pane", () => {
  it("tabs and backslashes in a capture compare equal to the rendered rows (3.6+ keeps the tabs)", async () => {
    const session = await startPaneSession({ size: { cols: 40, rows: 4 }, command: ["sh", "-c", "printf 'a\\tb\\\\037\\t中\\tc\\n'; exec sleep 60"] });
    try {
      await session.waitFor({ kind: "text", text: "c" }, 5000);
      const raw = await session.server.run(["capture-pane", "-p", "-t", session.paneId]);
      const keepsTabs = (await session.server.version()).captureKeepsTabs;
      expect(raw[0]).toBe(keepsTabs ? "a\tb\\037\t中\tc" : "a       b\\037   中      c");
      const view = await session.captureTmux();
      expect(view.lines[0]).toBe("a       b\\037   中      c");
      expect(crossCheck(await session.snapshot(), view)).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
