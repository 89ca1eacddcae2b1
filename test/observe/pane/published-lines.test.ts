// A read view's lines: stamps and texts as the publications sent them, texts cut out when read.
import { describe, expect, it } from "vitest";
import { PublishedLines } from "../../../src/observe/pane/published-lines.js";

const take = (store: PublishedLines, rows: Array<[number, number, string]>): void =>
  store.take(Int32Array.from(rows.map((r) => r[0])), Int32Array.from(rows.map((r) => r[1])), rows.map((r) => r[2]).join("\n"));

describe("PublishedLines", () => {
  it("holds each line's latest stamp and text, lines never sent as blank and unstamped", () => {
    const store = new PublishedLines();
    store.reset(10);
    take(store, [
      [10, 1, "ten"],
      [12, 1, "twelve"],
      [13, 1, ""],
    ]);
    take(store, [[12, 2, "twelve again"]]);
    expect([10, 11, 12, 13].map((line) => [store.stamp(line), store.text(line)])).toEqual([
      [1, "ten"],
      [0, ""],
      [2, "twelve again"],
      [1, ""],
    ]);
    expect([store.first, store.end]).toEqual([10, 14]);
  });

  it("forgets the lines before the first one tracked, also when that is past every line held", () => {
    const store = new PublishedLines();
    take(store, [
      [0, 1, "a"],
      [1, 1, "b"],
      [2, 1, "c"],
    ]);
    store.dropBefore(1);
    expect([store.first, store.text(1), store.text(2)]).toEqual([1, "b", "c"]);
    store.dropBefore(50);
    expect([store.first, store.end]).toEqual([50, 50]);
    take(store, [[51, 3, "fifty-one"]]);
    expect([store.stamp(50), store.text(51), store.end]).toEqual([0, "fifty-one", 52]);
  });

  it("skips lines before the first held", () => {
    const store = new PublishedLines();
    store.reset(5);
    take(store, [
      [3, 1, "gone"],
      [5, 1, "five"],
    ]);
    expect([store.first, store.end, store.text(5)]).toEqual([5, 6, "five"]);
  });
});
