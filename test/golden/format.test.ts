// The golden format: framed rows keep their width, invisible characters show, style runs are sparse
// and stable, masks keep goldens steady, and parseGolden reads back what formatGolden wrote.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { displayWidth } from "../../src/golden/cells.js";
import { formatGolden, parseGolden, type Mask } from "../../src/golden/format.js";
import type { ScreenSnapshot, StyleRun } from "../../src/observe/emulator/snapshot.js";

function screen(lines: string[], more: Partial<ScreenSnapshot> = {}): ScreenSnapshot {
  return { cols: 12, rows: lines.length, cursorX: 0, cursorY: 0, cursorVisible: true, alternate: false, lines, styles: [], ...more };
}

/** The framed rows of a golden, frame included. */
function framed(golden: string): string[] {
  return golden.split("\n").filter((line) => line.startsWith("│"));
}

describe("formatGolden", () => {
  it("writes a versioned header, the framed rows and a final newline", () => {
    const golden = formatGolden(screen(["$ ls", "a.txt  b.txt", ""], { cursorX: 2, cursorY: 2 }), { name: "listing" });
    expect(golden).toBe(
      [
        "panescope golden v2",
        "name: listing",
        "size: 12x3",
        "cursor: 2,2",
        "alternate: no",
        "colors: off",
        "┌────────────┐",
        "│$ ls        │",
        "│a.txt  b.txt│",
        "│            │",
        "└────────────┘",
        "",
      ].join("\n"),
    );
  });

  it("pads every row to the screen width so trailing spaces survive editors", () => {
    const rows = framed(formatGolden(screen(["abc", "", "x"])));
    expect(rows).toEqual(["│abc         │", "│            │", "│x           │"]);
  });

  it("aligns rows with wide CJK and emoji characters by display width", () => {
    const rows = framed(formatGolden(screen(["中文 ok", "✅ done", "plain"])));
    expect(rows).toEqual(["│中文 ok     │", "│✅ done     │", "│plain       │"]);
    for (const row of rows) expect(displayWidth(row)).toBe(14);
  });

  it("shows control and invisible characters instead of writing them raw", () => {
    const golden = formatGolden(screen(["a\u001b[1mb\tc", "zero\u200bw\u0085"]));
    expect(framed(golden)).toEqual(["│a␛[1mb␉c    │", "│zero\\u{200b}w\\u{85}│"]);
    expect(golden).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it("marks the alternate screen in the header", () => {
    expect(formatGolden(screen([""], { alternate: true }))).toContain("\nalternate: yes\n");
  });

  it("writes style runs one per line, sparse, in row and column order whatever the input order", () => {
    const styles: StyleRun[] = [
      { row: 1, start: 4, end: 8, bg: { kind: "rgb", rgb: 0xff8800 }, underline: true },
      { row: 0, start: 6, end: 9, fg: { kind: "default" } }, // nothing to say: left out
      { row: 0, start: 0, end: 5, fg: { kind: "palette", index: 1 }, bold: true, italic: false },
      { row: 1, start: 0, end: 2, inverse: true, dim: true, strikethrough: true, hidden: true },
    ];
    const snap = screen(["error: boom", "warn ok"], { styles });
    const golden = formatGolden(snap, { colors: true });
    expect(golden.split("└────────────┘\n")[1]).toBe(["styles:", "0:0-5 fg=1 bold", "1:0-2 dim inverse strikethrough hidden", "1:4-8 bg=#ff8800 underline", ""].join("\n"));
    expect(formatGolden({ ...snap, styles: [...styles].reverse() }, { colors: true })).toBe(golden);
  });

  it("writes neighbouring runs that differ only where a golden says nothing (blink, an underline's style) as one line", () => {
    const styles: StyleRun[] = [
      { row: 0, start: 0, end: 2, fg: { kind: "palette", index: 1 }, underline: true },
      { row: 0, start: 2, end: 4, fg: { kind: "palette", index: 1 }, underline: true, blink: true, underlineStyle: "curly" },
      { row: 0, start: 4, end: 6, fg: { kind: "palette", index: 1 }, underline: true, underlineColour: { kind: "palette", index: 2 } },
      { row: 0, start: 6, end: 8, fg: { kind: "palette", index: 1 } },
    ];
    const golden = formatGolden(screen(["abcdefgh"], { styles }), { colors: true });
    expect(golden.split("└────────────┘\n")[1]).toBe(["styles:", "0:0-6 fg=1 underline", "0:6-8 fg=1", ""].join("\n"));
  });

  it("leaves the style section out when colors are off", () => {
    const snap = screen(["x"], { styles: [{ row: 0, start: 0, end: 1, bold: true }] });
    const golden = formatGolden(snap);
    expect(golden).toContain("colors: off");
    expect(golden).not.toContain("styles:");
    expect(golden.endsWith("└────────────┘\n")).toBe(true);
  });

  it("is deterministic: the same screen gives the same bytes", () => {
    const snap = screen(["a", "b"], { styles: [{ row: 1, start: 0, end: 1, fg: { kind: "palette", index: 200 } }] });
    expect(formatGolden(snap, { colors: true })).toBe(formatGolden(structuredClone(snap), { colors: true }));
  });

  it("refuses a snapshot whose line count differs from its rows", () => {
    try {
      formatGolden({ ...screen(["a"]), rows: 2 });
      expect.unreachable();
    } catch (error) {
      expect(isPanescopeError(error, "bad-input")).toBe(true);
    }
  });
});

describe("formatGolden with masks", () => {
  const ms: Mask = { pattern: /\d+ms/, placeholder: "<ms>" };

  it("replaces matches so variable-width values give the same golden", () => {
    const a = formatGolden(screen(["took 5ms.", "ok"]), { masks: [ms] });
    const b = formatGolden(screen(["took 120ms.", "ok"]), { masks: [ms] });
    expect(a).toBe(b);
    expect(framed(a)[0]).toBe("│took <ms>.  │");
  });

  it("masks every match on a row, not just the first", () => {
    expect(framed(formatGolden(screen(["1ms 22ms 3"]), { masks: [ms] }))[0]).toBe("│<ms> <ms> 3 │");
  });

  it("lets an earlier mask win where two masks overlap, and ignores empty matches", () => {
    const masks: Mask[] = [
      { pattern: /\/tmp\/\S+/, placeholder: "<tmp>" },
      { pattern: /\d+/g, placeholder: "N" },
      { pattern: /x*/, placeholder: "!" },
    ];
    expect(framed(formatGolden(screen(["/tmp/a1 7"]), { masks }))[0]).toBe("│<tmp> N     │");
  });

  it("moves the cursor with the text right of a mask and says when it stood inside one", () => {
    const after = formatGolden(screen(["took 120ms> x"], { cols: 14, cursorX: 12 }), { masks: [ms] });
    expect(after).toContain("\ncursor: 11,0\n"); // "120ms" is one cell wider than "<ms>"
    const inside = formatGolden(screen(["took 120ms"], { cursorX: 7 }), { masks: [ms] });
    expect(inside).toContain("\ncursor: 5,0 masked\n");
  });

  it("moves style runs with the text and clamps runs that touch a mask to the placeholder", () => {
    const snap = screen(["at 12:30:00 ok"], {
      styles: [
        { row: 0, start: 12, end: 14, fg: { kind: "palette", index: 2 } },
        { row: 0, start: 6, end: 9, bold: true },
      ],
    });
    const golden = formatGolden(snap, { colors: true, masks: [{ pattern: /\d\d:\d\d:\d\d/, placeholder: "T" }] });
    expect(framed(golden)[0]).toBe("│at T ok     │");
    expect(golden).toContain("styles:\n0:3-4 bold\n0:5-7 fg=2\n");
  });

  it("keeps a row a wider placeholder shifts at the screen's width: style runs and the cursor stop at its right edge", () => {
    // A status bar: its colour runs to the right edge, past the text; "<n>" is 2 cells wider than "5".
    const snap = screen(["at 5ms"], { cursorX: 11, styles: [{ row: 0, start: 0, end: 12, bg: { kind: "palette", index: 4 } }] });
    const golden = formatGolden(snap, { colors: true, masks: [{ pattern: /\d+/, placeholder: "<n>" }] });
    expect(framed(golden)).toEqual(["│at <n>ms    │"]);
    expect(golden).toContain("\ncursor: 12,0\n");
    expect(golden.endsWith("styles:\n0:0-12 bg=4\n")).toBe(true);
    expect(formatGolden(snap, { colors: true, masks: [{ pattern: /\d+/, placeholder: "<n>" }] })).toBe(golden);
  });

  it("keeps a style run that reaches the right edge there whatever the width of the text a mask hides", () => {
    // A status bar's colour runs to the edge: "took 5ms" and "took 120ms" must give one golden.
    const bar = (text: string): ScreenSnapshot => screen([text], { styles: [{ row: 0, start: 0, end: 12, inverse: true }] });
    const a = formatGolden(bar("took 5ms"), { colors: true, masks: [ms] });
    expect(formatGolden(bar("took 120ms"), { colors: true, masks: [ms] })).toBe(a);
    expect(a.endsWith("styles:\n0:0-12 inverse\n")).toBe(true);
  });

  it("refuses a placeholder that would push a row's text past the screen's right edge, and says what to do", () => {
    // "pid 42 ready" fills the 12 columns: "<pid>" is 3 cells wider than "42".
    let error: unknown;
    try {
      formatGolden(screen(["ok", "pid 42 ready"]), { masks: [{ pattern: /\d+/, placeholder: "<pid>" }] });
    } catch (caught) {
      error = caught;
    }
    expect(isPanescopeError(error, "golden")).toBe(true);
    expect((error as Error).message).toBe(
      'row 1: the mask placeholder "<pid>" (5 cells) is wider than the text it masks, "42" (2 cells), and would push the row past the screen\'s 12 columns; use a placeholder no wider than the shortest text the mask matches',
    );
  });

  it("shows control characters in a placeholder visibly", () => {
    expect(framed(formatGolden(screen(["v1"]), { masks: [{ pattern: /\d/, placeholder: "\t" }] }))[0]).toBe("│v␉          │");
  });

  it("records a hidden cursor as hidden, without its position, so the invisible cursor moving changes nothing", () => {
    // A curses menu with curs_set(0) moves its invisible cursor as it draws; no person sees it.
    const at = (cursorX: number, cursorY: number): string => formatGolden(screen(["> one", "  two"], { cursorX, cursorY, cursorVisible: false }));
    expect(at(0, 0)).toContain("\ncursor: hidden\n");
    expect(at(5, 1)).toBe(at(0, 0));
  });

  it("still writes the position of a hidden cursor in the v1 format, as v1 goldens pinned it", () => {
    const v1 = formatGolden(screen(["x"], { cursorX: 1, cursorVisible: false }), { version: 1 });
    expect(v1.split("\n").slice(0, 2)).toEqual(["panescope golden v1", "size: 12x1"]);
    expect(v1).toContain("\ncursor: 1,0\n");
  });
});

describe("parseGolden", () => {
  it("reads back the header, rows and style lines formatGolden wrote", () => {
    const snap = screen(["hi", "中"], { cursorX: 3, cursorY: 1, alternate: true, styles: [{ row: 0, start: 0, end: 2, bold: true }] });
    expect(parseGolden(formatGolden(snap, { colors: true, name: "x" }))).toEqual({
      version: 2,
      name: "x",
      cols: 12,
      rows: 2,
      cursorX: 3,
      cursorY: 1,
      cursorMasked: false,
      cursorVisible: true,
      alternate: true,
      colors: true,
      lines: ["hi          ", "中          "],
      styles: ["0:0-2 bold"],
    });
  });

  it("rejects a newer format version and says how to proceed", () => {
    const text = formatGolden(screen(["a"])).replace("golden v2", "golden v3");
    expect(() => parseGolden(text)).toThrow(/golden format v3 is not supported \(this panescope reads v1 to v2\); upgrade panescope or re-record with --update/);
  });

  it("reads a v1 golden, and a v2 golden whose cursor is hidden", () => {
    const v1 = parseGolden(formatGolden(screen(["a"], { cursorX: 1 }), { version: 1 }));
    expect([v1.version, v1.cursorX, v1.cursorVisible]).toEqual([1, 1, true]);
    const hidden = parseGolden(formatGolden(screen(["a"], { cursorX: 1, cursorVisible: false })));
    expect([hidden.version, hidden.cursorX, hidden.cursorY, hidden.cursorVisible]).toEqual([2, 0, 0, false]);
  });

  it("refuses cursor: hidden in a v1 golden (v1 had no such value)", () => {
    const text = formatGolden(screen(["a"], { cursorVisible: false })).replace("golden v2", "golden v1");
    expect(() => parseGolden(text)).toThrow(/header field "cursor" missing or malformed/);
  });

  it.each([
    ["something else\n", "not a panescope golden"],
    ["panescope golden v\n", "not a panescope golden"],
    ["panescope golden v1\nsize: 2x1\nwhat: ever\n", 'unknown header field "what"'],
    ["panescope golden v1\nsize: 2x1\ncursor: 0,0\nalternate: no\ncolors: off\n┌──┐\n│ab\n└──┘\n", "screen row 0"],
    ["panescope golden v1\nsize: 2x1\ncursor: 0,0\nalternate: no\n┌──┐\n│ab│\n└──┘\n", 'header field "colors" missing'],
    ["panescope golden v1\nsize: 2x1\ncursor: 0,0\nalternate: no\ncolors: off\n┌──┐\n│ab│\n│cd│\n", "bottom of the frame"],
  ])("rejects a malformed golden (%j) with a golden error", (text, why) => {
    try {
      parseGolden(text);
      expect.unreachable();
    } catch (error) {
      expect(isPanescopeError(error, "golden")).toBe(true);
      expect((error as Error).message).toContain(why);
    }
  });

  it("keeps every framed row at full width and round-trips the header for random screens (seeded)", () => {
    const char = fc.constantFrom("a", "Z", " ", "中", "✅", "é", "\u001b", "\t", "│", "─", "e\u0301");
    const row = fc.array(char, { maxLength: 6 }).map((cs) => cs.join("").trimEnd());
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 5 }), fc.nat(12), (lines, cursorX) => {
        const snap = screen(lines, { cursorX, cursorY: lines.length - 1 });
        const golden = formatGolden(snap);
        for (const line of framed(golden)) expect(displayWidth(line)).toBe(14);
        const parsed = parseGolden(golden);
        expect([parsed.cols, parsed.rows, parsed.cursorY, parsed.lines.length]).toEqual([12, lines.length, lines.length - 1, lines.length]);
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it("keeps every framed row, style run and cursor within the screen under masks, or refuses the mask (seeded)", () => {
    const char = fc.constantFrom("a", "1", "22", " ", "中", "é");
    const row = fc
      .array(char, { maxLength: 8 })
      .map((cs) => cs.join("").trimEnd())
      .filter((text) => displayWidth(text) <= 12);
    const mask = fc.record({ pattern: fc.constantFrom(/\d+/, /a+/, /中/), placeholder: fc.constantFrom("", "#", "<n>", "<long>") });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 3 }), fc.array(mask, { maxLength: 2 }), fc.nat(12), (lines, masks, cursorX) => {
        const styles = lines.map((_, y) => ({ row: y, start: 0, end: 12, bold: true }));
        let golden: string;
        try {
          golden = formatGolden(screen(lines, { cursorX, styles }), { colors: true, masks });
        } catch (error) {
          expect(isPanescopeError(error, "golden") && /would push the row past the screen's 12 columns/.test(error.message)).toBe(true);
          return;
        }
        for (const line of framed(golden)) expect(displayWidth(line)).toBe(14);
        const parsed = parseGolden(golden);
        expect(parsed.cursorX).toBeLessThanOrEqual(12);
        for (const style of parsed.styles) expect(Number(/-(\d+) /.exec(style)?.[1])).toBeLessThanOrEqual(12);
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});
