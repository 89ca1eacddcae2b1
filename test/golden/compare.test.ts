// Golden comparison: equal texts give no diff; a changed screen gives a unified diff a person can
// read in a terminal and `patch` could apply once its folded blank rows are expanded (checked by a
// seeded property).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareGolden } from "../../src/golden/compare.js";

const text = (lines: string[]): string => lines.map((l) => `${l}\n`).join("");

/** Apply a unified diff produced by compareGolden (hunks in order, exact context). */
function applyPatch(original: string, diff: string): string {
  const src = original === "" ? [] : original.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  let at = 0;
  let noEol = !original.endsWith("\n") && original !== "";
  // A fold line `+┆ N more blank rows` stands for N more copies of the line above it.
  const lines = diff
    .replace(/\n$/, "")
    .split("\n")
    .slice(2)
    .flatMap((line, i, all) => {
      const fold = /^[ +-]┆ (\d+) more blank rows$/.exec(line);
      return fold === null ? [line] : Array.from({ length: Number(fold[1]) }, () => all[i - 1] ?? "");
    });
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const hunk = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(line);
    if (hunk !== null) {
      const start = Number(hunk[1]) - (hunk[2] === "0" ? 0 : 1);
      while (at < start) out.push(src[at++] ?? "");
      continue;
    }
    if (line === "\\ No newline at end of file") {
      noEol = (lines[i - 1] ?? "").startsWith("+") || (lines[i - 1] ?? "").startsWith(" ");
      continue;
    }
    const body = line.slice(1);
    if (line.startsWith(" ") || line.startsWith("-")) {
      expect(src[at]).toBe(body);
      at++;
    }
    if (line.startsWith(" ") || line.startsWith("+")) {
      out.push(body);
      noEol = false;
    }
  }
  while (at < src.length) out.push(src[at++] ?? "");
  if (out.length === 0) return "";
  return out.join("\n") + (noEol ? "" : "\n");
}

describe("compareGolden", () => {
  it("says equal texts are equal and gives no diff", () => {
    expect(compareGolden("a\nb\n", "a\nb\n")).toEqual({ equal: true, diff: "" });
  });

  it("shows a changed row as a unified diff with the old and the new row and 3 lines of context", () => {
    const before = ["┌────┐", "│r0  │", "│r1  │", "│r2  │", "│r3  │", "│r4  │", "│r5  │", "│r6  │", "└────┘"];
    const after = before.map((l) => (l === "│r4  │" ? "│R4! │" : l));
    const { equal, diff } = compareGolden(text(before), text(after), { expected: "golden/demo/main.golden", actual: "screen" });
    expect(equal).toBe(false);
    expect(diff).toBe(
      ["--- golden/demo/main.golden", "+++ screen", "@@ -3,7 +3,7 @@", " │r1  │", " │r2  │", " │r3  │", "-│r4  │", "+│R4! │", " │r5  │", " │r6  │", " └────┘", ""].join("\n"),
    );
  });

  it("splits far-apart changes into separate hunks and joins near ones", () => {
    const a = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const far = a.map((l, i) => (i === 2 || i === 25 ? `${l}!` : l));
    expect(compareGolden(text(a), text(far)).diff.match(/^@@ .* @@$/gm)).toEqual(["@@ -1,6 +1,6 @@", "@@ -23,7 +23,7 @@"]);
    const near = a.map((l, i) => (i === 10 || i === 16 ? `${l}!` : l));
    expect(compareGolden(text(a), text(near)).diff.match(/^@@ .* @@$/gm)).toEqual(["@@ -8,13 +8,13 @@"]);
  });

  it("shows escape characters, tabs and trailing spaces visibly in the diff", () => {
    const { diff } = compareGolden("a\n", "\u001b[31ma\tb  \n");
    expect(diff).toContain("+␛[31ma␉b␠␠\n");
    expect(diff).not.toContain("\u001b");
  });

  it("treats a whole missing golden as all additions", () => {
    expect(compareGolden("", "x\ny\n").diff).toBe("--- expected\n+++ actual\n@@ -0,0 +1,2 @@\n+x\n+y\n");
  });

  it("reports a missing final newline instead of showing two identical lines", () => {
    const { diff } = compareGolden("a\nb\n", "a\nb");
    expect(diff).toBe("--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n");
  });

  it("produces a diff that turns the expected text into the actual text (seeded property)", () => {
    const line = fc.constantFrom("│a │", "│b │", "│c │", "│   │", "│   │", "│   │", "x", "", "styles:", "0:0-1 bold");
    const doc = fc.tuple(fc.array(line, { maxLength: 25 }), fc.boolean()).map(([ls, eol]) => (ls.length === 0 ? "" : ls.join("\n") + (eol ? "\n" : "")));
    fc.assert(
      fc.property(doc, doc, (a, b) => {
        const { equal, diff } = compareGolden(a, b);
        expect(equal).toBe(a === b);
        if (!equal) expect(applyPatch(a, diff)).toBe(b);
      }),
      { seed: 7, numRuns: 1000 },
    );
  });

  it("folds a run of blank screen rows into one line that counts them, keeping the real hunk counts", () => {
    const blank = `│${" ".repeat(10)}│`;
    const before = ["┌──────────┐", "│$ ls      │", "│a  b  c   │", "│$         │", ...Array(20).fill(blank), "└──────────┘"];
    const after = ["┌──────────┐", ...Array(23).fill(blank), "└──────────┘"];
    const { diff } = compareGolden(text(before), text(after));
    expect(diff).toBe(
      ["--- expected", "+++ actual", "@@ -1,7 +1,7 @@", " ┌──────────┐", "-│$ ls      │", "-│a  b  c   │", "-│$         │", `+${blank}`, "+┆ 2 more blank rows", ` ${blank}`, " ┆ 2 more blank rows", ""].join("\n"),
    );
  });

  it("leaves two blank rows and blank rows of different widths as they are", () => {
    const { diff } = compareGolden("x\n", "│ │\n│ │\n│  │\n");
    expect(diff).toBe("--- expected\n+++ actual\n@@ -1 +1,3 @@\n-x\n+│ │\n+│ │\n+│  │\n");
  });

  it("diffs two 1000-row screens that differ everywhere without trouble", () => {
    const a = text(Array.from({ length: 1000 }, (_, i) => `a${i}`));
    const b = text(Array.from({ length: 1000 }, (_, i) => `b${i}`));
    const { diff } = compareGolden(a, b);
    expect(diff.split("\n").filter((l) => l.startsWith("-") && !l.startsWith("---"))).toHaveLength(1000);
  });
});
