// The width policy of each tmux version, applied by a headless screen: the columns every sample
// takes (measured on tmux 3.2a–3.7c, test/support/width-samples.ts), the rules' switches, and
// the ASCII fast path.
import { describe, expect, it } from "vitest";
import { Screen } from "../../src/observe/screen.js";
import { widthPolicy, type WidthFacts } from "../../src/observe/width-policy.js";
import { rulesFor } from "../../src/observe/width-table.js";
import { KNOWN_DIFFERENCES, WIDTH_SAMPLES, columnsOf, versionNumber } from "../support/width-samples.js";

/** Columns `text` takes after an "x" on a screen with this policy (undefined: xterm's Unicode 11). */
async function columns(text: string, facts?: WidthFacts): Promise<number> {
  const screen = new Screen({ cols: 40, rows: 4, ...(facts ? { widths: widthPolicy(facts) } : {}) });
  await new Promise<void>((resolve) => screen.write(`x${text}`, resolve));
  const x = screen.cursorX - 1;
  screen.dispose();
  return x;
}

const VERSIONS = ["3.2a", "3.3a", "3.4", "3.5a", "3.6a", "3.7c"];

describe("width policy", () => {
  it.each(VERSIONS)("on tmux %s every sample takes the columns tmux gives it, but for the listed differences", async (version) => {
    const rules = rulesFor(version);
    const wrong: string[] = [];
    for (const sample of WIDTH_SAMPLES) {
      const known = KNOWN_DIFFERENCES.find((d) => d.sample === sample.name && d.at === "after x" && versionNumber(version) >= d.from && versionNumber(version) <= d.to);
      // A listed difference names where the replica's cursor ends up instead (after "x", sample, "|").
      const want = known ? (known.replica.y === 0 ? known.replica.x - 2 : Number.NaN) : columnsOf(sample, rules);
      if (Number.isNaN(want)) continue; // the sample moved the cursor to another row (C1 NEL)
      const got = await columns(sample.text, { version });
      if (got !== want) wrong.push(`${sample.name}: ${got}, not ${want}`);
    }
    expect(wrong).toEqual([]);
  });

  it("without a policy a screen keeps xterm's Unicode 11 widths (a ZWJ family is 6 columns)", async () => {
    expect(await columns("\u{1f468}\u200d\u{1f469}\u200d\u{1f467}")).toBe(6);
    expect(await columns("\u{1f468}\u200d\u{1f469}\u200d\u{1f467}", { version: "3.3a" })).toBe(2);
  });

  it("picks the rules from the version, newest for one it does not know", () => {
    expect(["3.2a", "3.3", "3.3a", "3.4", "3.5a", "next-3.6", "3.6a", "3.7c", "3.10", "master"].map(rulesFor)).toEqual([
      "3.2", "3.3", "3.3", "3.4", "3.4", "3.6", "3.6", "3.7", "3.7", "3.7",
    ]);
  });

  it("gives every printable ASCII character the same properties, whatever came before, and never joins it", () => {
    const provider = widthPolicy({ version: "3.6a" }).providerFor();
    const after = [0, provider.charProperties(0x1f468, 0), provider.charProperties(0x200d, provider.charProperties(0x1f468, 0))];
    const values = new Set<number>();
    for (let cp = 0x20; cp < 0x7f; cp++) for (const preceding of after) values.add(provider.charProperties(cp, preceding));
    expect(values.size).toBe(1);
    const [value = 0] = values;
    expect({ join: value & 1, width: (value >> 1) & 3 }).toEqual({ join: 0, width: 1 });
  });

  it("follows tmux 3.6+'s codepoint-widths option, and not on a version without it", async () => {
    const entries = ["U+1F642=1", "U+4E00-U+4E01=1", "\u2764=2", "U+zz=2", "U+2600"];
    expect(await columns("\u{1f642}", { version: "3.6a", codepointWidths: entries })).toBe(1);
    expect(await columns("\u4e00\u4e01\u4e02", { version: "3.7c", codepointWidths: entries })).toBe(4);
    expect(await columns("\u2764", { version: "3.7c", codepointWidths: entries })).toBe(2);
    expect(await columns("\u{1f642}", { version: "3.4", codepointWidths: entries })).toBe(2);
  });

  it("widens with VS16 on 3.6+ only while variation-selector-always-wide is on", async () => {
    expect(await columns("\u2764\ufe0f", { version: "3.6a" })).toBe(2);
    expect(await columns("\u2764\ufe0f", { version: "3.6a", vsAlwaysWide: false })).toBe(1);
  });

  it("takes the widths the server measured over its version's table, and counts them", async () => {
    const learned = { codepoints: [0x1f642, 0x4dc0], widths: [1, 2], checked: 20 };
    const policy = widthPolicy({ version: "3.4", learned });
    expect([policy.widthOf(0x1f642), policy.widthOf(0x4dc0), policy.checked, policy.learned]).toEqual([1, 2, 20, 2]);
    expect(await columns("\u{1f642}", { version: "3.4", learned })).toBe(1);
  });

  it("joins across an escape sequence by looking at the cell left of the cursor, as tmux does", async () => {
    // A skin tone after a colour change still joins its emoji (tmux 3.4+), a ZWJ sequence too (3.3+).
    expect(await columns("\u{1f44d}\x1b[31m\u{1f3fd}", { version: "3.5a" })).toBe(2);
    expect(await columns("\u{1f468}\u200d\x1b[31m\u{1f469}", { version: "3.3a" })).toBe(2);
    expect(await columns("\u{1f468}\u200d\x1b[31m\u{1f469}", { version: "3.2a" })).toBe(4);
    // After a cursor movement it is the cell now left of the cursor: a space, nothing to join.
    expect(await columns("\u{1f468}\u200d\x1b[C\u{1f469}", { version: "3.7c" })).toBe(5);
  });
});
