// The session listing shared by the watches on one control client (watch/follow/roster.ts): one
// question in flight at a time, its answer kept per client, and a pane it did not list never
// taken as present.
import { describe, expect, it } from "vitest";
import { listedAt, listSession } from "../../../src/watch/follow/roster.js";

/** A client whose list-panes answers wait until the test releases them. */
function client(): { command: (argv: readonly string[]) => Promise<string[]>; asked: string[][]; answer: (panes: string[] | Error) => void } {
  const asked: string[][] = [];
  const pending: Array<(panes: string[] | Error) => void> = [];
  return {
    asked,
    command: (argv) => {
      asked.push([...argv]);
      return new Promise((resolve, reject) => pending.push((panes) => (panes instanceof Error ? reject(panes) : resolve(panes))));
    },
    answer: (panes) => pending.shift()?.(panes),
  };
}

describe("roster", () => {
  it("asks once for concurrent looks, and the answer counts for every pane it listed", async () => {
    const c = client();
    const before = performance.now();
    const first = listSession(c);
    const second = listSession(c);
    expect(c.asked).toEqual([["list-panes", "-s", "-F", "#{pane_id}"]]);
    c.answer(["%1", "%2"]);
    expect([...(await first).panes]).toEqual(["%1", "%2"]);
    expect(await second).toBe(await first);
    const at = listedAt(c, "%2");
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(performance.now());
    expect(listedAt(c, "%3")).toBeUndefined();
    // Answered: the next look asks again, and its listing replaces the last.
    const third = listSession(c);
    expect(c.asked).toHaveLength(2);
    c.answer(["%1"]);
    await third;
    expect(listedAt(c, "%2")).toBeUndefined();
    expect(listedAt(c, "%1")).toBeGreaterThanOrEqual(at ?? Infinity);
  });

  it("keeps each client's listing apart, and a failed question keeps the last answer and asks again next time", async () => {
    const [a, b] = [client(), client()];
    const listed = listSession(a);
    a.answer(["%5"]);
    await listed;
    expect(listedAt(b, "%5")).toBeUndefined();
    const failed = listSession(a);
    a.answer(new Error("tmux went away"));
    await expect(failed).rejects.toThrow("tmux went away");
    expect(listedAt(a, "%5")).toBeDefined();
    void listSession(a);
    expect(a.asked).toHaveLength(3);
  });
});
