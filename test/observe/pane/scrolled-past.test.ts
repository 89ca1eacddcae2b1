// The log of changed lines that left memory: counted by the sequence they changed at, bounded.
import { describe, expect, it } from "vitest";
import { ScrolledPast, scrolledSince } from "../../../src/observe/pane/scrolled-past.js";

describe("ScrolledPast", () => {
  it("counts for a cursor only the lines that changed after it", () => {
    const log = new ScrolledPast();
    log.add(3, 500);
    log.add(3, 1);
    log.add(7, 40);
    log.add(5, 2); // a line re-stamped later than the ones below it left after them
    expect(log.list).toHaveLength(3);
    expect([2, 3, 4, 5, 7].map((seq) => scrolledSince(log.list, seq))).toEqual([543, 42, 42, 40, 0]);
  });

  it("stays bounded, and a reader older than what it keeps apart is told at least as many, never fewer", () => {
    const log = new ScrolledPast();
    for (let seq = 1; seq <= 5000; seq++) log.add(seq, 1);
    expect(log.list.length).toBeLessThanOrEqual(256);
    for (const seq of [0, 1, 2000, 4000, 4999, 5000]) expect(scrolledSince(log.list, seq)).toBeGreaterThanOrEqual(5000 - seq);
    // The newest are kept apart: exact.
    expect(scrolledSince(log.list, 4800)).toBe(200);
  });

  it("moves its version at each change, not when nothing left", () => {
    const log = new ScrolledPast();
    log.add(1, 0);
    expect(log.version).toBe(0);
    log.add(1, 2);
    expect(log.version).toBe(1);
  });
});
