// Reading a server's width facts and measuring widths: the command formats and the parsing of
// tmux's replies (recorded from tmux 3.3a and 3.7c).
import { describe, expect, it } from "vitest";
import { parseProbe, serverWidths } from "../../src/tmux/widths.js";

describe("serverWidths", () => {
  it("reads version, generation and 3.6+ options from one display-message (tmux 3.7c)", async () => {
    const asked: string[][] = [];
    const facts = await serverWidths(async (argv) => (asked.push([...argv]), ["3.7c 4242 1796058591 1 U+1F600=1 U+2600-U+2605=2"]));
    expect(asked).toHaveLength(1);
    expect(facts).toEqual({ version: "3.7c", generation: "4242:1796058591", vsAlwaysWide: true, codepointWidths: ["U+1F600=1", "U+2600-U+2605=2"] });
  });

  it("leaves the options out where the version has none (tmux 3.3a)", async () => {
    const facts = await serverWidths(async () => ["3.3a 4242 1796058591  "]);
    expect(facts).toEqual({ version: "3.3a", generation: "4242:1796058591", codepointWidths: [] });
  });

  it("says what it got when the reply is not a version", async () => {
    await expect(serverWidths(async () => [""])).rejects.toMatchObject({ kind: "protocol" });
  });
});

describe("width probes", () => {
  it("measure each text by the padding tmux adds up to a known width", () => {
    expect(parseProbe("日 |é  |\u0301   |", [3, 3, 3])).toEqual([2, 1, 0]);
  });

  it("count ASCII spaces only: an ideographic space is the text, not padding", () => {
    expect(parseProbe("\u3000 |", [3])).toEqual([2]);
  });

  it("refuse a reply with another number of items", () => {
    expect(() => parseProbe("日 |", [3, 3])).toThrow(expect.objectContaining({ kind: "protocol" }));
  });
});
