// Many agents on one panescope: 10 MCP clients × 10 panes of waits, reads and send_keys at once, on
// one hub and one private tmux server. Every answer must be right, an unrelated call made meanwhile
// is answered while the storm still runs, and no wait spins (waits used to wake each other without
// yielding). How long that call takes during the storm is bench figure 7 (bench/agents.ts).
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { Hub } from "../../../src/watch/hub.js";
import { link, textOf, type Linked } from "../../support/mcp-link.js";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

const CLIENTS = 10;
const PANES = 10;

const linked: Linked[] = [];
afterEach(async () => {
  await Promise.all(linked.splice(0).map((l) => l.close()));
  await killAllServers();
});

interface Delta {
  cursor: string;
  rows: { text: string }[];
  raw: string;
}

describe("concurrent agents", () => {
  it("10 clients × 10 panes of waits, reads and keys: every answer right, unrelated calls answered meanwhile", { timeout: 120_000 }, async () => {
    // Wide panes: ten agents typing into one pane at once may interleave on one line; it must not wrap.
    const t = await startServer({ cols: 250, rows: 40 });
    const panes: string[] = [];
    for (let i = 0; i < PANES; i++) {
      const [pane = ""] = await t.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "cat"]);
      panes.push(pane);
    }
    const hub = new Hub({ server: t.server, key: randomBytes(32) });
    for (let i = 0; i <= CLIENTS; i++) linked.push(await link(t.server, { hub }));
    const [watchdog, ...clients] = linked as [Linked, ...Linked[]];

    // The unrelated caller: list_panes every 50 ms for as long as the storm lasts, counting the
    // answers that came while the storm was still running.
    let storming = true;
    let answeredDuringStorm = 0;
    const watching = (async () => {
      while (storming) {
        const result = await watchdog.call("list_panes");
        expect(result.isError).toBeFalsy();
        if (storming) answeredDuringStorm++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const agent = async (client: Linked, c: number, pane: string): Promise<void> => {
      const token = `t${c}p${pane.slice(1)}x${randomBytes(2).toString("hex")}`;
      const first = (await client.call("capture_since", { paneId: pane })).structuredContent as unknown as Delta;
      const matched = client.call("wait_for", { paneId: pane, pattern: token, timeoutMs: 60_000 });
      const waited = client.call("capture_since", { cursor: first.cursor, waitMs: 60_000 });
      const sent = await client.call("send_keys", { paneId: pane, text: token, enter: true });
      expect(sent.isError, textOf(sent)).toBeFalsy();
      // The wait ends on the first change (maybe another agent's line); reading on finds ours.
      let delta = (await waited).structuredContent as unknown as Delta;
      for (let reads = 0; !delta.raw.includes(token) && reads < 100; reads++) {
        delta = (await client.call("capture_since", { cursor: delta.cursor, waitMs: 60_000 })).structuredContent as unknown as Delta;
      }
      expect(delta.raw).toContain(token);
      const found = (await matched).structuredContent as { outcome: string; match?: string };
      expect(found).toMatchObject({ outcome: "matched", match: token });
    };
    await Promise.all(clients.flatMap((client, c) => panes.map((pane) => agent(client, c, pane))));
    storming = false;
    await watching;

    // Answered while the storm ran, not held until it was over.
    expect(answeredDuringStorm).toBeGreaterThan(0);
    // No wait spun: a look that finds nothing new is not news, so a pane's render sequence number
    // moves only with output and never passes the bytes the pane sent (spinning waits bumped it
    // on every look: 100% CPU, such calls held for up to 30 s, a storm of 37 s instead of 4–6 s).
    for (const pane of panes) {
      const observer = await hub.observer(pane);
      expect(observer.sequence, `pane ${pane}: ${observer.sequence} renders for ${observer.offset} bytes`).toBeLessThanOrEqual(observer.offset);
    }
  });
});
