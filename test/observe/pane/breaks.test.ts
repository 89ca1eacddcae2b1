// The discontinuity log: a reader hears of every gap after its cursor, also when the log is full.
import { describe, expect, it } from "vitest";
import { BreakLog } from "../../../src/observe/pane/breaks.js";
import { getEventListeners } from "node:events";
import { Wakeup } from "../../../src/observe/pane/wakeup.js";

describe("BreakLog", () => {
  it("reports the first reason after a sequence and sums the known lost bytes", () => {
    const log = new BreakLog();
    log.add(5, "paused", 0);
    log.add(9, "overflow", 100);
    log.add(12, "overflow", 20);
    expect(log.since(4)).toEqual({ reason: "paused", bytes: 120 });
    expect(log.since(9)).toEqual({ reason: "overflow", bytes: 20 });
    expect(log.since(12)).toEqual({ bytes: 0 });
  });

  it("a reader older than every kept entry is still told output was missed", () => {
    const log = new BreakLog();
    log.add(1, "respawned", 0);
    for (let seq = 2; seq < 100; seq++) log.add(seq, "paused", 0);
    // Entries 1..35 were dropped (64 kept): a reader at 10 still gets a reason, never "no gap".
    expect(log.since(10).reason).toBe("paused");
    expect(log.since(0).reason).toBeDefined();
  });
});

describe("Wakeup", () => {
  it("a wait ends on notify, on timeout and on abort, and leaves no waiter behind", async () => {
    const wakeup = new Wakeup();
    const woken = wakeup.next(60_000);
    expect(wakeup.size).toBe(1);
    wakeup.notify();
    await woken;
    await wakeup.next(1);
    const controller = new AbortController();
    const aborted = wakeup.next(60_000, controller.signal);
    controller.abort();
    await aborted;
    expect(wakeup.size).toBe(0);
  });

  it("a wait that news ended lets go of its timer and abort listener on the next turn", async () => {
    const wakeup = new Wakeup();
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    const controller = new AbortController();
    const woken = wakeup.next(60_000, controller.signal);
    expect(timers()).toBe(before + 1);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    wakeup.notify();
    await woken;
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers()).toBe(before);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    controller.abort(); // nothing left to call
  });
});
