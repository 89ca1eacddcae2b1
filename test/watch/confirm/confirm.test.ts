// The confirmer: a reader can wait until the output received so far is confirmed, a respawn
// releases the wait without handing the new process's bytes to the old observer, and the looks at
// /proc drift apart during a flood nobody waits for, and come once it goes quiet.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Confirmer, type ConfirmTarget } from "../../../src/watch/confirm/confirm.js";

function setup(awaited = (): boolean => false): { confirmer: Confirmer; delivered: string[]; events: string[] } {
  const delivered: string[] = [];
  const events: string[] = [];
  const target: ConfirmTarget = {
    paneId: "%1",
    panePid: () => 7,
    session: () => "$0",
    awaited,
    // Answered by the test (settle), as the watching client's reply would be.
    askHere: () => (events.push("asked"), new Promise<void>(() => undefined)),
    deliver: (data) => void delivered.push(Buffer.from(data).toString()),
    respawned: () => void events.push("respawned"),
    gone: () => void events.push("gone"),
    close: () => void events.push("closed"),
  };
  return { confirmer: new Confirmer(target, undefined), delivered, events };
}

const settledSoon = async (promise: Promise<void>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};

describe("Confirmer.confirmed", () => {
  it("resolves at once with nothing held, and once tmux confirmed what was held when asked", async () => {
    const { confirmer, delivered, events } = setup();
    expect(await settledSoon(confirmer.confirmed())).toBe(true);
    confirmer.hold(Buffer.from("ab"));
    expect(events).toContain("asked");
    const waiting = confirmer.confirmed();
    confirmer.hold(Buffer.from("cd")); // after the wait began: not waited for
    expect(await settledSoon(waiting)).toBe(false);
    confirmer.settle({ panePid: 7, dead: false }, 2, true);
    expect(await settledSoon(waiting)).toBe(true);
    expect(delivered).toEqual(["ab"]);
  });

  it("a new process in the pane ends the wait, and its bytes never reach the observer", async () => {
    const { confirmer, delivered, events } = setup();
    confirmer.hold(Buffer.from("new process"));
    const waiting = confirmer.confirmed();
    confirmer.settle({ panePid: 8, dead: false }, 11, true);
    expect(await settledSoon(waiting)).toBe(true);
    expect(events).toContain("respawned");
    expect(delivered).toEqual([]);
  });
});

