// expandTabs: a tmux 3.6+ capture's tabs become the blanks the screen shows.
import { describe, expect, it } from "vitest";
import { columnsOf, expandTabs } from "../../src/tmux/capture.js";

describe("expandTabs", () => {
  it("moves to the next 8-column stop, counting wide characters as two columns", () => {
    expect(expandTabs("a\tb")).toBe(`a${" ".repeat(7)}b`);
    expect(expandTabs("12345678\tx")).toBe(`12345678${" ".repeat(8)}x`);
    expect(expandTabs("中文\tx")).toBe(`中文${" ".repeat(4)}x`);
    expect(expandTabs("e\u0301\t|")).toBe(`e\u0301${" ".repeat(7)}|`);
  });

  it("leaves a line without tabs alone", () => {
    expect(expandTabs("no tabs  ")).toBe("no tabs  ");
  });

  it("columnsOf: marks and variation selectors take none, CJK and emoji two", () => {
    expect(["a", "\u0301", "\ufe0f", "\u200d", "中", "🙂", "ｱ"].map(columnsOf)).toEqual([1, 0, 0, 0, 2, 2, 1]);
  });
});
