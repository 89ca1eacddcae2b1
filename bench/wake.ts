// Figure 3, wake latency: a reader waits in `capture_since` with waitMs; a key sent to the pane is
// echoed; time from sending the key to the answer, vs the raw control-mode echo time of a key (the
// floor): send it, wait for its %output. The floor's key goes to a pane in another session, which
// panescope does not watch: its work for our pane (confirming, parsing) must not slow the floor (on
// the same pane it did: the floor then flattered heavier work). Both keys are sent from that
// session's control client, so no client of the bench but panescope's receives our pane's echo (an
// agent's send_keys does not either). Both keys come after the same QUIET_MS without a keystroke:
// after a pause every process on the path starts cold (the echo itself: 0.41 ms right after the
// previous answer, 0.54 ms after the pause). A floor taken right after the answer, while our key
// came after the pause, understated the floor and overstated the ratio. 3a/3b read with a plain
// JSON-RPC client; 3c reads through the MCP SDK's client, which adds its own parsing and schema
// checks to every answer.
import { setTimeout as sleep } from "node:timers/promises";
import { percentile, type Result } from "./lib/format.js";
import { openReader, type Reader } from "./lib/reader.js";
import { RawControl, startServer, type BenchServer } from "./lib/tmux.js";

/** Unmeasured keys first: the reader's server was just started (its JIT is cold; so is figure 1's). */
const WARM_KEYS = 10;
/** Quiet before each key, the floor's and ours alike: a reader is waiting when output comes. */
const QUIET_MS = 15;

interface Wakes {
  ours: number[];
  floor: number[];
}

async function wakes(bench: BenchServer, keys: RawControl, floorPane: string, reader: Reader, count: number): Promise<Wakes> {
  let { cursor } = await reader.capture({ paneId: bench.pane });
  const ours: number[] = [];
  const floor: number[] = [];
  for (let i = -WARM_KEYS; i < count; i++) {
    // Floor: a key, timed from send to its %output on the control client.
    await sleep(QUIET_MS);
    const echoed = new Promise<number>((resolve) => {
      const off = keys.onOutput((pane) => {
        if (pane !== floorPane) return;
        off();
        resolve(performance.now());
      });
    });
    const t0 = performance.now();
    keys.send(`send-keys -t ${floorPane} a`);
    const echo = (await echoed) - t0;

    // panescope: the read is already waiting when the key is sent (the bench may sleep; tests never).
    const answer = reader.capture({ cursor, waitMs: 5000 });
    await sleep(QUIET_MS);
    const t1 = performance.now();
    keys.send(`send-keys -t ${bench.pane} a`);
    const delta = await answer;
    const took = performance.now() - t1;
    if (!delta.raw.includes("a")) throw new Error(`wake: the answer lacks the echoed key: ${JSON.stringify(delta.raw)}`);
    cursor = delta.cursor;
    if (i < 0) continue;
    floor.push(echo);
    ours.push(took);
  }
  return { ours, floor };
}

export async function wake(quick: boolean): Promise<Result[]> {
  // A quick run's p50 of 15 keys moved by ±20% from run to run (3a: 2.95–4.69× in six runs, against
  // 3.09× over 120 keys): 45 keys cost three seconds more.
  const count = quick ? 45 : 120;
  // cat in canonical mode: the tty echoes each key at once, no prompt or line editor in between.
  const bench = await startServer({ command: "cat" });
  await bench.run(["new-session", "-d", "-s", "floor", "cat"]);
  const [floorPane = ""] = await bench.run(["display-message", "-p", "-t", "floor", "#{pane_id}"]);
  const keys = new RawControl(bench.name, "floor");
  await keys.ready();
  try {
    const measure = async (sdk: boolean, singleThread = false): Promise<Wakes & { transport: string }> => {
      const reader = await openReader(bench, { sdk, singleThread });
      try {
        return { ...(await wakes(bench, keys, floorPane, reader, count)), transport: reader.transport };
      } finally {
        await reader.close();
      }
    };
    const plain = await measure(false);
    const sdk = await measure(true);
    const oneThread = await measure(false, true);
    const note = (w: { transport: string }): string => `${w.transport}, ${count} keys`;
    const floor = "control-mode echo";
    return [
      { id: "3a", label: "wake latency p50", value: percentile(plain.ours, 50), baseline: percentile(plain.floor, 50), baselineLabel: floor, unit: "ms", better: "lower", note: note(plain) },
      { id: "3b", label: "wake latency p99", value: percentile(plain.ours, 99), baseline: percentile(plain.floor, 99), baselineLabel: floor, unit: "ms", better: "lower", note: note(plain) },
      { id: "3c", label: "wake latency p50, SDK client", value: percentile(sdk.ours, 50), baseline: percentile(sdk.floor, 50), baselineLabel: floor, unit: "ms", better: "lower", note: note(sdk) },
      { id: "3d", label: "wake latency p50, --single-thread", value: percentile(oneThread.ours, 50), baseline: percentile(oneThread.floor, 50), baselineLabel: floor, unit: "ms", better: "lower", note: `${note(oneThread)}; the server in one thread (3a: its engine on a thread of its own, the default)` },
    ];
  } finally {
    await keys.close();
    await bench.kill();
  }
}
