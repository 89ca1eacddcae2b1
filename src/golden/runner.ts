// Whether the test runner around expectGolden was asked to update snapshots (`vitest -u`), read at
// run time without importing vitest: panescope/golden must load where vitest is not installed.
// Pure: the global object is a parameter.

/**
 * vitest (4.x, @vitest/expect) publishes the current expect state under this registered symbol
 * (jest's name for it, kept by vitest for compatibility). During a test, its
 * `snapshotState._updateSnapshot` is "all" under -u/--update, "new" by default and "none" under CI.
 */
const MATCHERS = Symbol.for("$$jest-matchers-object");

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** True when a test runner in this process runs with snapshot updates on (`vitest -u`). */
export function runnerWantsUpdate(globals: object = globalThis): boolean {
  const state = field((globals as Record<symbol, unknown>)[MATCHERS], "state");
  return field(field(state, "snapshotState"), "_updateSnapshot") === "all";
}

/** vitest's names for a snapshot's outcome, as its summary counts them ("N written", "N updated", "N failed"). */
export type RunnerCount = "added" | "updated" | "matched" | "unmatched";

/**
 * Counts one golden in the runner's own snapshot summary, so `vitest` prints "Snapshots 1 written"
 * for a golden it wrote, as for its own snapshots. vitest's SnapshotState keeps these as counter
 * maps keyed by test (`added.increment(id)`); anything else there is left alone.
 */
export function countInRunner(what: RunnerCount, globals: object = globalThis): void {
  const state = field((globals as Record<symbol, unknown>)[MATCHERS], "state");
  const counter = field(field(state, "snapshotState"), what) as { increment?: unknown } | undefined;
  const test = field(state, "currentTestName");
  if (typeof counter?.increment === "function") (counter.increment as (key: string) => void).call(counter, `panescope ${typeof test === "string" ? test : ""}`);
}

/** The running test as the runner names it: its file and its full name ("suite > test"), when known. */
export function runnerTest(globals: object = globalThis): { file?: string; name?: string } {
  const state = field((globals as Record<symbol, unknown>)[MATCHERS], "state");
  const file = field(state, "testPath");
  const name = field(state, "currentTestName");
  return { ...(typeof file === "string" ? { file } : {}), ...(typeof name === "string" ? { name } : {}) };
}
