import { describe, expect, it } from "vitest";
import { screenToSvg } from "../../src/evidence/svg.js";
import { Screen } from "../../src/observe/emulator/screen.js";
import type { ScreenSnapshot } from "../../src/observe/emulator/snapshot.js";
import { cellDifferences, cellsOfSnapshot, cellsOfSvg } from "../support/svg-cells.js";

async function snapshotOf(bytes: string, cols = 20, rows = 4): Promise<ScreenSnapshot> {
  const screen = new Screen({ cols, rows });
  await new Promise<void>((done) => screen.write(bytes, done));
  const snapshot = screen.snapshot();
  screen.dispose();
  return snapshot;
}

const STYLED =
  "\x1b[31mred\x1b[0m \x1b[1;32mbold\x1b[0m \x1b[3;4mit-u\x1b[0m \x1b[9mst\x1b[0m\r\n" +
  "\x1b[2mdim\x1b[0m \x1b[7minv\x1b[0m \x1b[38;5;208m208\x1b[48;2;1;2;3m rgb \x1b[0m\r\n" +
  "中文 <&> \x1b[44m  \x1b[0m \x1b[8;41mHID\x1b[0m";

describe("SVG screenshots", () => {
  it("every cell reads back with its text, colours and attributes", async () => {
    const snapshot = await snapshotOf(STYLED);
    const svg = screenToSvg(snapshot);
    expect(cellDifferences(cellsOfSvg(svg), cellsOfSnapshot(snapshot))).toEqual([]);
    expect(cellsOfSvg(svg)[0]?.[0]).toEqual({ text: "r", fg: "#cc0000", bg: "#000000" });
    expect(cellsOfSvg(svg)[0]?.[4]).toEqual({ text: "b", fg: "#8ae234", bg: "#000000", bold: true });
    expect(cellsOfSvg(svg)[1]?.[4]).toEqual({ text: "i", fg: "#000000", bg: "#ffffff" });
    // Hidden text (SGR 8): its background, none of its glyphs, as a terminal shows it.
    expect(svg).not.toContain("HID");
    expect(cellsOfSvg(svg)[2]?.[12]).toEqual({ text: " ", fg: "#ffffff", bg: "#cc0000" });
  });

  it("blinking text is drawn steady, overlines and curly, double, dotted or dashed underlines in their colours", async () => {
    const snapshot = await snapshotOf("\x1b[5mB\x1b[0m \x1b[4:3;58:5:1mC\x1b[0m \x1b[4:2mD\x1b[0m \x1b[4:4;58:2::0:0:255mo\x1b[0m \x1b[4:5md\x1b[0m \x1b[53mO\x1b[0m", 20, 1);
    const svg = screenToSvg(snapshot);
    expect(cellDifferences(cellsOfSvg(svg), cellsOfSnapshot(snapshot))).toEqual([]);
    expect(cellsOfSvg(svg)[0]?.slice(0, 12).filter((c) => c.text !== " ")).toEqual([
      { text: "B", fg: "#ffffff", bg: "#000000", blink: true },
      { text: "C", fg: "#ffffff", bg: "#000000", underline: true, underlineStyle: "wavy", underlineColour: "#cc0000" },
      { text: "D", fg: "#ffffff", bg: "#000000", underline: true, underlineStyle: "double" },
      { text: "o", fg: "#ffffff", bg: "#000000", underline: true, underlineStyle: "dotted", underlineColour: "#0000ff" },
      { text: "d", fg: "#ffffff", bg: "#000000", underline: true, underlineStyle: "dashed" },
      { text: "O", fg: "#ffffff", bg: "#000000", overline: true },
    ]);
  });

  it("a wide character takes two cells and the text after it keeps its columns", async () => {
    const snapshot = await snapshotOf("中文x");
    const row = cellsOfSvg(screenToSvg(snapshot))[0];
    expect(row?.slice(0, 5).map((c) => c.text)).toEqual(["中", "", "文", "", "x"]);
    expect(screenToSvg(snapshot)).toContain('<tspan x="0" textLength="16.8">中</tspan><tspan x="16.8" textLength="16.8">文</tspan><tspan x="33.6">x</tspan>');
  });

  it("each row is one text element, with markup characters escaped", async () => {
    const svg = screenToSvg(await snapshotOf("a<b & c>\r\nline two"));
    expect(svg.match(/<text /g)).toHaveLength(2);
    expect(svg).toContain("a&lt;b &amp; c&gt;");
  });

  it("shows the cursor where it is, and not when the program hid it", async () => {
    const shown = screenToSvg(await snapshotOf("ab"));
    expect(shown).toMatch(/<rect class="cursor" x="17.3" y="0.5"/);
    const hidden = screenToSvg(await snapshotOf("ab\x1b[?25l"));
    expect(hidden).not.toContain('class="cursor"');
  });

  it("draws the cursor on the last column when a row was printed to its end", async () => {
    const snapshot = await snapshotOf("x".repeat(20));
    expect(snapshot.cursorX).toBe(20);
    expect(screenToSvg(snapshot)).toMatch(/<rect class="cursor" x="160.1" y="0.5" width="7.4"/);
  });

  it("highlighted cells become one diff rect per run on a row", async () => {
    const svg = screenToSvg(await snapshotOf("abcdef\r\nghi"), {
      highlight: [
        { row: 0, start: 1, end: 2 },
        { row: 0, start: 2, end: 4 },
        { row: 1, start: 0, end: 1 },
      ],
    });
    const marks = svg.match(/<rect class="diff" x="[^"]*" y="[^"]*" width="[^"]*"/g);
    expect(marks).toEqual(['<rect class="diff" x="8.4" y="0" width="25.2"', '<rect class="diff" x="0" y="17" width="8.4"']);
  });

  it("the same screen always gives the same bytes", async () => {
    const a = screenToSvg(await snapshotOf(STYLED));
    const b = screenToSvg(await snapshotOf(STYLED));
    expect(a).toBe(b);
  });

  it("copied, a row keeps the spaces between its words whatever their colours, and none around them", async () => {
    const svg = screenToSvg(await snapshotOf("  \x1b[31mRED\x1b[0m <&>\x1b[32m x \x1b[0m  "));
    const text = /<text [^>]*>(.*?)<\/text>/.exec(svg)?.[1]?.replace(/<[^>]+>/g, "");
    expect(text).toBe("RED &lt;&amp;&gt; x");
  });

  it("an underlined run keeps its blanks so the line runs under them", async () => {
    const svg = screenToSvg(await snapshotOf("\x1b[4m a  \x1b[0m"));
    expect(svg).toContain('<tspan x="0" textLength="33.6" text-decoration="underline"> a  </tspan>');
  });
});
