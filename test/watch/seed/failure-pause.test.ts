import { describe, expect, it } from "vitest";
import { FAILURE_WINDOW_MS, FailurePause, FIRST_PAUSE_MS, MAX_PAUSE_MS } from "../../../src/watch/seed/failure-pause.js";

describe("FailurePause", () => {
  it("answers a first failure at once and a recurring one after a pause that doubles, up to a cap", () => {
    const pause = new FailurePause();
    const waits: number[] = [];
    let now = 1_000;
    for (let i = 0; i < 10; i++) {
      const wait = pause.next(now);
      waits.push(wait);
      now += wait + 10; // fails again 10 ms after the screen was taken
    }
    expect(waits.slice(0, 4)).toEqual([0, FIRST_PAUSE_MS, FIRST_PAUSE_MS * 2, FIRST_PAUSE_MS * 4]);
    expect(Math.max(...waits)).toBe(MAX_PAUSE_MS);
    expect(waits.at(-1)).toBe(MAX_PAUSE_MS);
    expect(pause.run).toBe(10);
  });

  it("starts over once failures are further apart than the window", () => {
    const pause = new FailurePause();
    expect(pause.next(0)).toBe(0);
    expect(pause.next(100)).toBe(FIRST_PAUSE_MS);
    expect(pause.next(100 + FAILURE_WINDOW_MS)).toBe(0);
    expect(pause.run).toBe(1);
  });
});
