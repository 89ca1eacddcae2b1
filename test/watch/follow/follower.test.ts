// The check a streamed watch makes before each read (Follower.revalidate), through its seam: a
// watch that says what it knows, no tmux (a follow, which asks tmux where the pane is, is the
// integration tests' part: test/integration/watch/follow.test.ts).
import { describe, expect, it } from "vitest";
import type { PaneObserver } from "../../../src/observe/pane/observer.js";
import type { TmuxServer } from "../../../src/tmux/server.js";
import { Follower, type Followed, type Mover } from "../../../src/watch/follow/follower.js";

function watch(overrides: Partial<Followed> & { closed?: boolean } = {}): Followed {
  const { closed = false, ...rest } = overrides;
  return {
    paneId: "%1",
    observer: { closed } as PaneObserver,
    connected: true,
    currentSession: "$0",
    disposed: false,
    respawned: false,
    unconfirmed: 0,
    confirmed: () => Promise.resolve(),
    stillThere: () => Promise.resolve(true),
    markClosed: () => undefined,
    stayed: () => Promise.resolve(),
    moveTo: () => Promise.resolve(),
    ...rest,
  };
}

/** Never asked in these cases: a follow would ask tmux. */
const mover: Mover = {
  server: {} as TmuxServer,
  streamable: () => Promise.reject(new Error("not asked")),
  lease: () => Promise.reject(new Error("not asked")),
  warn: () => undefined,
};

describe("Follower.revalidate", () => {
  it("a watch whose pane is there and unchanged still answers; a respawned one is replaced", async () => {
    expect(await new Follower(watch(), mover).revalidate()).toBeUndefined();
    expect(await new Follower(watch({ respawned: true }), mover).revalidate()).toBe("respawned");
  });

  it("a closed pane with output not yet confirmed answers only once tmux said who wrote it", async () => {
    const order: string[] = [];
    let confirm = (): void => undefined;
    const confirmed = new Promise<void>((resolve) => (confirm = resolve));
    const check = new Follower(watch({ closed: true, unconfirmed: 5, confirmed: () => confirmed.then(() => void order.push("confirmed")) }), mover)
      .revalidate()
      .then((reason) => order.push(`answered ${String(reason)}`));
    await Promise.resolve();
    expect(order).toEqual([]);
    confirm();
    await check;
    expect(order).toEqual(["confirmed", "answered undefined"]);
  });

  it("a live pane with output not yet confirmed answers at once (floods never wait)", async () => {
    const never = new Promise<void>(() => undefined);
    expect(await new Follower(watch({ unconfirmed: 5, confirmed: () => never }), mover).revalidate()).toBeUndefined();
  });

  it("asks whether a quiet pane is still in its session before answering", async () => {
    const asked: string[] = [];
    await new Follower(watch({ stillThere: () => (asked.push("look"), Promise.resolve(true)) }), mover).revalidate();
    expect(asked).toEqual(["look"]);
  });
});
