// The presence look of a streamed pane (watch/follow/place.ts `present`): the server-wide listing
// answers when it shows the pane in its client's session; otherwise (not shown there, or the listing
// failed) the pane's own client is asked, and only its answer says the pane left.
import { describe, expect, it } from "vitest";
import { TmuxServer } from "../../../src/tmux/server.js";
import { parseLayout } from "../../../src/tmux/layout.js";
import { PanePlace } from "../../../src/watch/follow/place.js";

/** A watching client on its own server object (rosters are per server), answering from `reply`. */
function place(paneId: string, reply: (argv: readonly string[]) => Promise<string[]>): { place: PanePlace; asked: string[][]; left: () => number } {
  const asked: string[][] = [];
  let left = 0;
  const client = {
    server: new TmuxServer({ socketName: `place-test-${Math.random()}` }),
    currentSession: "$1",
    closed: false,
    command: (argv: readonly string[]) => {
      asked.push([...argv]);
      return reply(argv);
    },
  };
  const p = new PanePlace({ paneId, version: undefined, client: () => client, resized: () => undefined, left: () => left++, waiting: () => false });
  return { place: p, asked, left: () => left };
}

const listAll = ["list-panes", "-a", "-F", "#{session_id} #{pane_id}"];
const listOwn = ["list-panes", "-s", "-F", "#{pane_id}"];

describe("a pane's presence look", () => {
  it("is answered by the listing of every session when it shows the pane in its client's session", async () => {
    const p = place("%3", async () => ["$1 %3", "$2 %4"]);
    expect(await p.place.present()).toBe(true);
    expect(p.asked).toEqual([listAll]);
    p.place.dispose();
  });

  it("asks its own client when the listing shows the pane elsewhere, and says left only on that answer", async () => {
    const p = place("%4", async (argv) => (argv.includes("-a") ? ["$1 %3", "$2 %4"] : ["%3"]));
    expect(await p.place.present()).toBe(false);
    expect(p.asked).toEqual([listAll, listOwn]);
    expect(p.left()).toBe(1);
    p.place.dispose();
  });

  it("asks its own client when the listing failed", async () => {
    const p = place("%3", async (argv) => {
      if (argv.includes("-a")) throw new Error("the client that asked ended");
      return ["%3"];
    });
    expect(await p.place.present()).toBe(true);
    expect(p.asked).toEqual([listAll, listOwn]);
    expect(p.left()).toBe(0);
    p.place.dispose();
  });
});

describe("a pane's layouts", () => {
  /** A %layout-change of window `windowId` holding the panes `ids` side by side, 30x10 each. */
  function layout(windowId: string, ids: number[]): Parameters<PanePlace["layout"]>[0] {
    const cells = ids.map((id, i) => `30x10,${i * 31},0,${id}`);
    const text = ids.length === 1 ? `abcd,${cells[0] ?? ""}` : `abcd,${ids.length * 31 - 1}x10,0,0{${cells.join(",")}}`;
    return { type: "layout-change", windowId, layout: text, panes: parseLayout(text) ?? [] };
  }

  it("says left when its window's layout lacks it, and joined when it shows in another window (maybe back from outside the session)", () => {
    const p = place("%3", async () => []);
    p.place.took(30, 10, "@1");
    expect(p.place.layout(layout("@1", [3, 4]))).toBeUndefined();
    expect(p.place.layout(layout("@2", [5]))).toBeUndefined();
    expect(p.place.layout(layout("@1", [4]))).toBe("left");
    expect(p.place.layout(layout("@2", [5, 3]))).toBe("joined");
    expect(p.place.windowId).toBe("@2");
    expect(p.place.layout(layout("@2", [3]))).toBeUndefined();
    p.place.dispose();
  });
});
