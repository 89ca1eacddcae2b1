// The text view's screen patch: the scroll that leaves the fewest rows to send, rows that differ
// from the reader's predicted screen, and what of the raw output the screen no longer shows.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Frame } from "../../../src/observe/pane/frames.js";
import { FrameLog } from "../../../src/observe/pane/frames.js";
import type { ScreenPatch } from "../../../src/observe/read/delta.js";
import { bestScroll, historyOf, NO_HISTORY, offscreen, patchScreen, predict, scrollGain, searchOffscreen, searchScroll } from "../../../src/observe/read/screen-patch.js";

const frame = (rows: string[], cols = 80, alternate = false): Frame => ({ rows, cols, alternate });
const numbered = (from: number, count: number, prefix = "line"): string[] => Array.from({ length: count }, (_, i) => `${prefix} ${from + i}`);

/** What a reader holding `before` ends up with after applying the patch. */
function apply(before: readonly string[], patch: ScreenPatch, rows: number): string[] {
  const screen = patch.full ? Array.from({ length: rows }, () => "") : predict(before, patch.scroll);
  for (const { row, text } of patch.rows) if (row >= 0) screen[row] = text;
  return screen;
}

describe("patchScreen", () => {
  it("a log that scrolled 3 lines sends the 3 new lines and says `scrolled 3`", () => {
    const before = numbered(0, 10);
    const now = numbered(3, 10);
    const patch = patchScreen(frame(before), frame(now), NO_HISTORY);
    expect(patch.scroll).toEqual({ from: 0, to: 9, by: 3 });
    expect(patch.rows.map((r) => r.row)).toEqual([7, 8, 9]);
    expect(apply(before, patch, 10)).toEqual(now);
  });

  it("a chat whose region above a fixed status line scrolled sends only the new messages", () => {
    const before = [...numbered(0, 8, "msg"), "── status ──", "> typing"];
    const now = [...numbered(2, 8, "msg"), "── status ──", "> typing"];
    const patch = patchScreen(frame(before), frame(now), NO_HISTORY);
    expect(patch.scroll).toEqual({ from: 0, to: 7, by: 2 });
    expect(patch.rows).toEqual([
      { row: 6, text: "msg 8" },
      { row: 7, text: "msg 9" },
    ]);
    expect(apply(before, patch, 10)).toEqual(now);
  });

  it("a region below a fixed header (the alternate screen: no line numbers move) is found by content", () => {
    const before = ["TITLE", ...numbered(0, 9)];
    const now = ["TITLE", ...numbered(4, 9)];
    const patch = patchScreen(frame(before, 80, true), frame(now, 80, true), NO_HISTORY);
    expect(patch.scroll).toEqual({ from: 1, to: 9, by: 4 });
    expect(patch.rows.map((r) => r.text)).toEqual(numbered(9, 4));
  });

  it("a scroll down (reverse index at the top) sends only the line that entered", () => {
    const before = numbered(5, 10);
    const now = numbered(4, 10);
    const patch = patchScreen(frame(before), frame(now), NO_HISTORY);
    expect(patch.scroll).toEqual({ from: 0, to: 9, by: -1 });
    expect(patch.rows).toEqual([{ row: 0, text: "line 4" }]);
  });

  it("states no scroll when rows changed in place", () => {
    const before = ["a", "b", "c", "d"];
    const patch = patchScreen(frame(before), frame(["a", "B", "c", "d"]), NO_HISTORY);
    expect(patch.scroll).toBeUndefined();
    expect(patch.rows).toEqual([{ row: 1, text: "B" }]);
  });

  it("sends the whole screen (non-blank rows) when the reader's screen is unknown or the size changed", () => {
    const now = ["a", "", "c", "", ""];
    expect(patchScreen(undefined, frame(now), NO_HISTORY)).toEqual({ full: true, rows: [{ row: 0, text: "a" }, { row: 1, text: "" }, { row: 2, text: "c" }], cut: 0 });
    expect(patchScreen(frame(["a", "", "c", ""]), frame(now), NO_HISTORY).full).toBe(true);
    expect(patchScreen(frame(now, 100), frame(now, 80), NO_HISTORY).full).toBe(true);
  });

  it("lists history rows first and cuts the topmost rows to the limits, counting them", () => {
    const history = [{ row: -2, text: "old 1" }, { row: -1, text: "old 2" }];
    const patch = patchScreen(frame(["x", "y"]), frame(["x", "z"]), historyOf(history), { maxLines: 2 });
    expect(patch.rows).toEqual([{ row: -1, text: "old 2" }, { row: 1, text: "z" }]);
    expect(patch.cut).toBe(1);
    expect(patchScreen(frame(["x"]), frame(["yyyy"]), NO_HISTORY, { maxBytes: 3 }).cut).toBe(1);
  });

  it("any screen and any change: applying the patch gives exactly the new screen", () => {
    const row = fc.constantFrom("", "a", "b", "c", "status", "> ");
    const screens = fc.integer({ min: 1, max: 12 }).chain((n) => fc.tuple(fc.array(row, { minLength: n, maxLength: n }), fc.array(row, { minLength: n, maxLength: n })));
    fc.assert(
      fc.property(screens, ([before, now]) => {
        expect(apply(before, patchScreen(frame(before), frame(now), NO_HISTORY), before.length)).toEqual(now);
      }),
      { seed: 7, numRuns: 2000 },
    );
  });
});

