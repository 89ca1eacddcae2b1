// The demo's view of one answer: rows beside raw when both fit, stacked when the terminal is
// narrower, and in every width the end of a progress row (its percentage) stays visible.
import { describe, expect, it } from "vitest";
import type { Delta } from "../../src/observe/read/delta.js";
import { rawLines, renderDelta, wrap } from "../../src/demo/render.js";

const base: Delta = {
  paneId: "%0",
  cursor: "c",
  first: false,
  rows: [],
  screen: { cols: 100, rows: 12, top: 0, cursorX: 0, cursorY: 1, alternate: false },
  raw: "",
  rawBytes: 0,
  missed: false,
  missedBytes: 0,
  closed: false,
  streaming: true,
  truncated: { rows: 0, rawChars: 0 },
};

/** What src/demo/progress.ts draws: 20 frames over one row. */
const frames = Array.from({ length: 20 }, (_, i) => `\rdownloading [${"#".repeat(Math.round(i / 4)).padEnd(10, ".")}] ${String(i * 5).padStart(3)}%`);
const progress: Delta = {
  ...base,
  rows: [{ line: 1, text: "downloading [##########]  95%" }],
  raw: frames.join(""),
  rawBytes: 1400,
};

/** What src/demo/dashboard.ts draws: five job rows and a tick on the alternate screen. */
const dashboard: Delta = {
  ...base,
  rows: [
    { line: 2, text: "  build      ok      ■■■■■■■■■■" },
    { line: 3, text: "  test       running ■■■■■■■···" },
    { line: 9, text: "  tick 12" },
  ],
  screen: { ...base.screen, alternate: true },
  raw: "build      ok      ■■■■■■■■■■test       running ■■■■■■■···tick 12",
  rawBytes: 180,
};

const TITLE = "progress bar, 1.2 s later: ~20 frames drawn over one row";

describe("demo rendering", () => {
  it("shows each \\r frame of raw on its own line, so overwritten frames can be counted", () => {
    expect(rawLines("\ra\rb\nc")).toEqual(["⏎a", "⏎b", "c"]);
  });

  it("puts the changed rows beside the raw frames when both fit (100 columns)", () => {
    const lines = renderDelta(TITLE, progress, 8, 100).split("\n");
    expect(lines[2]).toMatch(/^ {3} 1 │ downloading \[##########\] {2}95% +┊ ⏎downloading \[\.{10}\] {3}0%$/);
    expect(lines.at(-1)).toMatch(/┊ … 13 more lines$/);
  });

  it.each([80, 60, 40])("at %i columns every line fits and the percentages stay visible", (cols) => {
    for (const delta of [progress, dashboard]) {
      const text = renderDelta(TITLE, delta, 8, cols);
      for (const line of text.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(cols);
      expect(text).not.toContain("…\n");
    }
    const text = renderDelta(TITLE, progress, 8, cols);
    expect(text).toContain("1 │ downloading [##########]  95%");
    expect(text).toContain("⏎downloading [#.........]  15%");
    expect(renderDelta("dashboard", dashboard, 8, cols)).toContain("2 │   build      ok      ■■■■■■■■■■");
  });

  it("stacks the rows above the raw output when they would not fit side by side", () => {
    const lines = renderDelta("dashboard", dashboard, 8, 60).split("\n");
    expect(lines.slice(1)).toEqual([
      "  rows: 3 changed, 108 B",
      "     2 │   build      ok      ■■■■■■■■■■",
      "     3 │   test       running ■■■■■■■···",
      "     9 │   tick 12",
      "  raw: 180 B printed, 102 B text",
      "    build      ok      ■■■■■■■■■■test       running ■■■■■■■·",
      "    ··tick 12",
    ]);
  });

  it("wraps a full-screen repaint's raw line, so more than its top row (a title padded with blanks) shows", () => {
    const repaint: Delta = { ...dashboard, raw: `${" panescope demo dashboard".padEnd(100)}${dashboard.raw}`, rawBytes: 300 };
    const raw = renderDelta("dashboard", repaint, 8, 80).split("\n").slice(5);
    expect(raw[0]).toBe("  raw: 300 B printed, 202 B text");
    expect(raw[1]).toBe("     panescope demo dashboard");
    expect(raw[2]).toMatch(/^ {4} +build {6}ok {6}■{10}test/);
  });

  it("wraps a long title instead of letting the terminal cut it", () => {
    const lines = renderDelta(TITLE, progress, 8, 40).split("\n");
    expect(lines.slice(0, 2)).toEqual(["── capture_since %0 · progress bar, 1.2", "   s later: ~20 frames drawn over one"]);
    expect(wrap("a bb ccc", 4, "")).toEqual(["a bb", "ccc"]);
  });
});
