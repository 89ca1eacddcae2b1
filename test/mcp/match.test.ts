// wait_for's pure parts: pattern compilation and matching on screen rows and raw text.
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { compilePattern, hasNestedQuantifier, keepTail, matchRaw, matchScreen, MAX_PATTERN_CHARS } from "../../src/mcp/match.js";

function kindOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isPanescopeError(error) ? error.kind : "other";
  }
  return undefined;
}

describe("wait_for matching", () => {
  it("a bad, empty or oversized pattern is bad input, not a crash", () => {
    expect(kindOf(() => compilePattern("("))).toBe("bad-input");
    expect(kindOf(() => compilePattern(""))).toBe("bad-input");
    expect(kindOf(() => compilePattern("a".repeat(MAX_PATTERN_CHARS + 1)))).toBe("bad-input");
  });

  it("refuses patterns that could backtrack for ages, accepts ordinary ones", () => {
    for (const bad of ["(a+)+$", "(a|b*)*", "(x{2,}){3}", "((ab)+c)*", "(?:a+)+"]) expect(hasNestedQuantifier(bad), bad).toBe(true);
    for (const ok of ["done", "^\\$ $", "(a+)?", "(ab)+", "[(a+)]+", "\\(a+\\)+", "error: .*", "(?:foo|bar)+", "\\d+ms", "(a+?)"]) {
      expect(hasNestedQuantifier(ok), ok).toBe(false);
    }
    expect(kindOf(() => compilePattern("(a+)+$"))).toBe("bad-input");
  });

  it("^ and $ match at each screen row, and the touched rows carry absolute lines", () => {
    const found = matchScreen(compilePattern("^done$"), ["build", "done", ""], 40);
    expect(found).toEqual({ text: "done", rows: [{ line: 41, text: "done" }] });
  });

  it("a match spanning rows returns every row it touches", () => {
    const found = matchScreen(compilePattern("b\\nc"), ["a", "b", "c"], 0);
    expect(found?.rows.map((r) => r.text)).toEqual(["b", "c"]);
  });

  it("ignoreCase matches regardless of case; no match is undefined", () => {
    expect(matchScreen(compilePattern("ERROR", true), ["an error"], 0)?.text).toBe("error");
    expect(matchScreen(compilePattern("ERROR"), ["an error"], 0)).toBeUndefined();
  });

  it("a raw match returns its whole line as context", () => {
    expect(matchRaw(compilePattern("ok \\d+"), "start\r\ntests ok 12 passed\r\nend")).toEqual({ text: "ok 12", context: "tests ok 12 passed" });
  });

  it("the raw window keeps the newest text and never splits a surrogate pair", () => {
    expect(keepTail("abcdef", 3)).toBe("def");
    expect(keepTail("x😀y", 2)).toBe("y");
  });
});
