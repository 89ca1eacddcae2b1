// The demo's side-by-side view of one answer: rows beside raw, fitted to the terminal.
import { describe, expect, it } from "vitest";
import type { Delta } from "../../src/observe/delta.js";
import { rawLines, renderDelta } from "../../src/demo/render.js";

const delta: Delta = {
  paneId: "%0",
  cursor: "c",
  first: false,
  rows: [{ line: 1, text: "downloading [##########..........]  48%" }],
  screen: { cols: 80, rows: 5, top: 0, cursorX: 0, cursorY: 1, alternate: false },
  raw: "\rdownloading 10%\rdownloading 20%",
  rawBytes: 40,
  missed: false,
  missedBytes: 0,
  closed: false,
  streaming: true,
  truncated: { rows: 0, rawChars: 0 },
};

describe("demo rendering", () => {
  it("shows each \\r frame of raw on its own line, so overwritten frames can be counted", () => {
    expect(rawLines("\ra\rb\nc")).toEqual(["⏎a", "⏎b", "c"]);
  });

  it("puts the changed row with its screen row beside the raw frames", () => {
    const text = renderDelta("bar", delta);
    expect(text).toContain("  1 │ downloading [##########..........]  48%");
    expect(text).toContain("┊ ⏎downloading 10%");
  });

  it("fits an 80-column terminal", () => {
    for (const line of renderDelta("bar", delta, 8, 80).split("\n").slice(1)) expect([...line].length).toBeLessThanOrEqual(80);
  });
});
