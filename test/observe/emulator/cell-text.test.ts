// A row's text read straight from xterm's cells (cellText) must be exactly what xterm's own
// translateToString gives, trailing spaces removed: over random screens of every kind of cell.
import { describe, expect, it } from "vitest";
import { newTerminal } from "../../../src/observe/emulator/terminal.js";
import { cellBlank, cellText, syncWriter } from "../../../src/observe/emulator/xterm-internals.js";
import { textOf } from "../../../src/observe/emulator/buffer-text.js";
import { prng } from "../../support/prng.js";

/** Pieces a program prints: text of every width, cursor moves, erases, colours, tabs, wraps. */
const PIECES = [
  "plain text",
  "  written spaces   ",
  "\u00a0nbsp\u00a0",
  "漢字かな",
  "😀🎉",
  "e\u0301", // a combining accent: a combined cell
  "👍🏽",
  "\x1b[41m   \x1b[0m", // styled spaces
  "\t|tab",
  "\x1b[K",
  "\x1b[2K",
  "\x1b[5G",
  "\x1b[1;1H",
  "\x1b[3C",
  "\x1b[7m~\x1b[27m",
  "\r\n",
  "\r\n",
  "\n",
  "x".repeat(45),
  "\x1b[?7l" + "y".repeat(50) + "\x1b[?7h",
  "\x1b[1@",
  "\x1b[2P",
];

function screenOf(seed: number): ReturnType<typeof newTerminal> {
  const random = prng(seed);
  const cols = 8 + Math.floor(random() * 40);
  const term = newTerminal(cols, 6, 20, undefined);
  const writer = syncWriter(term);
  let text = "";
  for (let i = 0; i < 120; i++) text += PIECES[Math.floor(random() * PIECES.length)];
  writer.writeSync(text);
  // A shrink leaves stale cells beyond the new width in each line (xterm 6.0).
  if (random() < 0.5) term.resize(Math.max(4, cols - 5), 6);
  if (random() < 0.3) writer.writeSync("\x1b[?1049h" + text.slice(0, 200));
  return term;
}

describe("cellText", () => {
  it("equals translateToString without its trailing spaces, on every line of random screens", () => {
    let fast = 0;
    let lines = 0;
    let blanks = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const term = screenOf(seed);
      for (const buffer of [term.buffer.normal, term.buffer.alternate]) {
        for (let i = 0; i < buffer.length; i++) {
          const line = buffer.getLine(i);
          if (!line) continue;
          // Also narrower than the line: a reader asks for the screen's columns.
          for (const cols of [term.cols, Math.max(1, term.cols - 3)]) {
            const xterm = line.translateToString(true, 0, cols).replace(/ +$/, "");
            const cells = cellText(line, cols);
            if (cells !== undefined) {
              fast++;
              expect(cells, `seed ${seed}, line ${i}, ${cols} columns`).toBe(xterm);
            }
            expect(textOf(line, cols)).toBe(xterm);
            // A read counts the rows its limits cut by cellBlank, without their text.
            expect(cellBlank(line, cols), `seed ${seed}, line ${i}, ${cols} columns: blank`).toBe(xterm === "");
            blanks += xterm === "" ? 1 : 0;
            lines++;
          }
        }
      }
      term.dispose();
    }
    // Most lines take the fast path: an xterm whose cells this cannot read fails here, not quietly slow.
    expect(fast).toBeGreaterThan(lines * 0.6);
    expect(blanks).toBeGreaterThan(lines * 0.1); // both answers were checked often
  });

  it("leaves a combined character to xterm, and reads wide and astral ones itself", () => {
    const term = newTerminal(20, 3, 0, undefined);
    syncWriter(term).writeSync("e\u0301\r\n漢字 x\r\n😀 y");
    const [combined, wide, astral] = [0, 1, 2].map((y) => term.buffer.active.getLine(y));
    expect(cellText(combined, 20)).toBeUndefined();
    expect(textOf(combined, 20)).toBe("e\u0301");
    expect(cellText(wide, 20)).toBe("漢字 x");
    expect(cellText(astral, 20)).toBe("😀 y");
    term.dispose();
  });
});
