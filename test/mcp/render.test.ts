// The text of capture_since answers: a header a text-only reader can rebuild from, fenced pane
// lines that pane text cannot imitate, framing within budget, raw only where it adds something.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Delta } from "../../src/observe/read/delta.js";
import { ending, fenceRaw, fenceRows, renderDelta, showControls, type Knobs } from "../../src/mcp/render.js";
import { TextScreen } from "../support/rebuild.js";

const CURSOR = "ApTwmiTk_44Dda0AAZ0BAwAtsEPYLYIZlAxyzab";

function delta(over: Partial<Delta> = {}): Delta {
  return {
    paneId: "%1",
    cursor: CURSOR,
    first: false,
    rows: [],
    screen: { cols: 80, rows: 24, top: 100, cursorX: 2, cursorY: 5, alternate: false },
    raw: "",
    rawBytes: 0,
    missed: false,
    missedBytes: 0,
    closed: false,
    streaming: true,
    truncated: { rows: 0, rawChars: 0 },
    patch: { full: false, rows: [], cut: 0 },
    ...over,
  };
}

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

describe("an answer with nothing new", () => {
  it("is `no change` alone when the cursor comes back unchanged: the caller's still reads the same", () => {
    const text = renderDelta(delta(), { given: CURSOR });
    expect(text).toBe("no change");
    expect(bytes(text)).toBeLessThanOrEqual(40);
  });

  it("says how long it waited, still within 40 bytes", () => {
    const text = renderDelta(delta(), { given: CURSOR, wait: { waitMs: 30000, waitCapMs: 30000, waitClamped: false, waitEnded: "timeout" } });
    expect(text).toBe("no change in 30000 ms");
    expect(bytes(text)).toBeLessThanOrEqual(40);
  });

  it("says what maxBytes cut of the raw output, which the frames off the screen are not counted in", () => {
    const text = renderDelta(delta({ raw: "99999\n100000\n", rawBytes: 588895, truncated: { rows: 0, rawChars: 391605 }, patch: { full: false, rows: [{ row: 23, text: "100000" }], cut: 0 } }));
    expect(text).toContain("\n391605 earlier chars of output not looked at (maxBytes)");
  });

  it("a first read of a blank screen says so, not `no change`: it is the whole screen, nothing listed", () => {
    const text = renderDelta(delta({ first: true, patch: { full: true, rows: [], cut: 0 } }));
    expect(text.split("\n")).toEqual([`cursor=${CURSOR} %1 screen 80x24 @5,2`, "the screen is blank"]);
  });

  it("carries the new cursor when it moved, and never says `no change` when output came", () => {
    // Output that redrew what was there (a line rewritten over itself, a cursor move): said, with its size.
    expect(renderDelta(delta({ raw: "\rsame", rawBytes: 24 }), { given: "older" })).toBe(`cursor=${CURSOR} %1 @5,2\n24 B of output left the screen as it was`);
    expect(renderDelta(delta({ rawBytes: 12 }), { given: "older" })).toBe(`cursor=${CURSOR} %1 @5,2\n12 B of output left the screen as it was`);
    const waited = renderDelta(delta({ rawBytes: 12 }), { given: "older", wait: { waitMs: 500, waitCapMs: 30000, waitClamped: false, waitEnded: "timeout" } });
    expect(waited).not.toContain("no change");
  });

  it("says what output without text did where the text shows nothing of it: a scroll, rows view raw leaves out", () => {
    const scrolled = delta({ rawBytes: 3, patch: { full: false, scroll: { from: 0, to: 23, by: 3 }, rows: [], cut: 0 } });
    expect(renderDelta(scrolled, { given: "older" })).toBe(`cursor=${CURSOR} %1 scrolled 3 @5,2\n3 B of output: no row to write after the scroll`);
    const cleared = delta({ rawBytes: 7, patch: { full: false, rows: [{ row: 0, text: "" }, { row: 1, text: "" }], cut: 0 } });
    expect(renderDelta(cleared, { view: "raw" }).split("\n")[1]).toBe('7 B of output, no text: 2 rows changed (view "rows" shows them)');
    // Rows cut to nothing are said by the cut line.
    const cut = delta({ raw: "x\n", rawBytes: 2, patch: { full: false, rows: [], cut: 1 } });
    expect(renderDelta(cut).split("\n").slice(1)).toEqual(["cut 1 rows (maxLines/maxBytes)"]);
  });
});

