// Cursors from anywhere, through the hub's capture on a real pane: random, truncated, bit-flipped,
// another instance's, another pane's. Each is a typed error or an honest answer, never a wrong delta.
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPanescopeError } from "../../../src/errors.js";
import type { Delta } from "../../../src/observe/delta.js";
import { Hub } from "../../../src/watch/hub.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const CURSOR_ERRORS = ["cursor-malformed", "cursor-tampered", "cursor-other-pane"];
let test: TestServer;
let hub: Hub;
let other: Hub;
let panes: string[];
let genuine: Delta;
const key = randomBytes(32);

beforeAll(async () => {
  test = await startServer({ cols: 40, rows: 6, command: "echo one; exec sleep 600" });
  const [second = ""] = await test.run(["split-window", "-t", "main", "-P", "-F", "#{pane_id}", "echo two; exec sleep 600"]);
  const [first = ""] = await test.run(["display-message", "-p", "-t", "main.0", "#{pane_id}"]);
  panes = [first, second];
  await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", second])).includes("two"), 5000, "output");
  hub = new Hub({ server: test.server, key, instance: randomBytes(8) });
  other = new Hub({ server: test.server, key, instance: randomBytes(8) });
  genuine = await hub.capture({ paneId: first });
});

afterAll(async () => {
  await hub.close();
  await other.close();
  await killAllServers();
});

/** A cursor capture either refuses with a cursor error or answers; returns which. */
async function outcome(cursor: string, paneId?: string): Promise<{ error?: string; delta?: Delta }> {
  try {
    return { delta: await hub.capture({ cursor, ...(paneId ? { paneId } : {}) }) };
  } catch (error) {
    if (!isPanescopeError(error)) throw error;
    return { error: error.kind };
  }
}

describe("cursors through the hub", () => {
  it("random strings and truncated or bit-flipped genuine cursors are cursor errors, never deltas (seeded)", async () => {
    const token = genuine.cursor;
    const mutated = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.nat({ max: token.length - 1 }).map((n) => token.slice(0, n)),
      fc.tuple(fc.nat({ max: token.length - 1 }), fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")).map(([i, c]) => token.slice(0, i) + c + token.slice(i + 1)),
      fc.tuple(fc.nat({ max: token.length * 6 - 1 })).map(([bit]) => {
        const bytes = Buffer.from(token, "base64url");
        const at = Math.floor(bit / 8) % bytes.length;
        bytes[at] = (bytes[at] ?? 0) ^ (1 << bit % 8);
        return bytes.toString("base64url");
      }),
    );
    await fc.assert(
      fc.asyncProperty(mutated, async (cursor) => {
        const result = await outcome(cursor);
        if (cursor === token) expect(result.delta?.first).toBe(false);
        else expect(CURSOR_ERRORS).toContain(result.error);
      }),
      { seed: 0xc0ffee, numRuns: 400 },
    );
  });

  it("another instance's genuine cursor is missed, restarted, with the whole screen", async () => {
    const foreign = await other.capture({ paneId: panes[0] });
    const result = await outcome(foreign.cursor);
    expect(result.delta).toMatchObject({ missed: true, reason: "restarted", first: true });
    expect(result.delta?.rows.map((r) => r.text)).toContain("one");
  });

  it("another pane's cursor is answered for that pane, or refused when a different paneId is named", async () => {
    const second = await hub.capture({ paneId: panes[1] });
    expect((await outcome(second.cursor)).delta).toMatchObject({ paneId: panes[1], first: false, missed: false });
    expect((await outcome(second.cursor, panes[0])).error).toBe("cursor-other-pane");
    // Through the observer directly (as a face might call it), the same refusal.
    const observer = await hub.observer(panes[0] ?? "");
    await expect(observer.read(second.cursor)).rejects.toMatchObject({ kind: "cursor-other-pane" });
  });
});
