// Figure 6, agent economy: an agent reads every 500 ms while a program draws; bytes per read of
// panescope's changed rows vs (a) a whole-screen `capture-pane -p` per read and (b) the escape-
// stripped raw stream since the last read. Also rebuilds the screen from the deltas alone and
// checks it equals `capture-pane -p` (✓/✗).
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Delta } from "../src/observe/delta.js";
import type { Result } from "./lib/format.js";
import { openReader } from "./lib/reader.js";
import { gated, serverName, startServer, timedTmux } from "./lib/tmux.js";

const PROGRAMS = resolve(import.meta.dirname, "programs.mjs");
const SCENARIOS = [
  { id: "6a", scenario: "progress", label: "\\r progress bar" },
  { id: "6b", scenario: "log", label: "scrolling log" },
  { id: "6c", scenario: "repaint", label: "full-screen repaint (top-like)" },
  { id: "6d", scenario: "layers", label: "cursor-up redraw (docker pull)" },
] as const;

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");
const rowBytes = (delta: Delta): number => delta.rows.reduce((sum, row) => sum + bytes(row.text) + 1, 0);
const trimmed = (rows: string[]): string[] => {
  const out = rows.map((row) => row.replace(/ +$/, ""));
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
};

/** The screen an agent holds after applying every delta by absolute line number. */
class Rebuilt {
  private readonly lines = new Map<number, string>();
  private screen: Delta["screen"] | undefined;
  apply(delta: Delta): void {
    for (const row of delta.rows) this.lines.set(row.line, row.text);
    this.screen = delta.screen;
  }
  rows(): string[] {
    const s = this.screen;
    return s ? Array.from({ length: s.rows }, (_, y) => this.lines.get(s.top + y) ?? "") : [];
  }
}

async function scenario(id: string, name: string, label: string, ms: number): Promise<Result[]> {
  const server = serverName();
  const bench = await startServer({ name: server, command: gated(server, `node ${PROGRAMS} ${name} ${ms}`) });
  const reader = await openReader(bench);
  try {
    const first = await reader.capture({ paneId: bench.pane, maxBytes: 1 << 20 });
    const rebuilt = new Rebuilt();
    rebuilt.apply(first);
    let cursor = first.cursor;
    let ours = 0;
    let screens = 0;
    let raw = 0;
    let consistent = true;
    const reads = Math.ceil(ms / 500) + 2; // the program's run, plus reads after its last frame
    await timedTmux(server, ["wait-for", "-S", "go"]);
    for (let i = 0; i < reads; i++) {
      await sleep(500);
      const delta = await reader.capture({ cursor, maxBytes: 1 << 20 });
      const screen = await timedTmux(server, ["capture-pane", "-p", "-t", bench.pane]);
      if (delta.missed || delta.truncated.rows > 0 || delta.truncated.rawChars > 0) consistent = false;
      rebuilt.apply(delta);
      cursor = delta.cursor;
      ours += rowBytes(delta);
      raw += bytes(delta.raw);
      screens += bytes(screen.stdout);
    }
    const tmuxScreen = trimmed((await timedTmux(server, ["capture-pane", "-p", "-t", bench.pane])).stdout.split("\n"));
    const same = consistent && JSON.stringify(trimmed(rebuilt.rows())) === JSON.stringify(tmuxScreen);
    const check = same ? "screen = capture-pane ✓" : "screen ≠ capture-pane ✗";
    const totals = `${reads} reads; total ${(ours / 1024).toFixed(1)} KiB vs`;
    return [
      { id, label: `${label}: bytes/read`, value: ours / reads, baseline: screens / reads, baselineLabel: "capture-pane -p", unit: "B", better: "lower", note: `${totals} ${(screens / 1024).toFixed(1)} KiB; ${check}` },
      { id: `${id}′`, label: `${label}: bytes/read`, value: ours / reads, baseline: raw / reads, baselineLabel: "stripped raw", unit: "B", better: "lower", note: `${totals} ${(raw / 1024).toFixed(1)} KiB` },
    ];
  } finally {
    await reader.close();
    await bench.kill();
  }
}

export async function economy(quick: boolean): Promise<Result[]> {
  const results: Result[] = [];
  for (const s of SCENARIOS) results.push(...(await scenario(s.id, s.scenario, s.label, quick ? 2000 : 6000)));
  return results;
}
