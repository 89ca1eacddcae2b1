// The per-code-point widths of each tmux version before learning, the codepoint-widths option, and
// the blocks a server is asked about.
import { describe, expect, it } from "vitest";
import { PROBE_RANGES, applyCodepointWidths, defaultWidths, probeBlocks } from "../../../src/observe/widths/table.js";

describe("default widths", () => {
  it("are glibc's wcwidth() where every version agrees", () => {
    for (const rules of ["3.2", "3.3", "3.4", "3.6", "3.7"] as const) {
      const table = defaultWidths(rules);
      expect([table[0x41], table[0xe9], table[0x301], table[0x65e5], table[0xac00], table[0x1f642], table[0x200d], table[0xe000]]).toEqual([1, 1, 0, 2, 2, 2, 0, 1]);
    }
  });

  it("give what glibc cannot print 1 column on 3.2, none on 3.3 (dropped), and 1 on 3.4+ except C1 controls", () => {
    const unassigned = 0x1faff;
    expect(["3.2", "3.3", "3.4", "3.7"].map((rules) => defaultWidths(rules as "3.2")[unassigned])).toEqual([1, 0, 1, 1]);
    expect(["3.2", "3.3", "3.4", "3.7"].map((rules) => defaultWidths(rules as "3.2")[0x85])).toEqual([1, 0, 0, 0]);
  });

  it("force tmux 3.4+'s emoji wide, and regional indicators to 2 on 3.4 but 1 on 3.6+", () => {
    const pointing = 0x261d;
    const regional = 0x1f1eb;
    expect(["3.3", "3.4", "3.6", "3.7"].map((rules) => [defaultWidths(rules as "3.3")[pointing], defaultWidths(rules as "3.3")[regional]])).toEqual([
      [1, 1],
      [2, 2],
      [2, 1],
      [2, 1],
    ]);
  });

  it("are a fresh copy each time", () => {
    const table = defaultWidths("3.4");
    table[0x41] = 2;
    expect(defaultWidths("3.4")[0x41]).toBe(1);
  });
});

describe("codepoint-widths", () => {
  it("takes U+XXXX=W, a U+XXXX-U+YYYY=W range and C=W, and ignores malformed entries", () => {
    const table = defaultWidths("3.7");
    applyCodepointWidths(table, ["U+1F642=1", "U+2600-U+2602=2", "\u00e9=2", "U+0=1", "U+2603-U+2600=2", "U+2604=3", "nonsense", "U+2605"]);
    expect([0x1f642, 0x2600, 0x2601, 0x2602, 0xe9, 0x0, 0x2603, 0x2604, 0x2605].map((cp) => table[cp])).toEqual([1, 2, 2, 2, 2, 0, 1, 1, 1]);
  });
});

describe("probe blocks", () => {
  it("cover every code point of the probe ranges once, 16 at most a block, no ASCII, no surrogate", () => {
    const blocks = probeBlocks();
    const flat = blocks.flat();
    const expected = PROBE_RANGES.flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, i) => first + i));
    expect(flat).toEqual(expected);
    expect(blocks.every((block) => block.length >= 1 && block.length <= 16)).toBe(true);
    expect(flat.some((cp) => cp < 0xa0 || (cp >= 0xd800 && cp <= 0xdfff))).toBe(false);
  });
});