describe("a normal screen whose lines scrolled into history (line numbers tell the scroll)", () => {
  // `seq 5` run at a `# ` prompt on a 60x8 sh pane: the screen after one run, and after the next.
  const afterOne = ["# seq 5", "1", "2", "3", "4", "5", "#", ""];
  const settled = ["5", "# seq 5", "1", "2", "3", "4", "5", "#"];
  const shell = (top: number, rows: string[]): Frame => ({ rows, cols: 60, alternate: false, top });
  const printed = "seq 5\n1\n2\n3\n4\n5\n# ";

  it("new output that leaves the screen reading the same is its scroll and its lines, not an empty patch", () => {
    // Lines 5-12 on the screen; `seq 5` again: lines 11-18, which read exactly as lines 5-12 did.
    const patch = patchScreen(shell(5, settled), shell(11, settled), NO_HISTORY, {}, printed);
    expect(patch.scroll).toEqual({ from: 0, to: 7, by: 6 });
    expect(patch.rows).toEqual(settled.slice(1).map((text, i) => ({ row: i + 1, text })));
    expect(apply(settled, patch, 8)).toEqual(settled);
  });

  it("is not taken for a scroll down that content alone would find (`seq 5` after `seq 5`)", () => {
    const patch = patchScreen(shell(0, afterOne), shell(5, settled), NO_HISTORY, {}, printed);
    expect(patch.scroll).toEqual({ from: 0, to: 7, by: 5 });
    expect(patch.rows.map((r) => r.text)).toEqual(settled.slice(1));
    expect(apply(afterOne, patch, 8)).toEqual(settled);
  });

  it("counts the rows maxLines cuts from those lines", () => {
    const patch = patchScreen(shell(0, afterOne), shell(5, settled), NO_HISTORY, { maxLines: 2 }, printed);
    expect(patch.rows).toEqual([{ row: 6, text: "5" }, { row: 7, text: "#" }]);
    expect(patch.cut).toBe(5);
  });

  it("a flood that scrolled more than a screen sends every row, even rows that read as before", () => {
    const ys = Array.from({ length: 8 }, () => "yes, and a long line of it");
    const patch = patchScreen(shell(100, ys), shell(1100, ys), NO_HISTORY, {}, `${ys[0]}\n`.repeat(1000));
    expect(patch.scroll).toEqual({ from: 0, to: 7, by: 1000 });
    expect(patch.rows).toHaveLength(8);
  });

  it("keeps a fixed status line below a region that scrolled into history, unless the output printed it", () => {
    const before = [...numbered(0, 7, "msg"), "── status ──"];
    const now = [...numbered(2, 7, "msg"), "── status ──"];
    const patch = patchScreen(shell(10, before), shell(12, now), NO_HISTORY, {}, "\nmsg 7\nmsg 8");
    expect(patch.scroll).toEqual({ from: 0, to: 6, by: 2 });
    expect(patch.rows.map((r) => r.text)).toEqual(["msg 7", "msg 8"]);
    // The same screens after output whose last line reads as that row: it may be new, and is sent.
    const printedIt = patchScreen(shell(10, before), shell(12, now), NO_HISTORY, {}, "msg 7\nmsg 8\n── status ──");
    expect(printedIt.scroll).toEqual({ from: 0, to: 7, by: 2 });
    expect(printedIt.rows.map((r) => r.text)).toEqual(["msg 7", "msg 8", "── status ──"]);
  });

  it("leaves the alternate screen, and a screen whose lines did not move, to the content search", () => {
    const before = ["TITLE", ...numbered(0, 9)];
    const now = ["TITLE", ...numbered(4, 9)];
    const alt = (rows: string[]): Frame => ({ rows, cols: 80, alternate: true, top: 3 });
    expect(patchScreen(alt(before), alt(now), NO_HISTORY).scroll).toEqual({ from: 1, to: 9, by: 4 });
    expect(patchScreen(shell(3, numbered(5, 8)), shell(3, numbered(4, 8)), NO_HISTORY).scroll).toEqual({ from: 0, to: 7, by: -1 });
  });

  it("any screen and any line scroll: applying the patch gives exactly the new screen", () => {
    const row = fc.constantFrom("", "a", "b", "c", "status", "> ");
    const screens = fc.integer({ min: 1, max: 10 }).chain((n) => fc.tuple(fc.array(row, { minLength: n, maxLength: n }), fc.array(row, { minLength: n, maxLength: n }), fc.integer({ min: 0, max: 2 * n })));
    fc.assert(
      fc.property(screens, ([before, now, by]) => {
        const patch = patchScreen(shell(50, before), shell(50 + by, now), NO_HISTORY, {}, now.join("\n"));
        if (by > 0) expect(patch.scroll?.by).toBe(by);
        expect(apply(before, patch, before.length)).toEqual(now);
      }),
      { seed: 5, numRuns: 2000 },
    );
  });
});

