// Reading the test runner's snapshot update mode from the expect state it publishes (vitest, jest).
import { expect as vitestExpect, describe, expect, it } from "vitest";
import { countInRunner, runnerWantsUpdate } from "../../src/golden/runner.js";

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