describe("Confirmer with a witness (/proc)", () => {
  afterEach(() => void vi.useRealTimers());

  const witness = (answers: boolean[]) => {
    const looks = { count: 0, closed: false };
    return {
      looks,
      same: () => (looks.count++, answers.shift() ?? false),
      close: () => void (looks.closed = true),
    };
  };

  it("output goes on after one look per turn, however many chunks came, and tmux is not asked", async () => {
    const { confirmer, delivered, events } = setup();
    const w = witness([true, true]);
    confirmer.useWitness(w);
    confirmer.hold(Buffer.from("ab"));
    confirmer.hold(Buffer.from("cd"));
    expect(delivered).toEqual([]);
    await Promise.resolve();
    expect(delivered).toEqual(["ab", "cd"]);
    expect(w.looks.count).toBe(1);
    expect(events).not.toContain("asked");
    expect(await settledSoon(confirmer.confirmed())).toBe(true);
  });

  it("a look that cannot vouch hands the pane to tmux for good: the witness is let go and tmux decides", async () => {
    const { confirmer, delivered, events } = setup();
    const w = witness([false]);
    confirmer.useWitness(w);
    confirmer.hold(Buffer.from("new process"));
    await Promise.resolve();
    expect(delivered).toEqual([]);
    expect(events).toEqual(["asked"]);
    expect(w.looks.closed).toBe(true);
    confirmer.settle({ panePid: 8, dead: false }, 11, true);
    expect(events).toContain("respawned");
    confirmer.hold(Buffer.from("more"));
    await Promise.resolve();
    expect(w.looks.count).toBe(1);
  });

  it("while output keeps coming, looks are at least 2 ms apart; the first after a pause is at once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const { confirmer, delivered } = setup();
    const w = witness([true, true, true]);
    confirmer.useWitness(w);
    confirmer.hold(Buffer.from("a"));
    await Promise.resolve();
    expect(delivered).toEqual(["a"]);
    confirmer.hold(Buffer.from("b"));
    confirmer.hold(Buffer.from("c"));
    await Promise.resolve();
    expect(delivered).toEqual(["a"]);
    vi.advanceTimersByTime(1);
    expect(delivered).toEqual(["a"]);
    vi.advanceTimersByTime(1);
    expect(delivered).toEqual(["a", "b", "c"]);
    expect(w.looks.count).toBe(2);
    vi.advanceTimersByTime(50);
    confirmer.hold(Buffer.from("d"));
    await Promise.resolve();
    expect(delivered).toEqual(["a", "b", "c", "d"]);
  });

  /** A chunk of output every millisecond for `ms`; the times of the looks, from the flood's start. */
  const flood = async (awaited: () => boolean, ms: number): Promise<{ looks: number[]; delivered: string[]; confirmer: Confirmer }> => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const { confirmer, delivered } = setup(awaited);
    const looks: number[] = [];
    const start = performance.now();
    confirmer.useWitness({ same: () => (looks.push(performance.now() - start), true), close: () => undefined });
    for (let t = 0; t < ms; t++) {
      confirmer.hold(Buffer.from(`${t};`));
      await Promise.resolve(); // a look due now runs from a resolved promise
      vi.advanceTimersByTime(1);
    }
    return { looks, delivered, confirmer };
  };

  it("during a flood nobody waits for, looks drift apart to 16 ms, and every chunk is delivered in order", async () => {
    const { looks, delivered, confirmer } = await flood(() => false, 80);
    const gaps = looks.slice(1).map((at, i) => at - (looks[i] as number));
    expect(gaps.slice(0, 6)).toEqual([2, 4, 8, 16, 16, 16]);
    expect(delivered.join("")).toBe(Array.from({ length: looks.at(-1) ?? 0 }, (_, t) => `${t};`).join(""));
    // After a pause, the next output is looked at once again.
    vi.advanceTimersByTime(100);
    const count = looks.length;
    confirmer.hold(Buffer.from("after"));
    await Promise.resolve();
    expect(looks).toHaveLength(count + 1);
    expect(delivered.at(-1)).toBe("after");
  });

  it("a flood's last bytes are looked at once output has been quiet for 2 ms, not at the end of a 16 ms interval", async () => {
    const { looks, delivered } = await flood(() => false, 41);
    // Looks at 0, 2, 6, 14 and 30 ms: the next is due at 46, the last chunk came at 40.
    expect(looks).toEqual([0, 2, 6, 14, 30]);
    // The timer checks every 2 ms: the one at 42 heard the chunk of 40, the one at 44 heard nothing.
    const last = "40;";
    vi.advanceTimersByTime(2); // to 43
    expect(delivered).not.toContain(last);
    vi.advanceTimersByTime(1);
    expect(looks.at(-1)).toBe(44);
    expect(delivered.at(-1)).toBe(last);
    expect(delivered.join("")).toBe(Array.from({ length: 41 }, (_, t) => `${t};`).join(""));
  });

  it("a caller that waits for the output confirmed has the waiting look made at once, and the timer is spent", async () => {
    const { looks, delivered, confirmer } = await flood(() => false, 41);
    expect(looks).toEqual([0, 2, 6, 14, 30]); // the next would come at 44 (above)
    const waiting = confirmer.confirmed();
    expect(looks).toEqual([0, 2, 6, 14, 30, 41]);
    expect(await settledSoon(waiting)).toBe(true);
    expect(delivered.join("")).toBe(Array.from({ length: 41 }, (_, t) => `${t};`).join(""));
    vi.advanceTimersByTime(20);
    expect(looks).toHaveLength(6);
  });

  it("while a reader waits on the pane, looks stay 2 ms apart", async () => {
    const { looks } = await flood(() => true, 40);
    const gaps = looks.slice(1).map((at, i) => at - (looks[i] as number));
    expect(new Set(gaps)).toEqual(new Set([2]));
  });

  it("a stopped watch lets its witness go", () => {
    const { confirmer } = setup();
    const w = witness([]);
    confirmer.useWitness(w);
    confirmer.stop();
    expect(w.looks.closed).toBe(true);
  });
});
