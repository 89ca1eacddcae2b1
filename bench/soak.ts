// Figure 5, soak: 20 panes flood for 60 s (10 s with --quick) while an agent reads them round-robin
// over stdio. Max RSS of the server vs its idle RSS; read p99 during the flood vs idle; every
// answer with `missed` counted by reason; the server must survive and answer afterwards. Figure 15
// is the same soak with the server in one thread (--single-thread; its default until 2026-12-04
// was one thread, and figure 15 the engine thread's): its RSS and reads, beside the same baselines.
import { setTimeout as sleep } from "node:timers/promises";
import { percentile, type Result } from "./lib/format.js";
import { openReader } from "./lib/reader.js";
import { startAnswerEcho, startEcho, type Echo } from "./lib/echo.js";
import { gated, serverName, startServer } from "./lib/tmux.js";

const PANES = 20;
/** The echoes that bound where a server's work sits (5d–5g) are timed in one round of this many. */
const CONTEXT_EVERY = 4;

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

export async function soak(quick: boolean, singleThread = false): Promise<Result[]> {
  const seconds = quick ? 10 : 60;
  const name = serverName();
  const bench = await startServer({ name, command: gated(name, flooder(0)) });
  const reader = await openReader(bench, { singleThread });
  const echo = startEcho();
  // Where a server's work sits decides what a read waits for (5d, 5e): each busy echo runs only
  // while it is timed, so it takes no CPU from the flood otherwise.
  const beside = startEcho("busy-worker");
  const inTurns = startEcho("busy-turns");
  // The work of an answer itself (5f), and that beside a busy worker (5g): the floor of any server
  // whose reads cost 1 ms of CPU, and of one that parses off the thread that answers them.
  const working = startEcho("working");
  const workingBeside = startEcho("working-beside-worker");
  beside.pause();
  inTurns.pause();
  workingBeside.pause();
  // 5h: an echo that answers every ping with one of the reads' answers under the flood, the same
  // bytes (a 16 KiB read of the first pane, taken once one is that full).
  let answerEcho: Echo | undefined;
  let answerBytes = 0;
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
    const besideFloor: number[] = [];
    const inTurnsFloor: number[] = [];
    const workingFloor: number[] = [];
    const workingBesideFloor: number[] = [];
    const answerFloor: number[] = [];
    const timeBusy = async (busyEcho: Echo, samples: number[]): Promise<void> => {
      busyEcho.resume();
      await sleep(5); // its busy thread takes the CPU again before the first ping
      for (let i = 0; i < PANES; i++) samples.push(await busyEcho.ping());
      busyEcho.pause();
    };
    let maxRss = idleRss;
    const end = performance.now() + seconds * 1000;
    for (let rounds = 0; performance.now() < end; rounds++) {
      const before = answerEcho === undefined && !singleThread ? [...cursors][0] : undefined;
      await round(busy);
      if (answerEcho === undefined && before !== undefined) {
        // The first pane's read of this round again (a cursor reads the same news, and any since),
        // once the flood fills one: the first rounds may come before the floods' first lines.
        const answer = await reader.answer({ cursor: before[1], maxBytes: 16 * 1024 });
        if (answer.json.length >= 8 * 1024) {
          const line = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: answer.text }], structuredContent: JSON.parse(answer.json) as unknown } });
          answerBytes = Buffer.byteLength(line);
          answerEcho = startAnswerEcho(line);
        }
      }
      // As many echo round trips as reads, in the same stretch of the flood.
      for (let i = 0; i < PANES; i++) floor.push(await echo.ping());
      // The other echoes every fourth round: they took two thirds of a round (5e alone 20 × 8 ms),
      // and a quick run's p99 of reads was the 6th worst of 540.
      if (rounds % CONTEXT_EVERY === 0) {
        await timeBusy(beside, besideFloor);
        await timeBusy(inTurns, inTurnsFloor);
        for (let i = 0; i < PANES; i++) workingFloor.push(await working.ping());
        await timeBusy(workingBeside, workingBesideFloor);
        for (let i = 0; answerEcho && i < PANES; i++) answerFloor.push(await answerEcho.ping());
      }
      maxRss = Math.max(maxRss, reader.rss());
      await sleep(50); // an agent between reads; also lets RSS be sampled often
    }
    // The flood stops; the server must still answer, about a pane it has not read yet. The floods end
    // with kill-pane: `respawn-pane -k` of a flooding pane kills tmux's server whenever a control
    // client is behind on it (every version 3.2a–3.7c, docs/faults.md). Until 2026-12-02 this
    // figure respawned them, killed tmux in every run, and counted the last read's `closed` a pass.
    const [calm] = await bench.run(["new-window", "-d", "-t", bench.session, "-P", "-F", "#{pane_id}", "echo calm; exec sleep 3600"]);
    for (const pane of panes) await bench.run(["kill-pane", "-t", pane]).catch(() => undefined);
    // A failed last read is told apart from a dead server, with what the read said.
    const lastRead = async (): Promise<string> => {
      if (!reader.alive()) return "server DIED ✗";
      try {
        const delta = await reader.capture({ paneId: calm ?? "" });
        if (!delta.closed) return "server alive ✓";
        const tmuxAlive = await bench.run(["display", "-p", "#{pid}"]).then(() => "tmux's server alive", () => "tmux's server gone");
        return `last read answered closed ✗ (${tmuxAlive})`;
      } catch (error) {
        return `last read failed ✗ (${error instanceof Error ? error.message : String(error)}), server ${reader.alive() ? "alive" : "DIED"}`;
      }
    };
    const after = await lastRead();
    const lost = [...missed].map(([reason, n]) => `${n}× ${reason}`).join(", ") || "none";
    const MiB = 2 ** 20;
    const note = `${reader.transport}, ${PANES} panes × ${seconds} s, ${answers} answers, missed: ${lost}, ${after}`;
    if (singleThread) {
      const p50 = `p50 ${percentile(busy, 50).toFixed(1)} ms vs echo ${percentile(floor, 50).toFixed(2)} ms`;
      return [
        { id: "15a", label: "soak, one thread: max RSS while flooding", value: maxRss / MiB, baseline: idleRss / MiB, baselineLabel: "idle, same panes", unit: "MiB", better: "lower", note },
        { id: "15c", label: "soak, one thread: read p99 vs the machine", value: percentile(busy, 99), baseline: percentile(floor, 99), baselineLabel: "stdio echo p99, same flood", unit: "ms", better: "lower", note: `${p50}; --single-thread (5c without it)` },
        { id: "15g", label: "soak, one thread: read p99 vs 5e", value: percentile(busy, 99), baseline: percentile(inTurnsFloor, 99), baselineLabel: "an echo busy in 8 ms turns, p99", unit: "ms", better: "lower", note: "what a server that parses on the thread that answers waits for" },
      ];
    }
    return [
      { id: "5a", label: "soak: max RSS while flooding", value: maxRss / MiB, baseline: idleRss / MiB, baselineLabel: "idle, same panes", unit: "MiB", better: "lower", note },
      { id: "5b", label: "soak: read p99 while flooding", value: percentile(busy, 99), baseline: percentile(idle, 99), baselineLabel: "idle read p99", unit: "ms", better: "lower", note: `p50 ${percentile(busy, 50).toFixed(1)} ms vs idle ${percentile(idle, 50).toFixed(1)} ms` },
      { id: "5c", label: "soak: read p99 while flooding, vs the machine", value: percentile(busy, 99), baseline: percentile(floor, 99), baselineLabel: "stdio echo p99, same flood", unit: "ms", better: "lower", note: `p50 ${percentile(busy, 50).toFixed(1)} ms vs echo ${percentile(floor, 50).toFixed(2)} ms: what any process answering on a pipe pays here`, extra: { p50: percentile(busy, 50), baselineP50: percentile(floor, 50) } },
      { id: "5d", label: "soak: echo p99, a thread busy beside it", value: percentile(besideFloor, 99), baseline: percentile(floor, 99), baselineLabel: "stdio echo p99, same flood", unit: "ms", better: "lower", note: `p50 ${percentile(besideFloor, 50).toFixed(2)} ms: an echo whose process keeps a worker thread busy; the floor of a server that parses off the thread that answers` },
      { id: "5e", label: "soak: echo p99, busy in 8 ms turns", value: percentile(inTurnsFloor, 99), baseline: percentile(floor, 99), baselineLabel: "stdio echo p99, same flood", unit: "ms", better: "lower", note: `p50 ${percentile(inTurnsFloor, 50).toFixed(2)} ms: an echo that works in 8 ms turns on the thread that answers, as panescope parses today` },
      { id: "5f", label: "soak: echo p99, 1 ms of work per answer", value: percentile(workingFloor, 99), baseline: percentile(floor, 99), baselineLabel: "stdio echo p99, same flood", unit: "ms", better: "lower", note: `p50 ${percentile(workingFloor, 50).toFixed(2)} ms: an echo that spends 1 ms of CPU on each answer, about what a 16 KiB read costs panescope` },
      { id: "5g", label: "soak: echo p99, 1 ms of work, a thread busy beside it", value: percentile(workingBesideFloor, 99), baseline: percentile(floor, 99), baselineLabel: "stdio echo p99, same flood", unit: "ms", better: "lower", note: `p50 ${percentile(workingBesideFloor, 50).toFixed(2)} ms: 5f beside a busy worker thread; the floor of a server that parses off the thread that answers 1 ms reads` },
      { id: "5h", label: "soak: echo p99, answering a read's bytes", value: percentile(answerFloor, 99), baseline: percentile(floor, 99), baselineLabel: "stdio echo p99, same flood", unit: "ms", better: "lower", note: `p50 ${percentile(answerFloor, 50).toFixed(2)} ms: an echo whose answer is a 16 KiB read's (${(answerBytes / 1024).toFixed(0)} KiB, parsed as a read's): what moving and parsing that answer costs here` },
    ];
  } finally {
    echo.close();
    beside.close();
    inTurns.close();
    working.close();
    workingBeside.close();
    answerEcho?.close();
    await reader.close();
    await bench.kill();
  }
}
