// Figure 5, soak: 20 panes flood for 60 s (10 s with --quick) while an agent reads them round-robin
// over stdio. Max RSS of the server vs its idle RSS; read p99 during the flood vs idle; every
// answer with `missed` counted by reason; the server must survive and answer afterwards.
import { setTimeout as sleep } from "node:timers/promises";
import { percentile, type Result } from "./lib/format.js";
import { openReader } from "./lib/reader.js";
import { startEcho } from "./lib/echo.js";
import { gated, serverName, startServer } from "./lib/tmux.js";

const PANES = 20;

/**
 * Flooders: `yes` lines, a long `seq`, and a coloured counter (escape sequences in the stream). No
 * process per line: flooders that forked `date` for every line kept the kernel busy forking (60% of
 * this 2-core machine in system time), and every process, even an idle echo, then waited its turn.
 */
function flooder(i: number): string {
  if (i % 3 === 0) return `yes "pane ${i} says yes"`;
  if (i % 3 === 1) return "seq 1 1000000000";
  return `n=0; while :; do n=$((n+1)); printf "\\033[3${i % 7}m%s\\033[0m %s\\n" pane${i} $n; done`;
}

export async function soak(quick: boolean): Promise<Result[]> {
  const seconds = quick ? 10 : 60;
  const name = serverName();
  const bench = await startServer({ name, command: gated(name, flooder(0)) });
  const reader = await openReader(bench);
  const echo = startEcho();
  try {
    for (let i = 1; i < PANES; i++) await bench.run(["new-window", "-d", "-t", bench.session, gated(name, flooder(i))]);
    const panes = await bench.run(["list-panes", "-s", "-t", bench.session, "-F", "#{pane_id}"]);
    const cursors = new Map<string, string>();
    for (const pane of panes) cursors.set(pane, (await reader.capture({ paneId: pane })).cursor);

    const missed = new Map<string, number>();
    let answers = 0;
    const round = async (latencies: number[]): Promise<void> => {
      for (const [pane, cursor] of cursors) {
        const t0 = performance.now();
        const delta = await reader.capture({ cursor, maxBytes: 16 * 1024 });
        latencies.push(performance.now() - t0);
        answers++;
        if (delta.missed) missed.set(delta.reason ?? "unknown", (missed.get(delta.reason ?? "unknown") ?? 0) + 1);
        cursors.set(pane, delta.cursor);
      }
    };

    // Idle baseline: the same rounds before any pane prints.
    const idle: number[] = [];
    const idleUntil = performance.now() + (quick ? 1500 : 4000);
    while (performance.now() < idleUntil) await round(idle);
    const idleRss = reader.rss();

    await bench.run(["wait-for", "-S", "go"]);
    const busy: number[] = [];
    const floor: number[] = [];
    let maxRss = idleRss;
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) {
      await round(busy);
      // As many echo round trips as reads, in the same stretch of the flood.
      for (let i = 0; i < PANES; i++) floor.push(await echo.ping());
      maxRss = Math.max(maxRss, reader.rss());
      await sleep(50); // an agent between reads; also lets RSS be sampled often
    }
    // The flood stops (panes killed); the server must still answer.
    for (const pane of panes) await bench.run(["respawn-pane", "-k", "-t", pane, "sleep 3600"]).catch(() => undefined);
    const [first] = panes;
    // A failed last read is told apart from a dead server, with what the read said.
    const failed = (error: unknown): string => `last read failed ✗ (${error instanceof Error ? error.message : String(error)}), server ${reader.alive() ? "alive" : "DIED"}`;
    const after = !reader.alive() || first === undefined ? "server DIED ✗" : await reader.capture({ paneId: first }).then(() => "server alive ✓", failed);
    const lost = [...missed].map(([reason, n]) => `${n}× ${reason}`).join(", ") || "none";
    const MiB = 2 ** 20;
    const note = `${reader.transport}, ${PANES} panes × ${seconds} s, ${answers} answers, missed: ${lost}, ${after}`;
    return [
      { id: "5a", label: "soak: max RSS while flooding", value: maxRss / MiB, baseline: idleRss / MiB, baselineLabel: "idle, same panes", unit: "MiB", better: "lower", note },
      { id: "5b", label: "soak: read p99 while flooding", value: percentile(busy, 99), baseline: percentile(idle, 99), baselineLabel: "idle read p99", unit: "ms", better: "lower", note: `p50 ${percentile(busy, 50).toFixed(1)} ms vs idle ${percentile(idle, 50).toFixed(1)} ms` },
      { id: "5c", label: "soak: read p99 while flooding, vs the machine", value: percentile(busy, 99), baseline: percentile(floor, 99), baselineLabel: "stdio echo p99, same flood", unit: "ms", better: "lower", note: `p50 ${percentile(busy, 50).toFixed(1)} ms vs echo ${percentile(floor, 50).toFixed(2)} ms: what any process answering on a pipe pays here` },
    ];
  } finally {
    echo.close();
    await reader.close();
    await bench.kill();
  }
}
