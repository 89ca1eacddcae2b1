// Text renderings of capture_since answers: header, screen row numbers, raw only when it adds something.
import { describe, expect, it } from "vitest";
import type { Delta } from "../../src/observe/delta.js";
import { deltaHeader, rawAdds, renderDelta, renderRows, showControls } from "../../src/mcp/render.js";

function delta(over: Partial<Delta> = {}): Delta {
  return {
    paneId: "%1",
    cursor: "CUR",
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
    ...over,
  };
}

describe("renderDelta", () => {
  it("an empty answer says nothing changed and still gives the cursor", () => {
    expect(renderDelta(delta())).toBe("pane %1 · 80x24 · cursor row 5 col 2\nno change since the cursor\ncursor: CUR");
  });

  it("rows carry screen row numbers, negative once scrolled into history", () => {
    expect(renderRows([{ line: 98, text: "old" }, { line: 100, text: "top" }, { line: 111, text: "x" }], 100)).toEqual(["-2│old", " 0│top", "11│x"]);
  });

  it("a progress bar shows its one row and the raw frames it overwrote", () => {
    const text = renderDelta(delta({ rows: [{ line: 103, text: "50%" }], raw: "\r10%\r20%\r50%\r\n", rawBytes: 14 }));
    expect(text).toContain("3│50%");
    expect(text).toContain("frames overwritten in place");
    expect(text).toContain("\\r10%\\r20%\\r50%");
  });

  it("a log whose lines are all in the rows does not repeat them as raw", () => {
    const text = renderDelta(delta({ rows: [{ line: 110, text: "one" }, { line: 111, text: "two" }], raw: "one\r\ntwo\r\n", rawBytes: 10 }));
    expect(text).not.toContain("raw output");
    expect(text).toContain("raw: 10 bytes, nothing the rows do not show");
  });

  it("lines that scrolled out of the rows are shown raw", () => {
    expect(rawAdds(delta({ rows: [{ line: 110, text: "two" }], raw: "one\r\ntwo\r\n" }))).toBe("lines the rows no longer show");
  });

  it("a wrapped line is found in the rows that hold its pieces", () => {
    expect(rawAdds(delta({ rows: [{ line: 110, text: "abc" }, { line: 111, text: "def" }], raw: "abcdef\r\n" }))).toBeUndefined();
  });

  it("a full-screen program's raw text is never shown: the rows are the screen", () => {
    const screen = { cols: 80, rows: 24, top: 0, cursorX: 0, cursorY: 0, alternate: true };
    expect(rawAdds(delta({ screen, rows: [{ line: 0, text: "~" }], raw: "garbage\rmore" }))).toBeUndefined();
    expect(renderDelta(delta({ screen }))).toContain("alternate screen");
  });

  it("the header flags missed, closed, polling, truncation and the wait", () => {
    const header = deltaHeader(
      delta({ missed: true, missedBytes: 12, reason: "paused", closed: true, streaming: false, truncated: { rows: 3, rawChars: 7 } }),
      { waitMs: 30000, waitCapMs: 30000, waitClamped: true, waitEnded: "timeout" },
    );
    expect(header).toBe(
      "pane %1 · 80x24 · cursor row 5 col 2 · MISSED 12 bytes (paused) · CLOSED · not streaming (polled) · truncated 3 rows, 7 raw chars · waited up to 30000 ms (capped at 30000): timeout",
    );
  });

  it("control characters in raw text are made visible", () => {
    expect(showControls("a\rb\bc\x07\td\n")).toBe("a\\rb\\bc\\x07\td\n");
  });
});
