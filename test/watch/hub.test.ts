// The hub as a registry, through its seam: fake watches (the Watch interface) from a fake starter,
// no tmux. One watch per pane, a replaced watch's successor numbered after it, a handover that
// keeps the entry, the sweep that spares panes in use, and reads that go to the watch's own wait.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Delta, PaneExit } from "../../src/observe/read/delta.js";
import type { PaneObserver } from "../../src/observe/pane/observer.js";
import { TmuxServer } from "../../src/tmux/server.js";
import { Hub, type Starter } from "../../src/watch/hub.js";
import type { After } from "../../src/watch/seed/observer.js";
import { ANSWERS, type Verdict, type Watch } from "../../src/watch/watch.js";

class FakeWatch implements Watch {
  lastUsed = Date.now();
  respawned = false;
  disposed = false;
  inUse = false;
  verdict: Verdict = ANSWERS;
  readonly auditStats = undefined;
  readonly reads: string[] = [];
  /** caughtUp and markClosed calls, in order. */
  readonly told: string[] = [];
  readonly observer: PaneObserver;

  constructor(
    readonly paneId: string,
    readonly streaming: boolean,
    offset: number,
  ) {
    const delta = (how: string): Promise<Delta> => {
      this.reads.push(how);
      return Promise.resolve({ paneId, closed: false } as Delta);
    };
    this.observer = { offset, sequence: offset * 10, closed: false, healCount: 0, waiting: 0, read: () => delta("read") } as unknown as PaneObserver;
    this.waitForChange = () => delta("wait");
  }

  waitForChange: Watch["waitForChange"];

  caughtUp(): Promise<void> {
    this.told.push("caughtUp");
    return Promise.resolve();
  }

  atRest(): Promise<void> {
    return Promise.resolve();
  }

  markClosed(exit?: PaneExit): void {
    this.told.push(`closed ${JSON.stringify(exit)}`);
  }

  revalidate(): Promise<Verdict> {
    return Promise.resolve(this.verdict);
  }

  dispose(): void {
    this.disposed = true;
  }
}

function setup(maxPanes = 64): { hub: Hub; started: Array<{ paneId: string; after: After | undefined; watch: FakeWatch }> } {
  const started: Array<{ paneId: string; after: After | undefined; watch: FakeWatch }> = [];
  const starter: Starter = {
    start: (paneId, after) => {
      const watch = new FakeWatch(paneId, true, started.length + 1);
      started.push({ paneId, after, watch });
      return Promise.resolve(watch);
    },
    closeAll: () => Promise.resolve(),
  };
  // The server is never asked: every read names its pane.
  const hub = new Hub({ server: new TmuxServer({ socketName: "never-started" }), key: randomBytes(32), maxPanes, warn: () => undefined }, { starter });
  return { hub, started };
}

describe("Hub as a registry", () => {
  it("keeps one watch per pane however its id is spelled, also for readers that arrive together", async () => {
    const { hub, started } = setup();
    await Promise.all([hub.capture({ paneId: "%7" }), hub.capture({ paneId: "%07" }), hub.capture({ paneId: "%7" })]);
    expect(started.map((s) => s.paneId)).toEqual(["%7"]);
    expect(hub.watching).toEqual([{ paneId: "%7", streaming: true, closed: false, heals: 0 }]);
    await hub.close();
  });

  it("told that a pane's program ended, closes its watch once caught up, and leaves panes not watched alone", async () => {
    const { hub, started } = setup();
    await hub.paneEnded("%4", { status: 0 });
    expect(started).toEqual([]);
    await hub.capture({ paneId: "%4" });
    await hub.paneEnded("%04", { status: 3 });
    expect(started[0]?.watch.told).toEqual(["caughtUp", 'closed {"status":3}']);
    await hub.close();
  });

  it("never lets go for the cap a pane read just now: with every other pane in use, it runs over the cap a while", async () => {
    const { hub, started } = setup(1);
    await hub.capture({ paneId: "%1" });
    const waited = started[0]?.watch as FakeWatch;
    waited.inUse = true;
    await hub.capture({ paneId: "%2" });
    const read = started[1]?.watch as FakeWatch;
    expect([waited.disposed, read.disposed]).toEqual([false, false]);
    expect(hub.watching.map((w) => w.paneId).sort()).toEqual(["%1", "%2"]);
    // A second on, it is the least recently read: the next pane read makes it go.
    read.lastUsed -= 1000;
    await hub.capture({ paneId: "%3" });
    expect(read.disposed).toBe(true);
    expect(hub.watching.map((w) => w.paneId).sort()).toEqual(["%1", "%3"]);
    await hub.close();
  });

  it("replaces a watch that no longer answers, numbering its successor after it and saying why", async () => {
    const { hub, started } = setup();
    await hub.capture({ paneId: "%1" });
    const first = started[0]?.watch as FakeWatch;
    first.verdict = { kind: "replace", reason: "respawned" };
    await hub.capture({ paneId: "%1" });
    expect(first.disposed).toBe(true);
    expect(started.map((s) => s.after)).toEqual([undefined, { offset: 1, seq: 10, reason: "respawned" }]);
    await hub.close();
  });

  it("a handover puts the next watch in the entry without starting another", async () => {
    const { hub, started } = setup();
    await hub.capture({ paneId: "%1" });
    const poll = started[0]?.watch as FakeWatch;
    const stream = new FakeWatch("%1", true, 5);
    poll.verdict = { kind: "handover", next: stream };
    await hub.capture({ paneId: "%1" });
    expect(poll.disposed).toBe(true);
    expect(started).toHaveLength(1);
    expect(await hub.observer("%1")).toBe(stream.observer);
    await hub.close();
    expect(stream.disposed).toBe(true);
  });

  it("retires the least recently read beyond maxPanes, but never a pane someone waits on", async () => {
    const { hub, started } = setup(2);
    await hub.capture({ paneId: "%1" });
    await hub.capture({ paneId: "%2" });
    const [one, two] = started.map((s) => s.watch) as [FakeWatch, FakeWatch];
    one.lastUsed = 1;
    two.lastUsed = 2;
    one.inUse = true;
    await hub.capture({ paneId: "%3" });
    expect([one.disposed, two.disposed]).toEqual([false, true]);
    expect(hub.watching.map((w) => w.paneId).sort()).toEqual(["%1", "%3"]);
    await hub.close();
  });

  it("a read with a wait goes to the watch's own wait (a polled watch polls meanwhile), one without reads at once", async () => {
    const { hub, started } = setup();
    await hub.capture({ paneId: "%1" });
    await hub.capture({ paneId: "%1", waitMs: 50 });
    expect(started[0]?.watch.reads).toEqual(["read", "wait"]);
    await hub.close();
  });
});
