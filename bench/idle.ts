// Figure 2, idle read: the round trip of `capture_since` with nothing new (over stdio from an MCP
// client), vs one `tmux capture-pane -p` process spawn — what a polling peer pays for every read.
import { percentile, type Result } from "./lib/format.js";
import { openReader } from "./lib/reader.js";
import { startServer, timedTmux } from "./lib/tmux.js";

export async function idle(quick: boolean): Promise<Result[]> {
  const reads = quick ? 40 : 200;
  const bench = await startServer({ command: "sh -c 'seq 1 30; exec sleep 3600'" });
  const reader = await openReader(bench);
  try {
    let { cursor } = await reader.capture({ paneId: bench.pane });
    const ours: number[] = [];
    const spawns: number[] = [];
    // Interleaved in blocks of ten so both sides see the same machine load; the first block warms up.
    for (let block = -1; block < reads / 10; block++) {
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        const delta = await reader.capture({ cursor });
        const ms = performance.now() - t0;
        if (delta.rows.length > 0 || delta.raw !== "") throw new Error("idle: the pane printed during the idle read");
        cursor = delta.cursor;
        if (block >= 0) ours.push(ms);
      }
      for (let i = 0; i < 10; i++) {
        const { ms } = await timedTmux(bench.name, ["capture-pane", "-p", "-t", bench.pane]);
        if (block >= 0) spawns.push(ms);
      }
    }
    const via = `${reader.transport}, ${ours.length} reads`;
    return [
      { id: "2a", label: "idle read p50", value: percentile(ours, 50), baseline: percentile(spawns, 50), baselineLabel: "capture-pane spawn", unit: "ms", better: "lower", note: via },
      { id: "2b", label: "idle read p99", value: percentile(ours, 99), baseline: percentile(spawns, 99), baselineLabel: "capture-pane spawn", unit: "ms", better: "lower", note: via },
    ];
  } finally {
    await reader.close();
    await bench.kill();
  }
}
