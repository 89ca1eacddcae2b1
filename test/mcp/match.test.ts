// wait_for's pure parts: pattern checking, and where a match lies on screen rows or in raw text.
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { compilePattern, keepTail, locateInRaw, locateOnScreen, MAX_PATTERN_CHARS, screenText, type Pattern } from "../../src/mcp/match.js";
import type { RegexMatch } from "../../src/mcp/regex-runner.js";

function kindOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isPanescopeError(error) ? error.kind : "other";
  }
  return undefined;
}

/** These tests' patterns are benign: run them here (the server runs them in the RegexRunner). */
function exec(pattern: Pattern, text: string): RegexMatch {
  const m = new RegExp(pattern.source, pattern.flags).exec(text);
  if (m === null) throw new Error("no match");
  return { index: m.index, text: m[0] };
}

describe("wait_for patterns", () => {
  it("a bad, empty or oversized pattern is bad input, not a crash", () => {
    expect(kindOf(() => compilePattern("("))).toBe("bad-input");
    expect(kindOf(() => compilePattern(""))).toBe("bad-input");
    expect(kindOf(() => compilePattern("a".repeat(MAX_PATTERN_CHARS + 1)))).toBe("bad-input");
  });

  it("accepts any valid pattern, nested repeats included (the runner's budget stops a slow one)", () => {
    expect(compilePattern("(a+)+$")).toEqual({ source: "(a+)+$", flags: "m" });
    expect(compilePattern("(?<=x)y\\1?", true)).toEqual({ source: "(?<=x)y\\1?", flags: "mi" });
  });
});

describe("where a match lies", () => {
  it("^ and $ match at each screen row, and the touched rows carry absolute lines", () => {
    const rows = ["build", "done", ""];
    const found = locateOnScreen(exec(compilePattern("^done$"), screenText(rows)), rows, 40);
    expect(found).toEqual({ text: "done", rows: [{ line: 41, text: "done" }], where: "screen row 1" });
  });

  it("a match spanning rows returns every row it touches", () => {
    const rows = ["a", "b", "c"];
    const found = locateOnScreen(exec(compilePattern("b\\nc"), screenText(rows)), rows, 0);
    expect(found.rows.map((r) => r.text)).toEqual(["b", "c"]);
    expect(found.where).toBe("screen rows 1-2");
  });

  it("a line the pane wrapped is matched as one line, and the match names both rows", () => {
    const rows = ["$ cat url", "https://exa", "mple.com/x", "$"];
    const wraps = [undefined, "https://exa", undefined, undefined];
    expect(screenText(rows, wraps)).toBe("$ cat url\nhttps://example.com/x\n$");
    const found = locateOnScreen(exec(compilePattern("^https://example\\.com/x$"), screenText(rows, wraps)), rows, 10, wraps);
    expect(found).toEqual({ text: "https://example.com/x", rows: [{ line: 11, text: "https://exa" }, { line: 12, text: "mple.com/x" }], where: "screen rows 1-2" });
    expect(locateOnScreen(exec(compilePattern("^\\$$"), screenText(rows, wraps)), rows, 10, wraps).where).toBe("screen row 3");
  });

  it("a raw match returns its whole line as context and says which line it is, in words", () => {
    const raw = "start\r\ntests ok 12 passed\r\nend\r\n";
    expect(locateInRaw(exec(compilePattern("ok \\d+"), raw), raw)).toEqual({
      text: "ok 12",
      context: "tests ok 12 passed",
      where: "raw output since the cursor, line 2 of 3",
    });
  });

  it("the raw window keeps the newest text and never splits a surrogate pair", () => {
    expect(keepTail("abcdef", 3)).toBe("def");
    expect(keepTail("x😀y", 2)).toBe("y");
  });
});
