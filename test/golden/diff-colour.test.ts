// Coloured golden diffs: when to colour (NO_COLOR, FORCE_COLOR, a terminal), and in-line marks on
// the words that changed in a row, nothing else.
import { describe, expect, it } from "vitest";
import { compareGolden } from "../../src/golden/compare.js";
import { colourDiff, diffTokens, markChanges, wantColour } from "../../src/golden/diff-colour.js";

const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, "");

describe("wantColour", () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: "1" }, true, false],
    [{ NO_COLOR: "" }, true, true],
    [{ FORCE_COLOR: "1" }, false, true],
    [{ FORCE_COLOR: "0" }, true, false],
    [{ FORCE_COLOR: "false" }, true, false],
    [{ NO_COLOR: "1", FORCE_COLOR: "1" }, true, false],
  ])("env %j on a terminal=%s colours: %s", (env, tty, want) => {
    expect(wantColour(env, tty)).toBe(want);
  });
});

describe("markChanges", () => {
  it("marks the changed word, not scattered letters", () => {
    expect(markChanges("│hello, golden│", "│hello, world │", "[", "]")).toEqual({ removed: "│hello, [golden]│", added: "│hello, [world ]│" });
  });

  it("marks only the digits of a progress line that moved", () => {
    expect(markChanges("40% 12 MB", "50% 12 MB", "[", "]")).toEqual({ removed: "[40]% 12 MB", added: "[50]% 12 MB" });
  });

  it("cuts a row into words, blanks and single other characters", () => {
    expect(diffTokens("a1  é─中x")).toEqual(["a1", "  ", "é", "─", "中x"]);
  });
});

describe("colourDiff", () => {
  const diff = compareGolden("head\n│one │\n│two │\ntail\n", "head\n│one │\n│twa │\ntail\n").diff;

  it("keeps the diff's text exactly once the colours are stripped", () => {
    expect(plain(colourDiff(diff))).toBe(diff);
  });

  it("paints removed rows red and added rows green with the changed word in reverse video", () => {
    const lines = colourDiff(diff).split("\n");
    expect(lines).toContain("\u001b[31m-│\u001b[7mtwo\u001b[27m │\u001b[0m");
    expect(lines).toContain("\u001b[32m+│\u001b[7mtwa\u001b[27m │\u001b[0m");
    expect(lines.filter((l) => l.includes("\u001b[7m"))).toHaveLength(2);
  });

  it("does not take a removed row that starts with -- for the header", () => {
    const rows = compareGolden("--a\n", "--b\n").diff;
    expect(colourDiff(rows).split("\n")[3]).toBe("\u001b[31m---\u001b[7ma\u001b[27m\u001b[0m");
  });
});
