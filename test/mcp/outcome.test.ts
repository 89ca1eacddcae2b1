// The outcome lines of a wait (src/mcp/outcome.ts): a timeout's screen, and the rows of it the
// byte budget cut, said in the caller's words for that budget.
import { describe, expect, it } from "vitest";
import type { Delta } from "../../src/observe/read/delta.js";
import { outcomeLines } from "../../src/mcp/outcome.js";
import type { Decided } from "../../src/mcp/wait.js";

const screen: Delta["screen"] = { cols: 20, rows: 4, top: 0, cursorX: 0, cursorY: 3, alternate: false };

/** A timeout whose screen rows were cut to the last one by the byte budget. */
const timedOut = {
  index: 0,
  outcome: "timeout",
  rawChars: 0,
  delta: { screen } as Delta,
  shown: { rows: [], wraps: [], screen },
  outcomeRows: [{ line: 3, text: "last" }],
  outcomeRowsCut: 3,
} satisfies Decided;
const condition = { timeoutMs: 300, timeoutCapped: false, raw: false, pattern: undefined, quietMs: undefined, closed: false, ready: false };

describe("a wait's outcome lines", () => {
  it("say the rows the budget cut, by MCP's argument unless the caller names it otherwise", () => {
    const lines = outcomeLines(timedOut, condition, timedOut.outcomeRows);
    expect(lines).toEqual(["nothing matched within 300 ms", "the screen as displayed (blank rows left out):", "cut 3 rows of these (maxBytes)", "3|last"]);
    const shell = outcomeLines(timedOut, condition, timedOut.outcomeRows, { rowLimits: "--max-lines", byteLimit: "an answer's cap", rowsView: "--view rows" });
    expect(shell[2]).toBe("cut 3 rows of these (an answer's cap)");
  });
});

describe("a wait's hints at an agent's mistakes", () => {
  const shown = { rows: ["$ make", "done", "$"], wraps: [], screen: { ...screen, top: 10 } };
  const delta = (rows: { line: number; text: string }[]) => ({ screen, rows, first: false, missed: false, truncated: { rows: 0, rawChars: 0 } }) as unknown as Delta;
  const matched = (rows: { line: number; text: string }[]) =>
    ({ index: 0, outcome: "matched", rawChars: 0, found: { screen: { text: "done", rows: [{ line: 11, text: "done" }], where: "screen row 1" } }, delta: delta(rows), shown, outcomeRows: [], outcomeRowsCut: 0 }) satisfies Decided;

  it("a screen match on rows unchanged since the cursor says the text was already there", () => {
    expect(outcomeLines(matched([]), condition, undefined)[0]).toBe("matched at screen row 1, unchanged since the cursor (or the call's start): it was already there:");
    expect(outcomeLines(matched([{ line: 12, text: "$" }]), condition, undefined)[0]).toContain("it was already there");
  });

  it("a screen match on a row that changed since the cursor is said plainly", () => {
    expect(outcomeLines(matched([{ line: 11, text: "done" }]), condition, undefined)[0]).toBe("matched at screen row 1:");
  });

  it("a timed-out pattern written as /regex/flags says its slashes and flags are matched as text", () => {
    const lines = outcomeLines(timedOut, { ...condition, pattern: { source: "/DONE/i", flags: "m" } }, timedOut.outcomeRows);
    expect(lines[1]).toBe("the pattern's / at both ends (and any letters after the last) are matched as text: give the regex without /.../ and its flags (for i: ignoreCase: true)");
    expect(outcomeLines(timedOut, { ...condition, pattern: { source: "DONE", flags: "m" } }, timedOut.outcomeRows).join("\n")).not.toContain("matched as text");
    // The shell's wait has no ignore-case knob: not named.
    const shell = outcomeLines(timedOut, { ...condition, pattern: { source: "/DONE/i", flags: "m" } }, timedOut.outcomeRows, { rowLimits: "--max-lines", byteLimit: "the cap", rowsView: "--view rows" });
    expect(shell[1]).toMatch(/and its flags$/);
  });
});
