// Twenty panes flooding at once (a short soak for CI; bench/ runs the long one): memory stays
// bounded, every read is answered, and panescope keeps working afterwards.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_SCREEN_BACKLOG } from "../../../src/observe/pane/observer.js";
import { retainedBytes } from "../../support/heap.js";
import { closeAll, connect, texts, type Capture } from "../../support/mcp-hub.js";
import { killAllServers, startServer, waitFor } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

const PANES = 20;
const SOAK_MS = Number(process.env.PANESCOPE_SOAK_MS ?? 5000);
// The floods stop on their own: respawn-pane -k of a flooding pane kills tmux's server when a
// control client is behind on it (3.2a–3.7c, tmux alone reproduces it: docs/faults.md), so the
// test does not stop them from outside. They start together once every pane is watched (a
// newline each), so the reads overlap them on any machine, however slow.
const FLOOD_S = Math.ceil(SOAK_MS / 1000) + 2;

describe("20 panes flooding at once", () => {
  it(`memory bounded, reads answered, nothing crashes (${FLOOD_S} s floods)`, async () => {
    const test = await startServer({ cols: 80, rows: 24, command: "sh" });
    const panes: string[] = [];
    for (let i = 0; i < PANES; i++) {
      const [pane = ""] = await test.run(["new-window", "-d", "-t", "main", "-P", "-F", "#{pane_id}", `stty -echo; read go; timeout ${FLOOD_S} yes "pane ${i} $(printf '%080d' 0)"; echo calm-${i}; exec sleep 600`]);
      panes.push(pane);
    }
    const mcp = await connect(test.server, { ringBytes: 256 * 1024, scrollback: 200 });
    const cursors = new Map<string, string>();
    for (const pane of panes) cursors.set(pane, (await mcp.capture({ paneId: pane, maxBytes: 4096 })).cursor);
    for (const pane of panes) await test.run(["send-keys", "-t", pane, "Enter"]);
    const heldBefore = retainedBytes();
    // Read every pane, round after round, from the floods' start until each has shown that its flood
    // ended: every read is answered, during the floods and after.
    const calm = new Set<string>();
    while (calm.size < PANES) {
      await Promise.all(
        panes.map(async (pane, i) => {
          const delta: Capture = await mcp.capture({ cursor: cursors.get(pane), maxBytes: 4096, maxLines: 50 });
          expect(delta.closed).toBe(false);
          cursors.set(pane, delta.cursor);
          if (texts(delta).some((t) => t.endsWith(`calm-${i}`))) calm.add(pane);
        }),
      );
      // Reads answer from memory, without I/O: a turn of the event loop between rounds lets tmux's
      // output in (back-to-back rounds would starve it, and the floods' ends would never arrive).
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Every emulator has drained (its rows show the marker), so what stays is 20 × (256 KiB ring + a
    // 200-line 80-column emulator ≈ 0.3 MiB), about 11 MiB (12 MiB held, 2026-12-04); the floods
    // pushed hundreds of MiB through.
    expect(retainedBytes() - heldBefore).toBeLessThan(32 * 1024 * 1024);
    // The floods ended (killed mid-line, so the marker follows a partial line); every pane is
    // still readable from scratch and shows it.
    for (const [i, pane] of panes.entries()) {
      await waitFor(async () => {
        const delta = await mcp.capture({ paneId: pane, maxBytes: 4096 });
        return texts(delta).some((t) => t.endsWith(`calm-${i}`));
      }, 10_000, `pane ${i} to show its marker`);
    }
    expect(mcp.hub.watching.filter((w) => w.streaming)).toHaveLength(PANES);
  }, 120_000);
});

/** What a read and tmux say of a pane, for a failure's message. */
async function endState(test: { run(args: string[]): Promise<string[]> }, pane: string, delta: Capture, pending: number): Promise<string> {
  const tmux = await test.run(["capture-pane", "-p", "-t", pane]).then((rows) => rows.filter((row) => row.trim() !== "").slice(-4), (error: unknown) => [String(error)]);
  const shown = { rows: delta.rows.slice(-4), screen: delta.screen, missed: delta.missed, reason: delta.reason, raw: delta.raw.slice(-200) };
  return `the last answer ${JSON.stringify(shown)}; the emulator's backlog ${pending} B; tmux shows ${JSON.stringify(tmux)}`;
}

describe("binary output", () => {
  it("logs nothing, keeps the emulator within its bound, and reads keep answering", { timeout: 90_000 }, async () => {
    const test = await startServer({ cols: 80, rows: 24, command: "sh" });
    // Random bytes can leave a parser inside a DCS string (tmux's, xterm's), where ESC c is data and
    // only ST ends it: CAN, then ST twice (the first may be eaten after a stray ESC), then the reset.
    const [pane = ""] = await test.run(["new-window", "-d", "-t", "main", "-P", "-F", "#{pane_id}", "sleep 0.3; head -c 12000000 /dev/urandom; printf '\\030\\033\\\\\\033\\\\\\033c'; echo binary-done; exec sleep 600"]);
    // xterm logs each parse error through console.* at its default level (564 MB of stderr a minute).
    const logged: unknown[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((name) => vi.spyOn(console, name).mockImplementation((...args) => void logged.push(args)));
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (logged.push(chunk), true));
    try {
      const mcp = await connect(test.server);
      const observer = await mcp.hub.observer(pane);
      let delta: Capture = await mcp.capture({ paneId: pane, maxBytes: 4096 });
      let mostPending = 0;
      // Reads keep answering: each returns, and they go on until the pane shows the end. Once in
      // CI (system tmux, 2026-12-02) the end never came within the test's time: a deadline inside
      // it says what the replica and tmux held, should that happen again.
      const deadline = Date.now() + 75_000;
      while (!texts(delta).includes("binary-done")) {
        if (Date.now() > deadline) throw new Error(`no row "binary-done" after 75 s: ${await endState(test, pane, delta, observer.pending)}`);
        delta = await mcp.capture({ cursor: delta.cursor, maxBytes: 4096, waitMs: 1000 });
        mostPending = Math.max(mostPending, observer.pending);
      }
      expect(mostPending).toBeLessThanOrEqual(MAX_SCREEN_BACKLOG);
    } finally {
      for (const spy of spies) spy.mockRestore();
      stderr.mockRestore();
    }
    expect(logged).toEqual([]);
  });
});