describe("the knobs an answer's notes point at", () => {
  const cutRows = delta({ raw: "x\n", rawBytes: 2, patch: { full: false, rows: [{ row: 23, text: "x" }], cut: 4 } });
  const cutRaw = delta({ raw: "99999\n100000\n", rawBytes: 588895, truncated: { rows: 0, rawChars: 391605 }, patch: { full: false, rows: [{ row: 23, text: "100000" }], cut: 0 } });
  const rowsOnly = delta({ rawBytes: 7, patch: { full: false, rows: [{ row: 0, text: "" }], cut: 0 } });
  /** The one note each answer has about its knobs. */
  const notes = (knobs?: Knobs): (string | undefined)[] => [
    renderDelta(cutRows, { knobs }).split("\n")[1],
    renderDelta(cutRaw, { knobs }).split("\n").at(-1),
    renderDelta(rowsOnly, { view: "raw", knobs }).split("\n")[1],
  ];

  it("are named as MCP's arguments by default", () => {
    expect(notes()).toEqual(["cut 4 rows (maxLines/maxBytes)", "391605 earlier chars of output not looked at (maxBytes)", '7 B of output, no text: 1 rows changed (view "rows" shows them)']);
  });

  it("are named as the caller names them: a shell command's flags", () => {
    const shell: Knobs = { rowLimits: "--max-lines", byteLimit: "the cap", rowsView: "--view rows" };
    expect(notes(shell)).toEqual(["cut 4 rows (--max-lines)", "391605 earlier chars of output not looked at (the cap)", "7 B of output, no text: 1 rows changed (--view rows shows them)"]);
  });
});

describe("the header", () => {
  it("comes first with the cursor, the pane, the terminal cursor; a whole screen says its size", () => {
    const first = delta({ first: true, patch: { full: true, rows: [{ row: 0, text: "$ ls" }], cut: 0 } });
    expect(renderDelta(first)).toBe(`cursor=${CURSOR} %1 screen 80x24 @5,2\n0|$ ls`);
  });

  it("states a whole-screen scroll, a region's scroll and a scroll down", () => {
    const scrolled = (scroll: { from: number; to: number; by: number }) => renderDelta(delta({ patch: { full: false, scroll, rows: [{ row: 23, text: "x" }], cut: 0 } })).split("\n")[0];
    expect(scrolled({ from: 0, to: 23, by: 3 })).toBe(`cursor=${CURSOR} %1 scrolled 3 @5,2`);
    expect(scrolled({ from: 0, to: 20, by: 2 })).toBe(`cursor=${CURSOR} %1 rows 0-20 scrolled 2 @5,2`);
    expect(scrolled({ from: 2, to: 23, by: -1 })).toBe(`cursor=${CURSOR} %1 rows 2-23 scrolled -1 @5,2`);
  });

  it("flags a full-screen program and a polled pane", () => {
    const screen = { cols: 80, rows: 24, top: 0, cursorX: 0, cursorY: 0, alternate: true };
    const text = renderDelta(delta({ screen, streaming: false, patch: { full: false, rows: [{ row: 0, text: "~" }], cut: 0 } }));
    expect(text.split("\n")[0]).toBe(`cursor=${CURSOR} %1 polled @0,0 alt`);
  });

  it("is read back by a text-only reader: size, then scroll, then rows", () => {
    const reader = new TextScreen();
    reader.apply(renderDelta(delta({ screen: { cols: 10, rows: 4, top: 0, cursorX: 0, cursorY: 3, alternate: false }, patch: { full: true, rows: ["a", "b", "c", "d"].map((text, row) => ({ row, text })), cut: 0 } })));
    expect(reader.rows()).toEqual(["a", "b", "c", "d"]);
    reader.apply(renderDelta(delta({ screen: { cols: 10, rows: 4, top: 1, cursorX: 0, cursorY: 3, alternate: false }, patch: { full: false, scroll: { from: 0, to: 2, by: 1 }, rows: [{ row: 2, text: "e" }], cut: 0 } })));
    expect(reader.rows()).toEqual(["b", "c", "e", "d"]);
    expect(reader.cursor).toBe(CURSOR);
  });
});

