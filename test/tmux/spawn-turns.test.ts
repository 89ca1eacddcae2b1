import { describe, expect, it } from "vitest";
import { SpawnTurns } from "../../src/tmux/spawn-turns.js";

describe("SpawnTurns", () => {
  it("lets one waiting caller spawn per turn, in the order they asked", async () => {
    const turns: Array<() => void> = [];
    const gate = new SpawnTurns((next) => turns.push(next));
    const started: string[] = [];
    const waits = ["a", "b", "c"].map((name) => gate.next().then(() => started.push(name)));
    expect(turns).toHaveLength(1); // one turn asked for, however many wait
    for (const expected of [["a"], ["a", "b"], ["a", "b", "c"]]) {
      turns.shift()?.();
      await Promise.resolve();
      expect(started).toEqual(expected);
    }
    await Promise.all(waits);
    expect(turns).toHaveLength(0); // nobody waits: no more turns asked for
  });
});
