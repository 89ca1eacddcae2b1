// Figure 14, a fleet: 500 panes across 50 sessions, each read once, held by one process (the built
// dist/'s Hub, with room for all of them) vs the same process holding one pane: RSS, CPU while
// nothing happens, and a read of any of them vs an idle read. The MCP server itself is not run
// here: its cap on watched panes (the hub's maxPanes, 64) evicts most of such a fleet, and the
// churn of control clients that follows crashed tmux 3.3a before tmux/attach-turns.ts (docs/benchmarks.md).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { percentile, type Result } from "./lib/format.js";
import { startServer, type BenchServer } from "./lib/tmux.js";

const SESSIONS = 50;
const PANES_PER_SESSION = 10;
const COMMAND = `sh -c 'seq -f "fleet line %g" 1 30; exec sleep 3600'`;

interface Side {
  rss: number;
  cpu: { ours: number; tmux: number };
  reads: { times: number[]; missed: number };
}

interface Measured {
  idle: Side;
  fleet: Side;
  firstReadsMs: number;
  watched: number;
  streaming: number;
}

/** 50 sessions of 10 windows, one pane each; every pane's id. */
async function fleetOf(bench: BenchServer): Promise<string[]> {
  for (let s = 0; s < SESSIONS; s++) {
    const session = s === 0 ? bench.session : `fleet-${s}`;
    const create = s === 0 ? [] : [["new-session", "-d", "-s", session, "-x", "80", "-y", "24", COMMAND]];
    const windows = Array.from({ length: PANES_PER_SESSION - 1 }, () => ["new-window", "-d", "-t", `=${session}:`, COMMAND]);
    await bench.server.runMany([...create, ...windows]);
  }
  const panes = await bench.run(["list-panes", "-a", "-F", "#{pane_id}"]);
  if (panes.length !== SESSIONS * PANES_PER_SESSION) throw new Error(`fleet: ${panes.length} panes, expected ${SESSIONS * PANES_PER_SESSION}`);
  return panes;
}

function child(socket: string, panes: string[], windowMs: number, reads: number): Promise<Measured> {
  const script = resolve(import.meta.dirname, "fleet-child.mjs");
  if (!existsSync(resolve(import.meta.dirname, "../dist/watch/hub.js"))) throw new Error("fleet: no dist/ yet: run `npm run build` first");
  const args = ["--expose-gc", script, socket, JSON.stringify(panes), String(windowMs), String(reads)];
  return new Promise((done, fail) => {
    execFile(process.execPath, args, { cwd: resolve(import.meta.dirname, ".."), maxBuffer: 16 * 2 ** 20 }, (error, stdout) => {
      if (error) fail(error);
      else done(JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Measured);
    });
  });
}

export async function fleet(quick: boolean): Promise<Result[]> {
  // --quick shortens the quiet window (60 s → 10 s; the baseline's is half of it) and the reads.
  const windowMs = quick ? 10_000 : 60_000;
  const reads = quick ? 200 : 1000;
  const bench = await startServer({ command: COMMAND });
  try {
    const panes = await fleetOf(bench);
    const m = await child(bench.name, panes, windowMs, reads);
    const MiB = 2 ** 20;
    const count = panes.length;
    const held = `${m.watched} watched (${m.streaming} streaming), first reads ${(m.firstReadsMs / 1000).toFixed(1)} s`;
    const p = (side: Side, q: number): number => percentile(side.reads.times, q);
    return [
      { id: "14a", label: `RSS, ${count} panes read once`, value: m.fleet.rss / MiB, baseline: m.idle.rss / MiB, baselineLabel: "one pane", unit: "MiB", better: "lower", note: `${((m.fleet.rss - m.idle.rss) / 1024 / (count - 1)).toFixed(0)} KiB per pane; ${held}`, extra: { panes: count } },
      { id: "14b", label: `idle CPU, ${count} panes`, value: m.fleet.cpu.ours / 10, baseline: m.idle.cpu.ours / 10, baselineLabel: "one pane", unit: "% of a core", better: "lower", note: `over ${windowMs / 1000} s (baseline ${windowMs / 2000} s); tmux's server meanwhile ${(m.fleet.cpu.tmux / 10).toFixed(2)} % vs ${(m.idle.cpu.tmux / 10).toFixed(2)} %` },
      { id: "14c", label: `read p99, any of ${count} panes`, value: p(m.fleet, 99), baseline: p(m.idle, 99), baselineLabel: "idle read p99, one pane", unit: "ms", better: "lower", note: `in-process hub, ${reads} reads each; p50 ${p(m.fleet, 50).toFixed(2)} vs ${p(m.idle, 50).toFixed(2)} ms; missed ${m.fleet.reads.missed}` },
    ];
  } finally {
    await bench.kill();
  }
}
