// The pane listing shared by every watch on one tmux server (watch/follow/roster.ts): one question
// in flight at a time, its answer kept per server, a pane counted present only in the session its
// client sees, and never while tmux has not said which session that is.
import { describe, expect, it } from "vitest";
import { TmuxServer } from "../../../src/tmux/server.js";
import { listedAt, listedHere, listServer, type RosterClient } from "../../../src/watch/follow/roster.js";

type Answer = string[] | Error;

/** Clients of one server whose list-panes answers wait until the test releases them. */
function server(): { client: (session: string | undefined) => RosterClient; asked: string[][]; answer: (lines: Answer) => void } {
  const tmux = new TmuxServer({ socketName: "roster-test" });
  const asked: string[][] = [];
  const pending: Array<(lines: Answer) => void> = [];
  const command = (argv: readonly string[]): Promise<string[]> => {
    asked.push([...argv]);
    return new Promise((resolve, reject) => pending.push((lines) => (lines instanceof Error ? reject(lines) : resolve(lines))));
  };
  return { asked, answer: (lines) => pending.shift()?.(lines), client: (session) => ({ server: tmux, currentSession: session, command }) };
}

describe("roster", () => {
  it("asks once for concurrent looks from any client of the server, and the answer counts for each session's panes", async () => {
    const s = server();
    const [one, two] = [s.client("$1"), s.client("$2")];
    const before = performance.now();
    const first = listServer(one);
    const second = listServer(two);
    expect(s.asked).toEqual([["list-panes", "-a", "-F", "#{session_id} #{pane_id}"]]);
    s.answer(["$1 %1", "$1 %2", "$2 %3", "$2 %2"]);
    const listing = await first;
    expect(await second).toBe(listing);
    expect([listedHere(listing, one, "%1"), listedHere(listing, one, "%3"), listedHere(listing, two, "%3")]).toEqual([true, false, true]);
    // A window linked into both sessions: its pane is in each.
    expect([listedHere(listing, one, "%2"), listedHere(listing, two, "%2")]).toEqual([true, true]);
    const at = listedAt(two, "%3");
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(performance.now());
    expect(listedAt(one, "%3")).toBeUndefined();
    // Answered: the next look asks again, and its listing replaces the last.
    const third = listServer(one);
    expect(s.asked).toHaveLength(2);
    s.answer(["$1 %1"]);
    await third;
    expect(listedAt(two, "%3")).toBeUndefined();
    expect(listedAt(one, "%1")).toBeGreaterThanOrEqual(at ?? Infinity);
  });

  it("a client whose session tmux has not named yet finds nothing listed", async () => {
    const s = server();
    const unnamed = s.client(undefined);
    const asking = listServer(unnamed);
    s.answer(["$1 %1"]);
    expect(listedHere(await asking, unnamed, "%1")).toBe(false);
    expect(listedAt(unnamed, "%1")).toBeUndefined();
  });

  it("keeps each server's listing apart, and a failed question keeps the last answer and asks again next time", async () => {
    const [a, b] = [server(), server()];
    const listed = listServer(a.client("$1"));
    a.answer(["$1 %5"]);
    await listed;
    expect(listedAt(b.client("$1"), "%5")).toBeUndefined();
    const failed = listServer(a.client("$1"));
    a.answer(new Error("tmux went away"));
    await expect(failed).rejects.toThrow("tmux went away");
    expect(listedAt(a.client("$1"), "%5")).toBeDefined();
    void listServer(a.client("$1"));
    expect(a.asked).toHaveLength(3);
  });
});
