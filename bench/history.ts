// Figure 8, a long history: the first read of a pane holding 200k lines of scrollback (the seed
// captures only the history the replica keeps, `capture-pane -S -N`) vs the first read of a pane
// with a short one; and how long an unrelated read of another pane was held meanwhile vs the same
// reads before. In-process hub.
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Hub } from "../src/watch/hub.js";
import { percentile, type Result } from "./lib/format.js";
import { startServer, type BenchServer } from "./lib/tmux.js";

const LINES = 200_000;

async function historyOf(bench: BenchServer, pane: string): Promise<number> {
  const [size = "0"] = await bench.run(["display-message", "-p", "-t", pane, "#{history_size}"]);
  return Number(size);
}

/** A new pane that printed `lines` lines and then waits; resolves once tmux holds them all. */
async function printed(bench: BenchServer, lines: number): Promise<string> {
  const [pane = ""] = await bench.run(["new-window", "-d", "-P", "-F", "#{pane_id}", `sh -c 'seq 1 ${lines}; exec sleep 3600'`]);
  // The bench may wait by polling (tests never do): tmux's history fills at its own pace.
  while ((await historyOf(bench, pane)) < lines - 24) await sleep(50);
  return pane;
}

export async function history(quick: boolean): Promise<Result[]> {
  const bench = await startServer({ command: "sleep 3600" });
  const hub = new Hub({ server: bench.server, key: randomBytes(32) });
  try {
    await bench.run(["set-option", "-g", "history-limit", String(LINES + 1000)]);
    let { cursor } = await hub.capture({ paneId: bench.pane });
    const unrelated = async (samples: number[], until: () => boolean): Promise<void> => {
      while (!until()) {
        const t0 = performance.now();
        cursor = (await hub.capture({ cursor })).cursor;
        samples.push(performance.now() - t0);
        await sleep(1);
      }
    };
    const runs = quick ? 1 : 3;
    const long: number[] = [];
    const short: number[] = [];
    const calm: number[] = [];
    const held: number[] = [];
    for (let run = 0; run < runs; run++) {
      const big = await printed(bench, LINES);
      const small = await printed(bench, 100);
      const calmUntil = performance.now() + 300;
      await unrelated(calm, () => performance.now() >= calmUntil);
      for (const [pane, into] of [[big, long], [small, short]] as const) {
        let reading = true;
        const during: number[] = [];
        const watching = unrelated(during, () => !reading);
        const t0 = performance.now();
        const first = await hub.capture({ paneId: pane });
        into.push(performance.now() - t0);
        reading = false;
        await watching;
        if (pane === big) held.push(...during);
        if (!first.rows.some((row) => row.text === String(pane === big ? LINES : 100))) throw new Error("history: the first read lacks the last line");
      }
    }
    const note = `in-process hub, ${LINES} lines of history, ${runs} run(s); tmux history-limit ${LINES + 1000}`;
    return [
      { id: "8a", label: "first read, 200k lines of history", value: percentile(long, 50), baseline: percentile(short, 50), baselineLabel: "first read, 100 lines", unit: "ms", better: "lower", note },
      { id: "8b", label: "unrelated read held during it (max)", value: Math.max(...held), baseline: percentile(calm, 99), baselineLabel: "same reads before, p99", unit: "ms", better: "lower", note: `${held.length} reads during the first read, p50 ${percentile(held, 50).toFixed(2)} ms` },
    ];
  } finally {
    await hub.close();
    await bench.kill();
  }
}
