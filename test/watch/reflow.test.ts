// The post-resize check waits for a quiet pane, then resyncs only when the screens differ.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QUIET_MS, ReflowCheck } from "../../src/watch/reflow.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function check(matches: boolean) {
  const calls = { matches: 0, resync: 0 };
  const reflow = new ReflowCheck({
    matches: async () => (calls.matches++, matches),
    resync: async () => void calls.resync++,
  });
  return { reflow, calls };
}

describe("ReflowCheck", () => {
  it("compares once the pane has been quiet, and resyncs when the screens differ", async () => {
    const { reflow, calls } = check(false);
    reflow.schedule();
    await vi.advanceTimersByTimeAsync(QUIET_MS + 1);
    expect(calls).toEqual({ matches: 1, resync: 1 });
  });

  it("does not resync when the screens already agree", async () => {
    const { reflow, calls } = check(true);
    reflow.schedule();
    await vi.advanceTimersByTimeAsync(QUIET_MS + 1);
    expect(calls).toEqual({ matches: 1, resync: 0 });
  });

  it("waits while the pane keeps printing, then checks when it stops", async () => {
    const { reflow, calls } = check(false);
    reflow.schedule();
    for (let i = 0; i < 10; i++) {
      reflow.onOutput();
      await vi.advanceTimersByTimeAsync(QUIET_MS / 2);
    }
    expect(calls.matches).toBe(0);
    await vi.advanceTimersByTimeAsync(QUIET_MS * 2);
    expect(calls).toEqual({ matches: 1, resync: 1 });
  });

  it("does nothing after dispose", async () => {
    const { reflow, calls } = check(false);
    reflow.schedule();
    reflow.dispose();
    await vi.advanceTimersByTimeAsync(QUIET_MS * 4);
    expect(calls.matches).toBe(0);
  });
});
