// Seeding: tmux's view of a pane (lines, cursor, region, modes) put into a fresh emulator, so that
// the program's next bytes have the same effect on the replica as on tmux.
import { describe, expect, it } from "vitest";
import { Screen } from "../../../src/observe/emulator/screen.js";
import { seedBytes, type ScreenState } from "../../../src/observe/emulator/seed.js";

async function seeded(state: ScreenState, after: string): Promise<Screen> {
  const screen = new Screen({ cols: state.cols, rows: state.rows });
  screen.write(seedBytes(state));
  screen.write(after);
  await screen.flush();
  return screen;
}

const blank = (rows: number): string[] => Array.from({ length: rows }, () => "");

describe("seedBytes", () => {
  it("a captured row keeps the pen the row above left on, and no colour bleeds into scrolled rows", async () => {
    // capture-pane -e of htop (3.3a): the selected row says only ESC[46m, black comes from the header.
    const lines = ["history \x1b[41m", "\x1b[30;42mPID USER", "\x1b[46m 1 root", "\x1b[0mplain"];
    const screen = await seeded({ cols: 12, rows: 3, lines, cursorX: 0, cursorY: 2 }, "");
    const styles = screen.snapshot().styles;
    expect(styles.filter((r) => r.row === 1)).toEqual([{ row: 1, start: 0, end: 7, fg: { kind: "palette", index: 0 }, bg: { kind: "palette", index: 6 } }]);
    expect(styles.filter((r) => r.row === 2)).toEqual([]);
    expect(screen.visibleRows()).toEqual(["PID USER", " 1 root", "plain"]);
  });

  it("a captured row holding C1 controls (tmux 3.2a and 3.4+ keep U+0085, U+009B as characters) stays one row", async () => {
    // Obeyed, NEL moved the rest of the row down and CSI swallowed "31m": a heal never converged.
    const lines = ["a\u0085b", "c\u009b31md", "e"];
    const screen = await seeded({ cols: 10, rows: 3, lines, cursorX: 1, cursorY: 2 }, "");
    expect(screen.visibleRows()).toEqual(lines);
    expect([screen.cursorX, screen.cursorY]).toEqual([1, 2]);
  });

  it("origin mode: the program's cursor addressing stays relative to its scroll region", async () => {
    const state = { cols: 10, rows: 6, lines: blank(6), cursorX: 0, cursorY: 2, scrollTop: 2, scrollBottom: 4, modes: { origin: true } };
    const screen = await seeded(state, "\x1b[1;1HX");
    expect(screen.visibleRows()).toEqual(["", "", "X", "", "", ""]);
  });

  it("the cursor lands where tmux had it, also with origin mode and a region", async () => {
    const state = { cols: 10, rows: 6, lines: blank(6), cursorX: 3, cursorY: 3, scrollTop: 2, scrollBottom: 4, modes: { origin: true } };
    const screen = await seeded(state, "");
    expect([screen.cursorX, screen.cursorY]).toEqual([3, 3]);
  });

  it("autowrap off: text past the last column overwrites it instead of wrapping", async () => {
    const state = { cols: 5, rows: 2, lines: blank(2), cursorX: 0, cursorY: 0, modes: { wrap: false } };
    const screen = await seeded(state, "abcdefg");
    expect(screen.visibleRows()).toEqual(["abcdg", ""]);
  });

  it("insert mode: text is inserted before what is on the row", async () => {
    const state = { cols: 10, rows: 1, lines: ["world"], cursorX: 0, cursorY: 0, modes: { insert: true } };
    const screen = await seeded(state, "hi ");
    expect(screen.visibleRows()).toEqual(["hi world"]);
  });

  it("tab stops the program set: tabs painted and printed go to them, in the alternate screen too", async () => {
    const tabs = [3, 6];
    const screen = await seeded({ cols: 12, rows: 2, lines: ["a\tb\tc", ""], cursorX: 0, cursorY: 1, tabs }, "x\ty\tz");
    expect(screen.visibleRows()).toEqual(["a  b  c", "x  y  z"]);
    const alt = await seeded({ cols: 12, rows: 2, lines: ["", ""], cursorX: 0, cursorY: 0, tabs, alternate: { lines: ["", ""], savedX: 0, savedY: 0 } }, "x\ty\tz");
    expect(alt.visibleRows()).toEqual(["x  y  z", ""]);
    const none = await seeded({ cols: 12, rows: 1, lines: [""], cursorX: 0, cursorY: 0, tabs: [] }, "x\ty");
    expect(none.visibleRows()).toEqual(["x          y"]);
  });

  it("a cursor just past the last column (tmux reports cursor_x = width): the next character wraps", async () => {
    const screen = await seeded({ cols: 5, rows: 2, lines: ["abcde", ""], cursorX: 5, cursorY: 0, modes: { insert: true } }, "X");
    expect(screen.visibleRows()).toEqual(["abcde", "X"]);
  });

  it("with default modes nothing is added: painting and the cursor as before", async () => {
    const state = { cols: 10, rows: 2, lines: ["a", "b"], cursorX: 1, cursorY: 1 };
    expect(seedBytes(state)).toBe(seedBytes({ ...state, modes: {} }));
    const screen = await seeded(state, "c");
    expect(screen.visibleRows()).toEqual(["a", "bc"]);
  });
});
