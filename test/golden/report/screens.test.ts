// The report's screens: a golden read back as a snapshot (colours, hidden cursor), and the cells
// that differ between two screens, exactly those.
import { describe, expect, it } from "vitest";
import { formatGolden } from "../../../src/golden/format.js";
import { differingCells, goldenScreen, parseStyleLine, within } from "../../../src/golden/report/screens.js";
import type { ScreenSnapshot } from "../../../src/observe/emulator/snapshot.js";

const snap = (lines: string[], more: Partial<ScreenSnapshot> = {}): ScreenSnapshot => ({
  cols: 8,
  rows: lines.length,
  cursorX: 0,
  cursorY: 0,
  cursorVisible: true,
  alternate: false,
  lines,
  styles: [],
  ...more,
});

describe("goldenScreen", () => {
  it("reads back the rows, cursor and colours a golden pinned", () => {
    const screen = snap(["menu", "> two"], { cursorVisible: false, styles: [{ row: 0, start: 0, end: 4, fg: { kind: "palette", index: 2 }, bold: true }] });
    const back = goldenScreen(formatGolden(screen, { colors: true }));
    expect(back).toEqual({ ...screen, cursorX: 0, cursorY: 0 });
  });

  it("takes the live screen's colours when the golden pinned none", () => {
    const colours = [{ row: 1, start: 0, end: 1, bg: { kind: "rgb" as const, rgb: 0xff0000 } }];
    expect(goldenScreen(formatGolden(snap(["a", "b"])), colours).styles).toEqual(colours);
  });

  it("parses every attribute of a style line, and refuses what is not one", () => {
    expect(parseStyleLine("2:0-3 fg=1 bg=#00ff00 bold dim italic underline inverse strikethrough hidden")).toEqual({
      row: 2,
      start: 0,
      end: 3,
      fg: { kind: "palette", index: 1 },
      bg: { kind: "rgb", rgb: 0x00ff00 },
      bold: true,
      dim: true,
      italic: true,
      underline: true,
      inverse: true,
      strikethrough: true,
      hidden: true,
    });
    expect(parseStyleLine("styles:")).toBeUndefined();
  });
});

describe("differingCells", () => {
  it("finds exactly the changed cells, as one range per run on a row", () => {
    expect(differingCells(snap(["menu", "> two"]), snap(["menu", "> TWO"]))).toEqual([{ row: 1, start: 2, end: 5 }]);
    expect(differingCells(snap(["abcdef"]), snap(["aXcdXf"]))).toEqual([
      { row: 0, start: 1, end: 2 },
      { row: 0, start: 4, end: 5 },
    ]);
  });

  it("finds no cell when only the cursor moved", () => {
    expect(differingCells(snap(["x"], { cursorX: 0 }), snap(["x"], { cursorX: 5 }))).toEqual([]);
  });

  it("counts a colour change as a change, and both halves of a wide character", () => {
    const red = snap(["ab"], { styles: [{ row: 0, start: 1, end: 2, fg: { kind: "palette", index: 1 } }] });
    expect(differingCells(snap(["ab"]), red)).toEqual([{ row: 0, start: 1, end: 2 }]);
    expect(differingCells(snap(["中x"]), snap(["abx"]))).toEqual([{ row: 0, start: 0, end: 2 }]);
  });

  it("marks every cell outside the smaller screen, and each side keeps only its own", () => {
    const ranges = differingCells(snap(["ab"], { cols: 2 }), snap(["ab", "cd"], { cols: 3 }));
    expect(ranges).toEqual([
      { row: 0, start: 2, end: 3 },
      { row: 1, start: 0, end: 3 },
    ]);
    expect(within(ranges, { cols: 2, rows: 1 })).toEqual([]);
  });
});
