// A pane resized while the alternate screen shows (a resized vim): tmux and xterm reflow the normal
// screen behind it differently (tmux 3.2a–3.7c push a wrapped line above the cursor one row further
// into history), and the resize's own audit saw only the alternate screen. Leaving it, the replica
// must be healed and flagged at the first rest, not once the audit interval has passed (a reader
// 700 ms after `:qa!` read a screen one row off, unflagged: tmux 3.7c). The hub's interval is an
// hour here, so the heal comes from the first rest or not at all: no latency is measured.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { Hub } from "../../../src/watch/hub.js";
import { RebuiltScreen, tmuxRows } from "../../support/rebuild.js";
import { killAllServers, startServer, waitFor } from "../../support/tmux-fixture.js";

const hubs: Hub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  await killAllServers();
});

// 59 characters after a 2-character prompt: one row at 80 columns, two at 60 (\047 is the quote).
const ALTERNATE = "printf '\\033[?1049h'; read x; printf '\\033[?1049l' # ";
const LINE = ALTERNATE + "a".repeat(59 - ALTERNATE.length);

describe("a resize under the alternate screen", () => {
  it("is healed and flagged at the first rest back on the normal screen", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 80, rows: 20, command: "sh", env: { PS1: "$ " } });
    const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
    const hub = new Hub({ server: test.server, key: randomBytes(32), warn: () => undefined, auditIntervalMs: 3_600_000 });
    hubs.push(hub);
    const rebuilt = new RebuiltScreen();
    let delta = await hub.capture({ paneId: pane });
    rebuilt.apply(delta);
    const observer = await hub.observer(pane);
    const audits = (): number => hub.auditStats(pane)?.audits ?? 0;

    await test.run(["send-keys", "-t", pane, "-l", `${LINE}\n`]);
    // In the alternate screen and audited there (the first audit does not wait for an interval).
    await waitFor(async () => observer.alternate && (await observer.screenText()).screen.alternate && audits() > 0, undefined, "the alternate screen, audited");

    // The resize's audit, at once (a resize does not wait for the interval), saw the alternate screen only.
    const beforeResize = audits();
    await test.run(["resize-window", "-t", `${test.session}:`, "-x", "60", "-y", "15"]);
    await waitFor(() => observer.size.cols === 60 && audits() > beforeResize, undefined, "the resize's audit");
    // Nothing to heal there: else the heal's check at the next rest would audit the normal screen anyway.
    expect(hub.auditStats(pane)?.heals ?? 0).toBe(0);

    // Leaving the alternate screen: the first rest back on the normal screen is audited, and heals.
    await test.run(["send-keys", "-t", pane, "Enter"]);
    await waitFor(() => (hub.auditStats(pane)?.heals ?? 0) > 0, undefined, "a heal back on the normal screen");

    const healed: number[] = [];
    let tmux: string[] = [];
    await waitFor(async () => {
      delta = await hub.capture({ cursor: delta.cursor });
      rebuilt.apply(delta);
      healed.push(...(delta.healed ?? []));
      tmux = tmuxRows(await test.run(["capture-pane", "-p", "-t", pane]));
      return !delta.screen.alternate && JSON.stringify(rebuilt.rows()) === JSON.stringify(tmux);
    }, undefined, "the rebuilt screen equal to tmux's");
    expect(rebuilt.rows()).toEqual(tmux);
    expect(healed.length).toBeGreaterThan(0);
    const cursor = (await test.run(["display-message", "-p", "-t", pane, "#{cursor_x},#{cursor_y}"]))[0];
    expect(`${delta.screen.cursorX},${delta.screen.cursorY}`).toBe(cursor);
  });
});
