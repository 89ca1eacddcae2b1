// Memory a test's process still holds: what a bound on memory is about. Read without a collection
// first, heapUsed also counts garbage not yet collected, which on a busy machine can run to hundreds
// of MiB (CI, tmux 3.5a, 2026-12-04: the flood test's 150 MiB bound failed on garbage). Vitest's
// workers do not start with --expose-gc, so the collector is asked for through V8's flags.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

/** Bytes of JS heap and ArrayBuffers still reachable, after a full collection. */
export function retainedBytes(): number {
  collect();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}
