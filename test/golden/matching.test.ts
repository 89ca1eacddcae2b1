// How an error message shows a screen: framed so trailing spaces show, runs of blank rows folded.
import { describe, expect, it } from "vitest";
import { frameScreen } from "../../src/golden/matching.js";

describe("frameScreen", () => {
  it("frames each row so trailing spaces show", () => {
    expect(frameScreen(["$ ls", "a b"])).toBe(["┌────┐", "│$ ls│", "│a b │", "└────┘"].join("\n"));
  });

  it("folds a run of blank rows into one line naming them: an 80x24 screen with one prompt is 3 lines inside the frame", () => {
    const screen = ["$ ls", "", "", "a", ...Array<string>(20).fill(" ".repeat(80))];
    expect(frameScreen(screen).split("\n")).toEqual([`┌${"─".repeat(80)}┐`, `│${"$ ls".padEnd(80)}│`, "┆ rows 1–2 blank", `│${"a".padEnd(80)}│`, "┆ rows 4–23 blank", `└${"─".repeat(80)}┘`]);
  });

  it("is as wide as the screen and measures rows in cells: a wide character takes two, the right edge lines up", () => {
    expect(frameScreen(["中文 a", "b"], 8)).toBe(["┌────────┐", "│中文 a  │", "│b       │", "└────────┘"].join("\n"));
  });

  it("keeps a single blank row as a row", () => {
    expect(frameScreen(["a", "", "b"])).toBe(["┌─┐", "│a│", "│ │", "│b│", "└─┘"].join("\n"));
  });
});
