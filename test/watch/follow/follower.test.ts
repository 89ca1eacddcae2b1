// The check a streamed watch makes before each read (Follower.revalidate), through its seam: a
// watch that says what it knows, no tmux (a follow, which asks tmux where the pane is, is the
// integration tests' part: test/integration/watch/follow.test.ts).
import { describe, expect, it } from "vitest";
import { PanescopeError } from "../../../src/errors.js";
import type { PaneObserver } from "../../../src/observe/pane/observer.js";
import type { SessionLease } from "../../../src/tmux/sessions.js";
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

  it("a follow that failed is made again by the next read, not left until tmux says something new", async () => {
    let asked = 0;
    // Where the pane is: no answer the first time (a busy tmux), then in session $1.
    const server = {
      display: async () => {
        if (asked++ === 0) throw new PanescopeError("timeout", "no answer");
        return { paneId: "%1", panePid: "10", sessionId: "$1", windowId: "@2", dead: "0", status: "", signal: "", held: "", serverPid: "1", serverStart: "2" };
      },
    } as unknown as TmuxServer;
    const moved: string[] = [];
    const followed = watch({ observer: { closed: false, identity: { panePid: 10, serverPid: 1, serverStart: 2 } } as PaneObserver, moveTo: async () => void moved.push("moved") });
    const warned: string[] = [];
    const lease = { client: {}, release: () => undefined } as unknown as SessionLease;
    const follower = new Follower(followed, { server, streamable: async () => true, lease: async () => lease, warn: (line) => void warned.push(line) });
    await follower.follow();
    expect(warned).toEqual(["panescope: following %1: no answer"]);
    expect(moved).toEqual([]);
    expect(await follower.revalidate()).toBeUndefined();
    expect(moved).toEqual(["moved"]);
    // Followed: the next read asks nothing more.
    await follower.revalidate();
    expect(asked).toBe(2);
  });
});
