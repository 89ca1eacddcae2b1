// Live fidelity: the programs of test/support/fidelity/scenarios.ts run in a private tmux server, watched
// through the Hub from the pane's first byte; at quiescence the rendered rows and cursor equal
// tmux's own capture-pane -p and #{cursor_x},#{cursor_y}. Plus widths that differ by tmux version.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { Hub } from "../../../src/watch/hub.js";
import { rulesFor } from "../../../src/observe/width-table.js";
import { driverFor, preparePane, scenarios, type Scenario } from "../../support/fidelity/scenarios.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const hubs: Hub[] = [];
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  await killAllServers();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

interface View {
  rows: string[];
  cursor: string;
}

async function tmuxView(test: TestServer, pane: string): Promise<View> {
  // One tmux invocation, so the rows and the cursor are of the same moment.
  const out = await test.server.runMany([
    ["capture-pane", "-p", "-t", pane],
    ["display-message", "-p", "-t", pane, "#{cursor_x},#{cursor_y} #{pane_width}x#{pane_height}"],
  ]);
  const cursor = out.pop() ?? "";
  return { rows: out.map((row) => row.trimEnd()), cursor };
}

/** Starts the scenario's pane, watches it from its first byte, and lets it run. */
async function watched(s: Scenario): Promise<{ test: TestServer; hub: Hub; pane: string }> {
  const prepared = preparePane(s);
  cleanups.push(prepared.cleanup);
  const test = await startServer({ cols: s.cols, rows: s.rows, command: prepared.command });
  const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
  const hub = new Hub({ server: test.server, key: randomBytes(32) });
  hubs.push(hub);
  const first = await hub.capture({ paneId: pane });
  expect(first.rows.every((row) => row.text === "")).toBe(true);
  await test.run(["wait-for", "-S", "go"]);
  return { test, hub, pane };
}

describe("live fidelity against tmux", () => {
  // All of them, shell-resize too: the replay of its bytes alone differs from tmux (knownRowShift),
  // but a live watch takes tmux's screen again after every resize, so it must match exactly.
  it.each(scenarios.map((s) => [s.name, s] as const))("%s: at quiescence the rendered rows and cursor equal tmux's", async (_name, s) => {
    const { test, hub, pane } = await watched(s);
    const d = driverFor(test, pane);
    await s.drive(d);
    const observer = await hub.observer(pane);
    let tmux: View = { rows: [], cursor: "" };
    let ours: View = { rows: [], cursor: "" };
    // Quiescent once both views agree; a real disagreement times out and is shown as a diff below.
    await waitFor(async () => {
      tmux = await tmuxView(test, pane);
      const shown = await observer.screenText();
      ours = { rows: shown.rows, cursor: `${shown.screen.cursorX},${shown.screen.cursorY} ${shown.screen.cols}x${shown.screen.rows}` };
      return JSON.stringify(ours) === JSON.stringify(tmux);
    }, 10_000, `${s.name}: rendered rows equal to capture-pane -p`).catch(() => undefined);
    expect(ours).toEqual(tmux);
    await s.finish?.(d);
  });

  it("widths: CJK, emoji, VS16, a skin tone and a ZWJ family are as wide in the replica as in the tmux in use", async () => {
    // One sample per line, each printed then held by `read` so its cursor column can be read on both sides.
    const samples = ["日本語", "🙂", "é", "❤️", "👍🏽", "👨‍👩‍👧"];
    const script = `for s in ${samples.map((x) => `'${x}'`).join(" ")}; do printf '%s' "$s"; read x; done\nexec sleep 86400\n`;
    const s: Scenario = { name: "widths", cols: 40, rows: 8, files: { "run.sh": script }, drive: async () => undefined };
    const { test, hub, pane } = await watched(s);
    const [version = ""] = await test.run(["display-message", "-p", "#{version}"]);
    const observer = await hub.observer(pane);
    const measured: Array<{ sample: string; tmux: number; xterm: number; text: string }> = [];
    for (const [y, sample] of samples.entries()) {
      let tmuxX = 0;
      await waitFor(async () => {
        const [where = ""] = await test.run(["display-message", "-p", "-t", pane, "#{cursor_x},#{cursor_y}"]);
        tmuxX = Number(where.split(",")[0]);
        return where === `${tmuxX},${y}` && tmuxX > 0;
      }, 5000, `tmux to show ${sample}`);
      let ours = await observer.screenText();
      await waitFor(async () => {
        ours = await observer.screenText();
        return ours.screen.cursorY === y && ours.screen.cursorX > 0;
      }, 5000, `the observer to show ${sample}`);
      measured.push({ sample, tmux: tmuxX, xterm: ours.screen.cursorX, text: ours.rows[y] ?? "" });
      await test.run(["send-keys", "-t", pane, "Enter"]);
    }
    // The replica follows the version's rules (docs/widths.md): VS16 and skin tones widen or join
    // from 3.4 on, a ZWJ sequence is one 2-column cell from 3.3 on. Measured on 3.2a–3.7c.
    const rules = rulesFor(version);
    const older = rules === "3.2" || rules === "3.3";
    const widths = [6, 2, 1, older ? 1 : 2, older ? 4 : 2, rules === "3.2" ? 6 : 2];
    expect(measured).toEqual(samples.map((sample, i) => ({ sample, tmux: widths[i], xterm: widths[i], text: sample })));
    const tmuxRows = (await tmuxView(test, pane)).rows;
    expect(tmuxRows.slice(0, samples.length)).toEqual(samples);
  });
});
