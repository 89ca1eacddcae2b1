// Replica vs tmux: which rows differ, and whether the cursor or the shape does.
import { describe, expect, it } from "vitest";
import { agree, differences, sameRow, visibleText } from "../../../src/observe/emulator/differences.js";

const state = { cols: 20, rows: 3, lines: ["old history", "\x1b[31mred\x1b[0m", "a\tb", ""], cursorX: 2, cursorY: 1 };

describe("differences", () => {
  it("reads tmux's visible rows as text: styles and hyperlinks removed, tabs kept, blanks trimmed", () => {
    expect(visibleText(state)).toEqual(["red", "a\tb", ""]);
    expect(visibleText({ ...state, lines: ["x\x1b]8;;http://e.x\x1b\\link\x1b]8;;\x1b\\  "] })).toEqual(["xlink", "", ""]);
  });

  it("finds the rows that differ, a moved cursor, and a different shape", () => {
    const ours = { cols: 20, rows: 3, cursorX: 2, cursorY: 1, alternate: false, text: ["red", "a       b", ""] };
    expect(agree(differences(ours, state))).toBe(true);
    expect(differences({ ...ours, text: ["red", "ab", ""] }, state)).toEqual({ rows: [1], cursor: false, shape: false });
    expect(differences({ ...ours, cursorX: 3 }, state).cursor).toBe(true);
    expect(differences({ ...ours, alternate: true }, state).shape).toBe(true);
  });

  it("a tab tmux 3.6+ kept is one or more blanks, however wide: the capture does not say (moved stops, CSI P)", () => {
    for (const ours of ["a b", "a   b", "a       b"]) expect(sameRow(ours, "a\tb")).toBe(true);
    expect(sameRow("ab", "a\tb")).toBe(false);
    expect(sameRow("a  x b", "a\tb")).toBe(false);
    expect(sameRow("       b", "\tb")).toBe(true);
    expect(sameRow("x  y   z", "x \t\t  y\tz")).toBe(true);
    expect(sameRow("a", "a\t")).toBe(true);
    expect(sameRow("a  b", "a\tb c")).toBe(false);
    expect(sameRow("中   c", "中\tc")).toBe(true);
  });
});
