// A pane's process not yet on its terminal at the probe (a loaded machine, a pane just made): the
// life looks for it again for a while, and from the first find on, its output is confirmed by
// /proc instead of by tmux.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Witness } from "../../../src/watch/confirm/confirm.js";
import { PaneLife, type LifeHost } from "../../../src/watch/confirm/pane-life.js";
import type { PaneProcessIds } from "../../../src/watch/confirm/pane-process.js";

const IDS: PaneProcessIds = { serverPid: 10, panePid: 11, paneTty: "/dev/pts/3" };

/** A life whose finds fail `misses` times, then succeed; the times of the finds, and of the looks. */
function setup(misses: number) {
  const finds: number[] = [];
  const looks: number[] = [];
  const delivered: string[] = [];
  const asked: string[] = [];
  const start = performance.now();
  const witness: Witness = { same: () => (looks.push(performance.now() - start), true), close: () => undefined };
  const host: LifeHost = {
    paneId: "%1",
    // Asked through the watching client only when no witness vouches (never answered here).
    client: () => ({ closed: false, command: () => (asked.push("tmux"), new Promise(() => undefined)) }) as unknown as ReturnType<LifeHost["client"]>,
    observer: () => ({ identity: { panePid: 11 }, waiting: 0, closed: false, addBreak: () => undefined, ingest: (data: Uint8Array) => void delivered.push(Buffer.from(data).toString()) }) as unknown as ReturnType<LifeHost["observer"]>,
    session: () => "$0",
    displaced: () => undefined,
    ended: (close) => close(),
  };
  const life = new PaneLife(host, undefined, (ids) => {
    expect(ids).toEqual(IDS);
    finds.push(performance.now() - start);
    return finds.length > misses ? witness : undefined;
  });
  return { life, finds, looks, delivered, asked };
}

describe("PaneLife: the pane's process found late", () => {
  // The finds are timed: fake timers and clock, set before each life is made (setup reads the clock).
  beforeEach(() => void vi.useFakeTimers({ toFake: ["setTimeout", "performance"] }));
  afterEach(() => void vi.useRealTimers());

  it("found at the probe: no look again, output confirmed by the witness", async () => {
    const { life, finds, looks, delivered, asked } = setup(0);
    life.lookAt(IDS);
    life.confirmer.hold(Buffer.from("echo"));
    await Promise.resolve();
    vi.advanceTimersByTime(1000);
    expect(finds).toEqual([0]);
    expect(looks).toEqual([0]);
    expect(delivered).toEqual(["echo"]);
    expect(asked).toEqual([]);
  });

  it("found on the third try (6 ms after the probe): tmux confirms until then, the witness after", async () => {
    const { life, finds, looks, delivered, asked } = setup(2);
    life.lookAt(IDS);
    life.confirmer.hold(Buffer.from("early"));
    await Promise.resolve();
    expect(asked).toEqual(["tmux"]);
    vi.advanceTimersByTime(6);
    expect(finds).toEqual([0, 2, 6]);
    life.confirmer.hold(Buffer.from("late"));
    await Promise.resolve();
    // One look covers everything held: the early bytes with the late ones, in order.
    expect(looks).toEqual([6]);
    expect(delivered).toEqual(["early", "late"]);
    vi.advanceTimersByTime(1000);
    expect(finds).toHaveLength(3);
  });

  it("never found: looked for at 2, 4, 8… ms for 250 ms after the probe, then never again", () => {
    const { life, finds } = setup(Infinity);
    life.lookAt(IDS);
    vi.advanceTimersByTime(10_000);
    expect(finds).toEqual([0, 2, 6, 14, 30, 62, 126]);
  });

  it("stops looking once the watch is over (stopped, or the pane respawned)", () => {
    const stopped = setup(Infinity);
    stopped.life.lookAt(IDS);
    vi.advanceTimersByTime(3);
    stopped.life.confirmer.stop();
    vi.advanceTimersByTime(1000);
    expect(stopped.finds).toEqual([0, 2]);
    const respawned = setup(Infinity);
    respawned.life.lookAt(IDS);
    respawned.life.markRespawned();
    vi.advanceTimersByTime(1000);
    expect(respawned.finds).toEqual([0]);
  });
});

describe("PaneLife: the pane's end", () => {
  it("is told to readers once the last audit is done (it takes tmux's final lines), with how it ended", async () => {
    let audited!: () => void;
    const closes: unknown[] = [];
    const observer = { identity: { panePid: 11 }, waiting: 1, closed: false, markClosed: (exit: unknown) => void ((observer.closed = true), closes.push(exit)), ingest: () => undefined, addBreak: () => undefined };
    const host: LifeHost = {
      paneId: "%1",
      client: () => ({ closed: false, command: () => new Promise(() => undefined) }) as unknown as ReturnType<LifeHost["client"]>,
      observer: () => observer as unknown as ReturnType<LifeHost["observer"]>,
      session: () => "$0",
      displaced: () => undefined,
      ended: (close) => void (audited = close),
    };
    const life = new PaneLife(host, undefined, () => undefined);
    life.markClosed();
    life.markClosed({ status: 7 }); // how it ended, found while the audit ran
    await Promise.resolve();
    expect(closes).toEqual([]);
    audited();
    await new Promise((resolve) => setImmediate(resolve));
    expect(closes).toEqual([{ status: 7 }]);
  });
});
