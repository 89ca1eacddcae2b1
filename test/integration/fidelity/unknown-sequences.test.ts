// Sequences tmux's parser does not know (CHT, HPR, VPR, DECSTR, selective erase, column scrolls;
// observe/emulator/unknown-to-tmux.ts), what tmux's passthrough carries and a window name (passthrough.ts), draw
// nothing in tmux, and nothing in the replica: its screen
// equals tmux's without a heal, on every version. And a line deleted on a pane with no history yet
// keeps every line's number: no scroll, no `missed` (xterm counted it as a trimmed line).
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { Hub } from "../../../src/watch/hub.js";
import { killAllServers, startServer, waitFor } from "../../support/tmux-fixture.js";

const hubs: Hub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  await killAllServers();
});

// printf format: a tab forward, HPR and VPR between moves tmux knows; DECSTR with origin mode and
// a region set; selective erase; SL, SR, DECIC and DECDC (\047 is the quote); a tmux passthrough.
const UNKNOWN = [
  "abcdefghij\\r\\033[2I1\\033[3Z2\\033[2aD\\033[1eE",
  "\\033[3;5r\\033[?6h\\033[!p\\033[1;1HO\\033[?6l\\033[r",
  "\\033[6;1Hprot\\033[?2J\\033[?2K",
  "\\033[2;1Hcolumns\\033[2;3H\\033[1 @\\033[1 A\\033[1\\047}\\033[1\\047~",
  // tmux's passthrough, a cursor move inside (ESC doubled): for the terminal outside, never drawn;
  // then screen's window name (ESC k), which tmux reads and never draws.
  "\\033[5;1Hpass\\033Ptmux;\\033\\033[1;1H\\033\\\\thru\\033kwin\\033\\\\!",
].join("");

describe("sequences tmux does not know", () => {
  it("draw in the replica as in tmux: equal screens at rest, no heal", { timeout: 60_000 }, async () => {
    // The pane prints once, all at once, after Enter: one audit at rest follows, and heals if they differ.
    const test = await startServer({ cols: 40, rows: 6, command: `read x; printf '${UNKNOWN}'; exec sleep 600` });
    const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
    const hub = new Hub({ server: test.server, key: randomBytes(32), warn: () => undefined });
    hubs.push(hub);
    const first = await hub.capture({ paneId: pane });
    const observer = await hub.observer(pane);
    const before = hub.auditStats(pane)?.audits ?? 0;
    await test.run(["send-keys", "-t", pane, "Enter"]);
    let tmux = "";
    let ours = "";
    await waitFor(async () => {
      // One tmux invocation, so the rows and the cursor are of the same moment.
      const [cursor = "", ...rows] = await test.server.runMany([
        ["display-message", "-p", "-t", pane, "#{cursor_x},#{cursor_y}"],
        ["capture-pane", "-p", "-t", pane],
      ]);
      const shown = await observer.screenText();
      tmux = JSON.stringify({ rows: rows.map((row) => row.trimEnd()), cursor });
      ours = JSON.stringify({ rows: shown.rows, cursor: `${shown.screen.cursorX},${shown.screen.cursorY}` });
      return tmux === ours && tmux.includes("O") && (hub.auditStats(pane)?.audits ?? 0) > before;
    }, 20_000, "the replica equal to tmux, and audited").catch(() => undefined);
    expect(ours).toContain("O");
    expect(ours).toBe(tmux);
    expect(hub.auditStats(pane)?.heals).toBe(0);
    const delta = await hub.capture({ cursor: first.cursor });
    expect(delta.healed).toBeUndefined();
  });

  it("a line deleted on a screen with no history yet moves no line number and misses nothing", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 6, command: "printf 'a1\\na2\\na3\\na4'; read x; printf '\\033[2;1H\\033[M'; exec sleep 600" });
    const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
    const hub = new Hub({ server: test.server, key: randomBytes(32), warn: () => undefined });
    hubs.push(hub);
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", pane]))[3] === "a4", 10_000, "a1 to a4 printed");
    const before = await hub.capture({ paneId: pane });
    expect(before.rows.slice(0, 4)).toEqual(["a1", "a2", "a3", "a4"].map((text, line) => ({ line, text })));
    await test.run(["send-keys", "-t", pane, "Enter"]);
    let after = await hub.capture({ cursor: before.cursor, waitMs: 5000 });
    await waitFor(async () => {
      if (after.rows.some((r) => r.text === "a4" && r.line - after.screen.top === 2)) return true;
      const next = await hub.capture({ cursor: after.cursor, waitMs: 500 });
      after = { ...next, rows: [...after.rows, ...next.rows], missed: after.missed || next.missed };
      return false;
    }, 10_000, "the deletion shown");
    const [history = ""] = await test.run(["display-message", "-p", "-t", pane, "#{history_size}"]);
    expect({ history, top: after.screen.top, missed: after.missed }).toEqual({ history: "0", top: 0, missed: false });
  });
});
