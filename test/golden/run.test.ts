// The pure part of the runner: the tmux cross-check compares panescope's screen with tmux's view.
import { describe, expect, it } from "vitest";
import type { ScreenSnapshot } from "../../src/observe/emulator/snapshot.js";
import { crossCheck } from "../../src/golden/run.js";

const screen = (lines: string[], cursorX = 0, cursorY = 0, alternate = false): ScreenSnapshot => ({
  cols: 10, rows: lines.length, cursorX, cursorY, cursorVisible: true, alternate, lines, styles: [],
});

describe("crossCheck", () => {
  it("two equal renderings agree, trailing blanks aside", () => {
    expect(crossCheck(screen(["$ ls", ""], 2, 1), { lines: ["$ ls  ", ""], cursorX: 2, cursorY: 1, alternate: false })).toEqual([]);
  });

  it("names each differing row with both texts, then the cursor and the alternate screen", () => {
    const ours = screen(["a", "same", "b  |"], 4, 2, true);
    const tmux = { lines: ["A", "same", "b      |"], cursorX: 8, cursorY: 2, alternate: false };
    expect(crossCheck(ours, tmux)).toEqual([
      'row 0: tmux "A" | panescope "a"',
      'row 2: tmux "b      |" | panescope "b  |"',
      "cursor: tmux 8,2 | panescope 4,2",
      "alternate screen: tmux no | panescope yes",
    ]);
  });

  it("a row tmux did not report counts as a difference", () => {
    expect(crossCheck(screen(["x", "y"]), { lines: ["x"], cursorX: 0, cursorY: 0, alternate: false })).toEqual(['row 1: tmux "" | panescope "y"']);
  });
});
