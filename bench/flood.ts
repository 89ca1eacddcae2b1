// Figure 1, flood ingest: a pane floods (`seq`, then a TUI-like repaint stream `cat`-ed); time from
// the start until panescope's observer has applied the last byte (screen parsed, rows diffed), vs a
// decode-only control-mode reader seeing the end marker. Runs alternate, each on a fresh server.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { ControlClient } from "../src/tmux/client.js";
import { PaneWatch } from "../src/watch/pane-watch.js";
import { Liveness } from "../src/watch/liveness.js";
import { median, type Result } from "./lib/format.js";
import { gated, markerWatch, RawControl, serverName, startServer, timedTmux, type BenchServer } from "./lib/tmux.js";

const MARKER = "FLOOD" + "END"; // split so no command line shows the marker before the flood ends

interface Run {
  ms: number;
  bytes: number;
  /** CPU time (user + system) this process spent over the run: robust to a shared machine's load. */
  cpuMs: number;
}

function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** A repaint stream: frames of absolute cursor moves, SGR colours and text (like a busy TUI). */
export function tuiStream(frames: number): Buffer {
  const parts: string[] = [];
  for (let f = 0; f < frames; f++) {
    parts.push("\x1b[H");
    for (let y = 1; y <= 24; y++) {
      const colour = 31 + ((f + y) % 7);
      const text = `row ${y} frame ${f} ${"#".repeat((f * 7 + y * 3) % 40)}`.padEnd(60, ".");
      parts.push(`\x1b[${y};1H\x1b[${colour};1m${text.slice(0, 20)}\x1b[0m ${text.slice(20)}\x1b[K`);
    }
  }
  return Buffer.from(parts.join(""));
}

export async function baselineRun(bench: BenchServer): Promise<Run> {
  const raw = new RawControl(bench.name, bench.session);
  await raw.ready();
  const seen = markerWatch(MARKER);
  let bytes = 0;
  const t0 = performance.now();
  const cpu = process.cpuUsage();
  const done = new Promise<number>((resolve) => {
    raw.onOutput((pane, data) => {
      if (pane !== bench.pane) return;
      bytes += data.length;
      if (seen(data)) resolve(performance.now());
    });
  });
  await timedTmux(bench.name, ["wait-for", "-S", "go"]);
  const t1 = await done;
  const cpuMs = cpuSince(cpu);
  await raw.close();
  return { ms: t1 - t0, bytes, cpuMs };
}

export async function panescopeRun(bench: BenchServer): Promise<Run> {
  // The hub's own path (control client with flow control, the quiet client that confirms output,
  // PaneWatch, PaneObserver), minus the cache.
  const client = await ControlClient.start({ server: bench.server, session: bench.session, autoContinue: false });
  const liveness = new Liveness({ server: bench.server });
  const watch = await PaneWatch.start(client, bench.pane, { key: randomBytes(32), instance: randomBytes(8), liveness });
  const observer = watch.observer;
  const start = observer.offset;
  const seen = markerWatch(MARKER);
  let paused = false;
  const received = new Promise<void>((resolve) => {
    client.on((event) => {
      if (event.type === "pause") paused = true;
      if (event.type === "output" && event.paneId === bench.pane && seen(event.data)) resolve();
    });
  });
  const t0 = performance.now();
  const cpu = process.cpuUsage();
  await timedTmux(bench.name, ["wait-for", "-S", "go"]);
  await received;
  // Output reaches the observer once tmux confirmed who wrote it (a quiet-client round trip).
  while (watch.unconfirmed > 0) await new Promise((resolve) => setTimeout(resolve, 1));
  const { rows } = await observer.screenText(); // resolves once the screen applied every byte so far
  const t1 = performance.now();
  const cpuMs = cpuSince(cpu);
  if (!rows.some((row) => row.includes(MARKER))) throw new Error("flood: the observer's screen lacks the end marker");
  const bytes = observer.offset - start;
  watch.dispose();
  await liveness.close();
  await client.close();
  if (paused) throw new Error("flood: tmux paused the pane (panescope fell 5 s behind)");
  return { ms: t1 - t0, bytes, cpuMs };
}

async function measure(command: (name: string) => string, reps: number): Promise<{ ours: Run[]; base: Run[] }> {
  const ours: Run[] = [];
  const base: Run[] = [];
  // One unmeasured run of each first: the figure is a running server's ingest, not the JIT
  // compiling xterm and the parser (a cold first run of the quick figure cost ~30% of its time).
  for (let i = -1; i < reps; i++) {
    // Alternate which goes first so a warming machine favours neither.
    for (const kind of i % 2 === 0 ? (["base", "ours"] as const) : (["ours", "base"] as const)) {
      const name = serverName();
      const bench = await startServer({ command: command(name), name });
      try {
        const run = kind === "base" ? await baselineRun(bench) : await panescopeRun(bench);
        if (i >= 0) (kind === "base" ? base : ours).push(run);
      } finally {
        await bench.kill();
      }
    }
  }
  return { ours, base };
}

function throughput(runs: Run[]): number {
  return median(runs.map((r) => r.bytes / 1e6 / (r.ms / 1000)));
}

export async function flood(quick: boolean): Promise<Result[]> {
  const dir = mkdtempSync(join(tmpdir(), "panescope-bench-"));
  try {
    const reps = quick ? 1 : 3;
    const count = quick ? 200_000 : 2_000_000;
    const tuiFile = join(dir, "tui.bin");
    writeFileSync(tuiFile, tuiStream(quick ? 1_000 : 8_000));
    const results: Result[] = [];
    const cases = [
      { id: "1a", label: `flood ingest: seq 1 ${count}`, script: `seq 1 ${count}` },
      { id: "1b", label: "flood ingest: TUI repaint stream", script: `cat ${tuiFile}` },
    ];
    for (const c of cases) {
      const { ours, base } = await measure((name) => gated(name, `${c.script}; echo FLOOD""END`), reps);
      const mb = (ours[0]?.bytes ?? 0) / 1e6;
      results.push({
        id: c.id,
        label: c.label,
        value: throughput(ours),
        baseline: throughput(base),
        baselineLabel: "decode-only reader",
        unit: "MB/s",
        better: "higher",
        note: `${mb.toFixed(1)} MB, median of ${reps}; ours ${median(ours.map((r) => r.ms)).toFixed(0)} ms, base ${median(base.map((r) => r.ms)).toFixed(0)} ms`,
      });
      results.push({
        id: `${c.id}′`,
        label: `${c.label}: reader CPU per MB`,
        value: median(ours.map((r) => r.cpuMs / (r.bytes / 1e6))),
        baseline: median(base.map((r) => r.cpuMs / (r.bytes / 1e6))),
        baselineLabel: "decode-only reader",
        unit: "ms",
        better: "lower",
        note: "CPU time of the reading process (user + sys), unaffected by waiting on tmux",
      });
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