describe("the bound checked before the scroll search", () => {
  it("skips the search only where it would find no scroll", () => {
    const row = fc.constantFrom("", "", "a", "b", "ab", "a long row of text", "another long row");
    const screen = fc.integer({ min: 1, max: 8 }).chain((n) => fc.tuple(fc.array(row, { minLength: n, maxLength: n }), fc.array(row, { minLength: n, maxLength: n })));
    let skipped = 0;
    fc.assert(
      fc.property(screen, ([before, now]) => {
        if (scrollGain(before, now) <= 12) skipped++;
        expect(bestScroll(before, now)).toEqual(searchScroll(before, now));
      }),
      { numRuns: 3000 },
    );
    expect(skipped).toBeGreaterThan(300); // the bound is exercised, not just the search
  });

  it("skips a keystroke's echo: one row changed to text the reader does not hold", () => {
    const before = ["$ ls", "a b c", "$ ech"];
    expect(scrollGain(before, ["$ ls", "a b c", "$ echo"])).toBe(0);
    // A row whose new text the reader holds elsewhere could be scrolled into place.
    expect(scrollGain(before, ["a b c", "$ ech", "$ echo"])).toBeGreaterThan(12);
  });
});

describe("offscreen", () => {
  it("counts frames overwritten in place and lines the screen no longer shows, not what it shows", () => {
    expect(offscreen("\rdl 10%\rdl 20%\rdl 30%\ndone\n", ["dl 30%", "done"], NO_HISTORY)).toEqual({ frames: 2, bytes: 12 });
    expect(offscreen("a1: 10%\na2: 50%\na1: 40%\na2: 90%\n", ["a1: 40%", "a2: 90%"], NO_HISTORY)).toEqual({ frames: 2, bytes: 14 });
    expect(offscreen("one\ntwo\nthree\n", ["two", "three"], historyOf([{ row: -1, text: "one" }]))).toEqual({ frames: 0, bytes: 0 });
  });

  it("finds a line the screen wrapped over two rows", () => {
    expect(offscreen("abcdefgh\n", ["abcd", "efgh"], NO_HISTORY)).toEqual({ frames: 0, bytes: 0 });
  });

  it("finds wrapped lines in any order, and after a flood of lines long gone from the screen", () => {
    // The second wrapped line sits above the first: the search goes back to the start.
    expect(offscreen("ijklmnop\nabcdefgh\n", ["abcd", "efgh", "ijkl", "mnop"], NO_HISTORY)).toEqual({ frames: 0, bytes: 0 });
    const gone = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join("\n");
    expect(offscreen(`${gone}\nwrapped here\n`, ["wrap", "ped here"], NO_HISTORY)).toEqual({ frames: 3000, bytes: new TextEncoder().encode(gone).length - 2999 });
  });
});

