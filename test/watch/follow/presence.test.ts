// The presence look of tmux 3.2a–3.6a (watch/follow/presence.ts): only for a quiet pane, at most once a
// second, shared by concurrent readers, repeated while a reader waits (the live check:
// integration/watch/follow.test.ts, "a move tmux tells a control client nothing about").
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Presence, PRESENCE_INTERVAL_MS } from "../../../src/watch/follow/presence.js";

const made: Presence[] = [];
function presence(answer: () => Promise<boolean> = async () => true, waiting = false, listedAt?: () => number | undefined): { presence: Presence; looks: () => number; wait: (on: boolean) => void } {
  let looks = 0;
  let waits = waiting;
  const p = new Presence({
    look: () => {
      looks++;
      return answer();
    },
    waiting: () => waits,
    now: () => Date.now(),
    ...(listedAt ? { listedAt } : {}),
  });
  made.push(p);
  return { presence: p, looks: () => looks, wait: (on) => (waits = on) };
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => {
  for (const p of made.splice(0)) p.dispose();
  vi.useRealTimers();
});

describe("presence", () => {
  it("asks nothing within a second of the watch's start or of the last look", async () => {
    const { presence: p, looks } = presence();
    expect(await p.check()).toBe(true);
    expect(looks()).toBe(0);
    vi.advanceTimersByTime(PRESENCE_INTERVAL_MS);
    expect(await p.check()).toBe(true);
    expect(await p.check()).toBe(true);
    expect(looks()).toBe(1);
    vi.advanceTimersByTime(PRESENCE_INTERVAL_MS - 1);
    await p.check();
    expect(looks()).toBe(1);
    vi.advanceTimersByTime(1);
    await p.check();
    expect(looks()).toBe(2);
  });

  it("never asks about a pane that printed since the last look: its output proves it is there", async () => {
    const { presence: p, looks } = presence();
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(PRESENCE_INTERVAL_MS);
      p.heard();
      expect(await p.check()).toBe(true);
    }
    expect(looks()).toBe(0);
    // Quiet for a second after the last output: asked.
    vi.advanceTimersByTime(PRESENCE_INTERVAL_MS);
    await p.check();
    expect(looks()).toBe(1);
  });

  it("shares one look among concurrent readers, and says false when the pane left", async () => {
    let answer: (here: boolean) => void = () => undefined;
    const { presence: p, looks } = presence(() => new Promise((resolve) => (answer = resolve)));
    vi.advanceTimersByTime(PRESENCE_INTERVAL_MS);
    const first = p.check();
    const second = p.check();
    answer(false);
    expect(await first).toBe(false);
    expect(await second).toBe(false);
    expect(looks()).toBe(1);
  });

  it("a listing of the session made for another pane counts as a look at this one", async () => {
    let listed: number | undefined;
    const { presence: p, looks } = presence(async () => true, false, () => listed);
    vi.advanceTimersByTime(PRESENCE_INTERVAL_MS);
    listed = Date.now() - 10; // another pane's look listed this one 10 ms ago
    expect(await p.check()).toBe(true);
    expect(looks()).toBe(0);
    // A second after that listing, with none newer: this pane looks itself.
    vi.advanceTimersByTime(PRESENCE_INTERVAL_MS - 10);
    await p.check();
    expect(looks()).toBe(1);
    // A listing that no longer holds the pane says nothing: its own look decides.
    listed = undefined;
    vi.advanceTimersByTime(PRESENCE_INTERVAL_MS);
    await p.check();
    expect(looks()).toBe(2);
  });

  it("a failed look says nothing left (the watch's own checks see a client that ended)", async () => {
    const { presence: p } = presence(() => Promise.reject(new Error("client closed")));
    vi.advanceTimersByTime(PRESENCE_INTERVAL_MS);
    expect(await p.check()).toBe(true);
  });

  it("looks about once a second while a reader waits, and not at all while none does", async () => {
    const { looks, wait } = presence(async () => true, true);
    await vi.advanceTimersByTimeAsync(5 * PRESENCE_INTERVAL_MS);
    expect(looks()).toBeGreaterThanOrEqual(4);
    expect(looks()).toBeLessThanOrEqual(5);
    wait(false);
    const before = looks();
    await vi.advanceTimersByTimeAsync(10 * PRESENCE_INTERVAL_MS);
    expect(looks()).toBe(before);
  });

  it("holds one timer however many panes are watched, and none once every watch is gone", async () => {
    const timers = vi.getTimerCount();
    const many = Array.from({ length: 50 }, (_, i) => presence(async () => true, i === 7));
    expect(vi.getTimerCount()).toBe(timers + 1);
    // The shared ticker still looks for the one pane a reader waits on, and only for it.
    await vi.advanceTimersByTimeAsync(3 * PRESENCE_INTERVAL_MS);
    expect(many.map((m) => m.looks() > 0)).toEqual(many.map((_, i) => i === 7));
    for (const p of made.splice(0)) p.dispose();
    expect(vi.getTimerCount()).toBe(timers);
  });
});
