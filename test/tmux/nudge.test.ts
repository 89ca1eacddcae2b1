// The Nudger: one nudge after activity is followed by quiet, never during a stream, never twice.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Nudger } from "../../src/tmux/nudge.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Nudger", () => {
  it("nudges once, quietMs after the last activity", () => {
    const nudge = vi.fn();
    const nudger = new Nudger(300, nudge);
    nudger.activity();
    vi.advanceTimersByTime(299);
    expect(nudge).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(nudge).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(nudge).toHaveBeenCalledTimes(1);
  });

  it("waits while activity goes on: a stream of output is never interrupted by nudges", () => {
    const nudge = vi.fn();
    const nudger = new Nudger(300, nudge);
    for (let i = 0; i < 100; i++) {
      nudger.activity();
      vi.advanceTimersByTime(100);
    }
    expect(nudge).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(nudge).toHaveBeenCalledTimes(1);
  });

  it("nudges again only after new activity, and never after dispose", () => {
    const nudge = vi.fn();
    const nudger = new Nudger(300, nudge);
    nudger.activity();
    vi.advanceTimersByTime(300);
    nudger.activity();
    vi.advanceTimersByTime(300);
    expect(nudge).toHaveBeenCalledTimes(2);
    nudger.activity();
    nudger.dispose();
    vi.advanceTimersByTime(1000);
    expect(nudge).toHaveBeenCalledTimes(2);
  });
});
