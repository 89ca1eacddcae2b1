// Reading the test runner from the expect state it publishes (vitest, jest): its snapshot update
// mode, its counters, and which test of a run of a test file first used a golden.
import { expect as vitestExpect, describe, expect, it } from "vitest";
import { claimGolden, countInRunner, runnerWantsUpdate } from "../../src/golden/runner.js";

const MATCHERS = Symbol.for("$$jest-matchers-object");
const globalsWith = (state: unknown): object => ({ [MATCHERS]: { state } });

describe("runnerWantsUpdate", () => {
  it('is true only when the snapshot state says "all" (vitest -u, jest -u)', () => {
    expect(runnerWantsUpdate(globalsWith({ snapshotState: { _updateSnapshot: "all" } }))).toBe(true);
    expect(runnerWantsUpdate(globalsWith({ snapshotState: { _updateSnapshot: "new" } }))).toBe(false);
    expect(runnerWantsUpdate(globalsWith({ snapshotState: { _updateSnapshot: "none" } }))).toBe(false);
  });

  it("is false outside a test runner, or when the state has another shape", () => {
    expect(runnerWantsUpdate({})).toBe(false);
    expect(runnerWantsUpdate(globalsWith(undefined))).toBe(false);
    expect(runnerWantsUpdate(globalsWith({ snapshotState: null }))).toBe(false);
    expect(runnerWantsUpdate({ [MATCHERS]: 42 })).toBe(false);
  });

  it("reads this very vitest run: the symbol holds the snapshot state vitest's expect has", () => {
    const state = vitestExpect.getState() as unknown as { snapshotState?: { _updateSnapshot?: string } };
    expect(state.snapshotState?._updateSnapshot).toMatch(/^(all|new|none)$/);
    const published = (globalThis as unknown as Record<symbol, { state?: { snapshotState?: unknown } }>)[MATCHERS];
    expect(published?.state?.snapshotState).toBe(state.snapshotState);
    expect(runnerWantsUpdate()).toBe(state.snapshotState?._updateSnapshot === "all");
  });
});

describe("countInRunner", () => {
  it("increments the runner's counter for the current test, and leaves any other shape alone", () => {
    const seen: string[] = [];
    const added = { increment: (key: string) => seen.push(key) };
    countInRunner("added", globalsWith({ currentTestName: "menu > opens", snapshotState: { added } }));
    expect(seen).toEqual(["panescope menu > opens"]);
    expect(() => countInRunner("added", {})).not.toThrow();
    expect(() => countInRunner("updated", globalsWith({ snapshotState: { updated: 3 } }))).not.toThrow();
  });
});

describe("claimGolden", () => {
  const run = (snapshotState: object = {}): object => globalsWith({ snapshotState });

  it("names the other test that already used a golden in this run of the file; the same test may use it again", () => {
    const file = run();
    expect(claimGolden("/g/menu/screen.golden", { name: "menu > case one" }, file)).toBeUndefined();
    expect(claimGolden("/g/menu/screen.golden", { name: "menu > case one" }, file)).toBeUndefined();
    expect(claimGolden("/g/menu/other.golden", { name: "menu > case two" }, file)).toBeUndefined();
    expect(claimGolden("/g/menu/screen.golden", { name: "menu > case two" }, file)).toEqual({ name: "menu > case one" });
  });

  it("tells apart tests of one name by their task ids, and keeps a retried task (the same id) the same test", () => {
    const file = run();
    expect(claimGolden("/g/s.golden", { name: "renders", id: "a_1" }, file)).toBeUndefined();
    expect(claimGolden("/g/s.golden", { name: "renders", id: "a_1" }, file)).toBeUndefined();
    expect(claimGolden("/g/s.golden", { name: "renders", id: "a_2" }, file)).toEqual({ name: "renders", id: "a_1" });
  });

  it("forgets the owners when the file runs again (a new snapshot state), and records nothing outside a runner or a test", () => {
    expect(claimGolden("/g/s.golden", { name: "first" }, run())).toBeUndefined();
    expect(claimGolden("/g/s.golden", { name: "second" }, run())).toBeUndefined();
    expect(claimGolden("/g/s.golden", { name: "first" }, {})).toBeUndefined();
    expect(claimGolden("/g/s.golden", { name: "second" }, {})).toBeUndefined();
    const unnamed = run();
    expect(claimGolden("/g/s.golden", {}, unnamed)).toBeUndefined();
    expect(claimGolden("/g/s.golden", { name: "" }, unnamed)).toBeUndefined();
    expect(claimGolden("/g/s.golden", { name: "second" }, unnamed)).toBeUndefined();
  });
});
