// A cursor names its tmux server's socket: one made for another server (another socket) is an
// error that says so, while a restart of the same server keeps answering "server-restarted".
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { closeAll, connect, isErrorText, type Capture } from "../../support/mcp-hub.js";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

describe("a cursor of another tmux server", () => {
  it("is a cursor-other-server error naming the way out, also for a pane id the other server has too", { timeout: 60_000 }, async () => {
    const key = randomBytes(32); // one user's key, two panescope processes, two tmux servers
    const a = await startServer({ command: "echo on-a; exec sleep 600" });
    const b = await startServer({ command: "echo on-b; exec sleep 600" });
    const onA = await connect(a.server, { key });
    const onB = await connect(b.server, { key });
    const fromA = await onA.capture({ paneId: "%0" });
    const answer = await onB.call("capture_since", { cursor: fromA.cursor });
    expect(isErrorText(answer)).toMatch(/cursor-other-server.*another tmux server.*omit `cursor`/s);
    // The cursor still works where it was made.
    const again: Capture = await onA.capture({ cursor: fromA.cursor });
    expect(again.missed ?? false).toBe(false);
  });
});