describe("pane lines", () => {
  it("number the first row of each run; the rows after it continue with `|`; history rows are negative", () => {
    const rows = [-2, -1, 0, 1, 5, 6].map((row) => ({ row, text: `r${row}` }));
    expect(fenceRows(rows)).toEqual(["-2|r-2", "|r-1", "|r0", "|r1", "5|r5", "|r6"]);
  });

  it("a row is shown as showControls shows it, line breaks escaped too (rows without any pass as they are)", () => {
    const unit = fc.constantFrom("a", " ", "\t", "\n", "\r", "\b", "\x1b", "\x7f", "\x85", "\x9b", "\u2028", "\u2029", "é", "漢");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 20 }), (text) => {
        expect(fenceRows([{ row: 0, text }])).toEqual([`0|${showControls(text).replace(/\n/g, "\\n")}`]);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it("raw output is one `>` line per line of output, control characters visible", () => {
    expect(fenceRaw("one\rtwo\n\x1b[1mthree\u2028four\n")).toEqual([">one\\rtwo", ">\\x1b[1mthree\\u2028four"]);
    expect(showControls("a\rb\bc\x07\td\x85")).toBe("a\\rb\\bc\\x07\td\\x85");
    expect(showControls("\x80C1\x9b31m\x9d0;t\x9c\xa0")).toBe("\\x80C1\\x9b31m\\x9d0;t\\x9c\xa0");
  });

  it("pane text can never start a line, so it cannot imitate the header or a note", () => {
    const hostile = fc.string({ unit: fc.constantFrom("a", "|", ">", "1", "-", " ", "\n", "\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "cursor=X ", "no change", "closed") , maxLength: 40 });
    fc.assert(
      fc.property(fc.array(hostile, { maxLength: 5 }), hostile, (texts, raw) => {
        const rows = texts.map((text, row) => ({ row, text }));
        const text = renderDelta(delta({ raw, rawBytes: raw.length, patch: { full: false, rows, cut: 0 } }), { view: "both" });
        const lines = text.split(/\n|\r|\u2028|\u2029|\x85|\x0b|\x0c/);
        expect(lines.length).toBe(text.split("\n").length); // no other line break survives
        expect(lines.filter((line) => line.startsWith("cursor="))).toHaveLength(1);
        const pane = lines.slice(1).filter((line) => /^(-?\d+)?\||^>/.test(line));
        expect(pane).toHaveLength(rows.length + fenceRaw(raw).length);
        for (const line of lines.slice(1).filter((l) => !pane.includes(l))) expect(line).toMatch(/^(raw:|raw not on screen|no change$|\d+ B of output left the screen as it was$)/);
      }),
      { seed: 11, numRuns: 500 },
    );
  });
});

describe("raw text", () => {
  it("by default is one line saying what the rows cannot show (frames overwritten, lines gone)", () => {
    const text = renderDelta(delta({ raw: "\r10%\r20%\r50%", rawBytes: 14, patch: { full: false, rows: [{ row: 3, text: "50%" }], cut: 0, offscreen: { frames: 2, bytes: 6 } } }));
    expect(text).toBe(`cursor=${CURSOR} %1 @5,2\n3|50%\nraw not on screen: 2 frames, 6 B`);
  });

  it("is left out when the rows show all of it", () => {
    const text = renderDelta(delta({ raw: "one\ntwo\n", rawBytes: 10, patch: { full: false, rows: [{ row: 1, text: "one" }, { row: 2, text: "two" }], cut: 0, offscreen: { frames: 0, bytes: 0 } } }));
    expect(text).toBe(`cursor=${CURSOR} %1 @5,2\n1|one\n|two`);
  });

  it("view raw shows the raw output instead of the rows, view both shows both", () => {
    const answer = delta({ raw: "one\r\ntwo", rawBytes: 10, patch: { full: false, rows: [{ row: 2, text: "two" }], cut: 0 } });
    expect(renderDelta(answer, { view: "raw" })).toBe(`cursor=${CURSOR} %1 @5,2\nraw:\n>one\\r\n>two`);
    expect(renderDelta(answer, { view: "both" })).toBe(`cursor=${CURSOR} %1 @5,2\n2|two\nraw:\n>one\\r\n>two`);
  });
});

describe("notes", () => {
  it("missed output, cut rows, a capped or cancelled wait", () => {
    const text = renderDelta(delta({ missed: true, missedBytes: 12, reason: "paused", truncated: { rows: 3, rawChars: 0 }, patch: { full: false, rows: [{ row: 4, text: "x" }], cut: 3 } }), {
      wait: { waitMs: 30000, waitCapMs: 30000, waitClamped: true, waitEnded: "aborted" },
    });
    expect(text.split("\n")).toEqual([`cursor=${CURSOR} %1 @5,2`, "missed 12 B: paused", "wait capped at 30000 ms", "wait cut short: the server is stopping", "cut 3 rows (maxLines/maxBytes)", "4|x"]);
  });

  it("rows healed from tmux's screen are named by screen row", () => {
    const text = renderDelta(delta({ healed: [103, 104], patch: { full: false, rows: [{ row: 3, text: "é" }, { row: 4, text: "x" }], cut: 0 } }));
    expect(text.split("\n")).toEqual([`cursor=${CURSOR} %1 @5,2`, "healed rows 3,4: tmux draws them so", "3|é", "|x"]);
  });

  it("a pane that ended says so after its last output, with the exit status or signal when known", () => {
    const closed = (exit?: Delta["exit"]) => renderDelta(delta({ closed: true, ...(exit ? { exit } : {}), patch: { full: false, rows: [{ row: 5, text: "$ exit 3" }], cut: 0 } })).split("\n");
    expect(closed({ status: 3 })).toEqual([`cursor=${CURSOR} %1 @5,2`, "5|$ exit 3", "closed: exit status 3"]);
    expect(closed({ signal: "SIGTERM" }).at(-1)).toBe("closed: killed by signal SIGTERM");
    expect(closed().at(-1)).toBe("closed");
    expect(ending({ status: 0 })).toBe("closed: exit status 0");
  });

  it("a pane that ended with nothing else new keeps the caller's cursor and says only that", () => {
    expect(renderDelta(delta({ closed: true, exit: { status: 0 } }), { given: CURSOR })).toBe("closed: exit status 0");
  });
});

describe("framing", () => {
  it("a small change costs at most 120 bytes besides the pane's own text", () => {
    const text = renderDelta(
      delta({
        screen: { cols: 200, rows: 60, top: 123456, cursorX: 199, cursorY: 59, alternate: true },
        paneId: "%12345",
        patch: { full: false, scroll: { from: 0, to: 57, by: 12 }, rows: [{ row: 56, text: "building" }, { row: 57, text: "done" }], cut: 0 },
      }),
    );
    expect(bytes(text) - bytes("buildingdone")).toBeLessThanOrEqual(120);
  });
});

describe("rows that scrolled past the history before the read", () => {
  it("are said apart from what the limits cut: no maxLines would have kept them, the raw output has them", () => {
    const past = delta({ raw: "1\n2\n", rawBytes: 4, truncated: { rows: 1994, rawChars: 0 }, patch: { full: false, scroll: { from: 0, to: 23, by: 2992 }, rows: [{ row: -1000, text: "1993" }], cut: 2, scrolledPast: 1992 } });
    expect(renderDelta(past).split("\n").slice(1, 3)).toEqual(["cut 2 rows (maxLines/maxBytes)", "cut 1992 rows: they scrolled past the history before this read (the raw output has them)"]);
    // View raw shows that raw output: no row is said to be missing there.
    expect(renderDelta(past, { view: "raw" })).not.toContain("scrolled past");
  });
});
