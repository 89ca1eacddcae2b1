// A retired pane found gone (watch/retired.ts, watch/gone.ts), without tmux: what is kept of a
// retired observer, and the closed answers its cursors get then, as a watched pane's would be.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PaneObserver } from "../../src/observe/pane/observer.js";
import { GoneWatch } from "../../src/watch/gone.js";
import { MAX_RETIRED, RetiredPanes } from "../../src/watch/retired.js";

const key = randomBytes(32);
const identity = { paneId: "%4", panePid: 10, serverPid: 20, serverStart: 30, instance: randomBytes(8) };

async function watched(): Promise<{ pane: PaneObserver; before: string; last: string }> {
  const pane = new PaneObserver({ identity, cols: 20, rows: 4, key });
  const before = (await pane.read()).cursor;
  pane.ingest(new TextEncoder().encode("hello\r\n"));
  const last = (await pane.read(before)).cursor;
  return { pane, before, last };
}

describe("a retired pane that is gone", () => {
  it("alive when retired: every cursor it issued is answered closed and missed (evicted), then its answer's cursor closed with nothing missed", async () => {
    const { pane, before, last } = await watched();
    const retired = new RetiredPanes();
    retired.add("%4", pane, "evicted");
    pane.dispose();
    const record = retired.get("%4");
    expect(record).toMatchObject({ closed: false, cols: 20, rows: 4, identity });
    const gone = new GoneWatch("%4", record ?? expect.unreachable(), key);
    for (const cursor of [before, last]) {
      expect(await gone.observer.read(cursor)).toMatchObject({ paneId: "%4", closed: true, missed: true, reason: "evicted", first: true });
    }
    const told = await gone.waitForChange(last, 60_000);
    expect(await gone.observer.read(told.cursor)).toMatchObject({ closed: true, missed: false, first: false, raw: "" });
    gone.dispose();
  });

  it("closed when retired: its last cursor missed nothing, an older one did", async () => {
    const { pane, before } = await watched();
    pane.markClosed({ status: 3 });
    const last = (await pane.read(before)).cursor;
    const retired = new RetiredPanes();
    retired.add("%4", pane, "evicted");
    pane.dispose();
    const gone = new GoneWatch("%4", retired.get("%4") ?? expect.unreachable(), key);
    expect(await gone.observer.read(last)).toMatchObject({ closed: true, missed: false, exit: { status: 3 } });
    expect(await gone.observer.read(before)).toMatchObject({ closed: true, missed: true, reason: "evicted" });
    gone.dispose();
  });

  it("read without a cursor says it missed the pane's last screen (a watched pane's read shows it): its blank screen is not the pane's", async () => {
    for (const closed of [false, true]) {
      const { pane } = await watched();
      if (closed) pane.markClosed({ status: 3 });
      const retired = new RetiredPanes();
      retired.add("%4", pane, "evicted");
      pane.dispose();
      const gone = new GoneWatch("%4", retired.get("%4") ?? expect.unreachable(), key);
      const screen = await gone.observer.read();
      expect(screen, `closed when retired: ${closed}`).toMatchObject({ paneId: "%4", closed: true, missed: true, reason: "evicted", first: true });
      expect(await gone.waitForChange(undefined, 60_000)).toMatchObject({ closed: true, missed: true, reason: "evicted" });
      // Its cursor reads on from there: nothing more missed.
      expect(await gone.observer.read(screen.cursor)).toMatchObject({ closed: true, missed: false, first: false });
      gone.dispose();
    }
  });

  it("are remembered up to a bound, the oldest let go first", () => {
    const retired = new RetiredPanes();
    const pane = { offset: 1, sequence: 2, identity, size: { cols: 1, rows: 1 }, closed: false, exitInfo: undefined } as unknown as PaneObserver;
    for (let i = 0; i <= MAX_RETIRED; i++) retired.add(`%${i}`, pane, "evicted");
    expect([retired.after("%0"), retired.after("%1"), retired.after(`%${MAX_RETIRED}`)]).toEqual([undefined, { offset: 1, seq: 2, reason: "evicted" }, { offset: 1, seq: 2, reason: "evicted" }]);
  });
});