describe("offscreen's check of short raw against the rows as they are", () => {
  it("answers as the full search does, for short output over small screens", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", " ", "\r", "\b", "\n", "é"), maxLength: 12 });
    fc.assert(
      fc.property(text, fc.array(text.map((t) => t.replace(/[\r\n]/g, "")), { maxLength: 6 }), fc.array(text.map((t) => t.replace(/[\r\n]/g, "")), { maxLength: 2 }), (raw, screen, above) => {
        const history = above.map((t, i) => ({ row: i - above.length, text: t }));
        expect(offscreen(raw, screen, historyOf(history))).toEqual(searchOffscreen(raw, screen, history));
      }),
      { numRuns: 2000 },
    );
  });

  it("answers as the full search does when the rows hold the raw lines themselves", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", " ", "\r", "\b", "\n"), maxLength: 16 });
    fc.assert(
      fc.property(text, fc.boolean(), (raw, above) => {
        const lines = raw.split("\n").map((line) => line.replace(/\r/g, ""));
        const history = above ? lines.slice(0, 1).map((t) => ({ row: -1, text: t })) : [];
        expect(offscreen(raw, lines, historyOf(history))).toEqual(searchOffscreen(raw, lines, history));
      }),
      { numRuns: 2000 },
    );
    // A backspace edits the line and a carriage return overwrites it: never "as it is".
    expect(offscreen("ab\bc", ["ab\bc"], NO_HISTORY)).toEqual({ frames: 1, bytes: 4 });
    expect(offscreen("a\rb", ["a\rb"], NO_HISTORY)).toEqual({ frames: 1, bytes: 1 });
  });

  it("is the path a keystroke's echo takes: found on its row as it is", () => {
    expect(offscreen("a", ["$ a"], NO_HISTORY)).toEqual({ frames: 0, bytes: 0 });
    expect(offscreen("x\n", ["$ a"], NO_HISTORY)).toEqual({ frames: 1, bytes: 1 });
  });
});

describe("FrameLog", () => {
  it("gives the frame a reader at a sequence holds: the newest recorded at or before it", () => {
    const log = new FrameLog();
    log.record(3, frame(["a"]));
    log.record(7, frame(["b"]));
    expect(log.at(2)).toBeUndefined();
    expect(log.at(3)?.rows).toEqual(["a"]);
    expect(log.at(6)?.rows).toEqual(["a"]);
    expect(log.at(9)?.rows).toEqual(["b"]);
  });

  it("keeps a bounded number of frames: an older reader gets none (and a whole screen)", () => {
    const log = new FrameLog();
    for (let seq = 1; seq <= 100; seq++) log.record(seq, frame([`s${seq}`]));
    expect(log.at(100)?.rows).toEqual(["s100"]);
    expect(log.at(37)?.rows).toEqual(["s37"]);
    expect(log.at(36)).toBeUndefined();
  });
});
