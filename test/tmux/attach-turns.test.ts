// Our control clients' attaches and detaches never overlap, and a detach is settled (one round trip
// to tmux) before the next attach begins: tmux 3.2a–3.6a crash when a detach is announced to a
// control client still identifying (src/tmux/attach-turns.ts).
import { describe, expect, it } from "vitest";
import { AttachTurns } from "../../src/tmux/attach-turns.js";

/** A promise the test ends by hand. */
function gate(): { promise: Promise<void>; open(): void; fail(): void } {
  let open!: () => void;
  let fail!: () => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = () => reject(new Error("failed"));
  });
  return { promise, open, fail };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("attach turns", () => {
  it("a detach waits for the attaches in flight, and the next attach for the detach and its round trip", async () => {
    const log: string[] = [];
    const settled = gate();
    const turns = new AttachTurns(async () => {
      log.push("settle");
      await settled.promise;
    });
    const first = gate();
    const attached = turns.attach(async () => {
      log.push("attach 1");
      await first.promise;
      log.push("attached 1");
    });
    await turn();
    const detached = turns.detach(async () => {
      log.push("detach");
    });
    const second = turns.attach(async () => {
      log.push("attach 2");
    });
    await turn();
    expect(log).toEqual(["attach 1"]);
    first.open();
    await attached;
    await turn();
    expect(log).toEqual(["attach 1", "attached 1", "detach", "settle"]);
    settled.open();
    await detached;
    await second;
    expect(log).toEqual(["attach 1", "attached 1", "detach", "settle", "attach 2"]);
  });

  it("attaches run side by side while nothing detaches", async () => {
    const turns = new AttachTurns(() => Promise.resolve());
    const both = [gate(), gate()];
    const started: number[] = [];
    const attaches = both.map((g, i) =>
      turns.attach(async () => {
        started.push(i);
        await g.promise;
      }),
    );
    await turn();
    expect(started).toEqual([0, 1]);
    for (const g of both) g.open();
    await Promise.all(attaches);
  });

  it("a failed attach, detach or round trip holds up nothing after it", async () => {
    const turns = new AttachTurns(() => Promise.reject(new Error("no server")));
    const failing = gate();
    const attach = turns.attach(() => failing.promise);
    failing.fail();
    await expect(attach).rejects.toThrow("failed");
    await expect(turns.detach(() => Promise.reject(new Error("close failed")))).rejects.toThrow("close failed");
    await expect(turns.attach(() => Promise.resolve("attached"))).resolves.toBe("attached");
  });
});
