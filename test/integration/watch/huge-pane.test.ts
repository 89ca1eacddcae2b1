// A program can make its window huge (`tmux resize-window -x 10000 -y 10000`): panescope emulates at
// most MAX_EMULATED_COLS × MAX_EMULATED_ROWS of it, says so in every answer, and keeps answering.
import { afterEach, describe, expect, it } from "vitest";
import { MAX_EMULATED_COLS, MAX_EMULATED_ROWS } from "../../../src/observe/geometry.js";
import { closeAll, connect, isErrorText, texts, type Capture } from "../../support/mcp-hub.js";
import { textOf } from "../../support/mcp-link.js";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

describe("a pane resized beyond what panescope emulates", () => {
  it("is emulated at the cap, flagged with its real size in the screen and the text, and keeps answering", { timeout: 60_000 }, async () => {
    const test = await startServer({ command: "cat" });
    const mcp = await connect(test.server);
    const start = await mcp.capture({ paneId: "%0" });
    expect(start.screen.capped).toBeUndefined();

    await test.run(["resize-window", "-t", "%0", "-x", "10000", "-y", "10000"]);
    const [capped] = (await mcp.captureUntil(start, (d) => d.screen.capped !== undefined)).slice(-1) as [Capture];
    expect(capped.screen).toMatchObject({ cols: MAX_EMULATED_COLS, rows: MAX_EMULATED_ROWS, capped: { cols: 10000, rows: 10000 } });

    // Other calls are answered meanwhile, and the pane's output still arrives.
    expect(isErrorText(await mcp.call("list_panes"))).toBeUndefined();
    await mcp.call("send_keys", { paneId: "%0", text: "still-here", enter: true });
    const typed = await mcp.captureUntil(capped, (d) => texts(d).includes("still-here"));
    const last = typed[typed.length - 1] as Capture;
    expect(last.screen.capped).toEqual({ cols: 10000, rows: 10000 });
    const text = textOf(await mcp.call("capture_since", { cursor: capped.cursor }));
    expect(text).toMatch(/screen capped: the pane is 10000x10000, panescope shows its first 1000x1000/);

    // Back within the cap: no flag.
    await test.run(["resize-window", "-t", "%0", "-x", "80", "-y", "24"]);
    const [back] = (await mcp.captureUntil(last, (d) => d.screen.capped === undefined)).slice(-1) as [Capture];
    expect(back.screen).toMatchObject({ cols: 80, rows: 24 });
  });
});
