// Figure 3, wake latency: a reader waits in `capture_since` with waitMs; a key sent to the pane
// (through a control client) is echoed; time from sending the key to the answer, vs the raw
// control-mode echo time of a key (the floor): send it, wait for its %output. The floor's key goes
// to a pane in another session, which panescope does not watch: its work for our pane (confirming,
// parsing) must not slow the floor (on the same pane it did: the floor then flattered heavier work).
import { setTimeout as sleep } from "node:timers/promises";
import { percentile, type Result } from "./lib/format.js";
import { openReader } from "./lib/reader.js";
import { RawControl, startServer } from "./lib/tmux.js";

/** Unmeasured keys first: the reader's server was just started (its JIT is cold; so is figure 1's). */
const WARM_KEYS = 10;

export async function wake(quick: boolean): Promise<Result[]> {
  const keys = quick ? 15 : 120;
  // cat in canonical mode: the tty echoes each key at once, no prompt or line editor in between.
  const bench = await startServer({ command: "cat" });
  await bench.run(["new-session", "-d", "-s", "floor", "cat"]);
  const [floorPane = ""] = await bench.run(["display-message", "-p", "-t", "floor", "#{pane_id}"]);
  const raw = new RawControl(bench.name, bench.session);
  const rawFloor = new RawControl(bench.name, "floor");
  await Promise.all([raw.ready(), rawFloor.ready()]);
  const reader = await openReader(bench);
  try {
    let { cursor } = await reader.capture({ paneId: bench.pane });
    const ours: number[] = [];
    const floor: number[] = [];
    for (let i = -WARM_KEYS; i < keys; i++) {
      // Floor: a key, timed from send to its %output on the control client.
      const echoed = new Promise<number>((resolve) => {
        const off = rawFloor.onOutput((pane) => {
          if (pane !== floorPane) return;
          off();
          resolve(performance.now());
        });
      });
      const t0 = performance.now();
      rawFloor.send(`send-keys -t ${floorPane} a`);
      const echo = (await echoed) - t0;

      // panescope: the read is already waiting when the key is sent (the bench may sleep; tests never).
      const answer = reader.capture({ cursor, waitMs: 5000 });
      await sleep(15);
      const t1 = performance.now();
      raw.send(`send-keys -t ${bench.pane} a`);
      const delta = await answer;
      const took = performance.now() - t1;
      if (!delta.raw.includes("a")) throw new Error(`wake: the answer lacks the echoed key: ${JSON.stringify(delta.raw)}`);
      cursor = delta.cursor;
      if (i < 0) continue;
      floor.push(echo);
      ours.push(took);
    }
    const note = `${reader.transport}, ${keys} keys`;
    return [
      { id: "3a", label: "wake latency p50", value: percentile(ours, 50), baseline: percentile(floor, 50), baselineLabel: "control-mode echo", unit: "ms", better: "lower", note },
      { id: "3b", label: "wake latency p99", value: percentile(ours, 99), baseline: percentile(floor, 99), baselineLabel: "control-mode echo", unit: "ms", better: "lower", note },
    ];
  } finally {
    await reader.close();
    await Promise.all([raw.close(), rawFloor.close()]);
    await bench.kill();
  }
}
