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
