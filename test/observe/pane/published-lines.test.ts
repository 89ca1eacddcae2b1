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

  it("answers as a plain list would while lines come and go around its ring and it grows", () => {
    // A model: line number → [stamp, text]; the store must agree after every step.
    const store = new PublishedLines();
    const model = new Map<number, [number, string]>();
    let first = 0;
    let end = 0;
    let seed = 7;
    let held = 0;
    const random = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let step = 1; step <= 400; step++) {
      if (random(20) === 0) {
        const to = first + random(Math.floor((end - first) / 2) + 40);
        store.dropBefore(to);
        if (to > first) {
          for (let line = first; line < to; line++) model.delete(line);
          first = to;
          end = Math.max(end, to);
        }
      }
      // A publication: some lines near the end (new ones, and some earlier ones changed).
      const rows: Array<[number, number, string]> = [];
      const to = end + random(60);
      for (let line = Math.max(first, end - random(30)); line < to; line += 1 + random(3)) rows.push([line, step, `l${line}s${step}`]);
      take(store, rows);
      for (const [line, stamp, text] of rows) model.set(line, [stamp, text]);
      end = Math.max(end, (rows.at(-1)?.[0] ?? end - 1) + 1);
      expect([store.first, store.end]).toEqual([first, end]);
      for (let line = first - 2; line < end + 2; line++) {
        held = Math.max(held, end - first);
        const [stamp, text] = model.get(line) ?? [0, ""];
        expect([store.stamp(line), store.text(line)]).toEqual([stamp, text]);
      }
    }
    expect(held).toBeGreaterThan(1024); // it grew from 256 at least twice
  });
});
