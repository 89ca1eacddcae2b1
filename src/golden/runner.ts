// What the test runner around expectGolden says, read at run time without importing vitest
// (panescope/golden must load where vitest is not installed): whether it was asked to update
// snapshots (`vitest -u`), the running test, and which test already used a golden in this run of
// the test file. The global object is a parameter.

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

/**
 * A test as the runner knows it: its file, its full name ("suite > test") and, where a matcher is
 * told its task (vitest), the task's id, which tells apart tests of one name (`it.each` without
 * the case in the name).
 */
export interface RunnerTest {
  file?: string;
  name?: string;
  id?: string;
}

/** The running test as the runner's expect state names it: its file and full name, when known. */
export function runnerTest(globals: object = globalThis): RunnerTest {
  const state = field((globals as Record<symbol, unknown>)[MATCHERS], "state");
  const file = field(state, "testPath");
  const name = field(state, "currentTestName");
  return { ...(typeof file === "string" ? { file } : {}), ...(typeof name === "string" ? { name } : {}) };
}

/**
 * The test that first used each golden, per run of a test file: vitest (and jest) make a new
 * snapshotState for every run of a file, so keying by it forgets the owners when the file runs
 * again (watch mode, `isolate: false`).
 */
const owners = new WeakMap<object, Map<string, RunnerTest>>();

/** Retries and repeats run the same task again: the same id, or without ids the same name. */
function sameTest(a: RunnerTest, b: RunnerTest): boolean {
  return a.id !== undefined && b.id !== undefined ? a.id === b.id : a.name === b.name;
}

/**
 * Records `test` as the user of the golden at `path` (an absolute path) in this run of its test
 * file; returns the other test that already used it, if any. Outside a runner, or without a test
 * name (a hook: vitest names no test there), nothing is recorded: there is nothing to tell apart.
 */
export function claimGolden(path: string, test: RunnerTest, globals: object = globalThis): RunnerTest | undefined {
  const snapshotState = field(field((globals as Record<symbol, unknown>)[MATCHERS], "state"), "snapshotState");
  if (typeof snapshotState !== "object" || snapshotState === null || test.name === undefined || test.name === "") return undefined;
  let used = owners.get(snapshotState);
  if (used === undefined) owners.set(snapshotState, (used = new Map()));
  const owner = used.get(path);
  if (owner === undefined) used.set(path, test);
  return owner !== undefined && !sameTest(owner, test) ? owner : undefined;
}
