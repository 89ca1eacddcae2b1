// keepEmptyLineMaps: a line that a full scrollback recycles keeps its own empty maps of combined
// characters and extended attributes (no new objects to outlive a scavenge), and what the lines show
// stays what xterm shows.
import { describe, expect, it } from "vitest";
import { newTerminal } from "../../../src/observe/emulator/terminal.js";
import { keepEmptyLineMaps, syncWriter } from "../../../src/observe/emulator/xterm-internals.js";
import { textOf } from "../../../src/observe/emulator/buffer-text.js";

interface Maps {
  _combined: object;
  _extendedAttrs: object;
}

function lineMaps(term: ReturnType<typeof newTerminal>): Maps[] {
  const buffer = term.buffer.normal;
  const maps: Maps[] = [];
  for (let i = 0; i < buffer.length; i++) maps.push((buffer.getLine(i) as unknown as { _line: Maps })._line);
  return maps.map((line) => ({ _combined: line._combined, _extendedAttrs: line._extendedAttrs }));
}

/** How many cells of the line hold a combined character, and how many extended attributes. */
function held(line: unknown): { combined: number; extended: number } {
  const maps = (line as { _line: Maps })._line;
  return { combined: Object.keys(maps._combined).length, extended: Object.keys(maps._extendedAttrs).length };
}

describe("keepEmptyLineMaps", () => {
  it("is in force on every terminal panescope makes (an xterm it cannot patch fails here)", () => {
    const term = newTerminal(20, 4, 10, undefined);
    expect(keepEmptyLineMaps(term)).toBe(true);
    term.dispose();
  });

  it("recycled lines keep their empty maps: no new objects however long the flood", () => {
    const term = newTerminal(20, 4, 10, undefined);
    const writer = syncWriter(term);
    writer.writeSync(Array.from({ length: 30 }, (_, i) => `fill ${i}`).join("\r\n"));
    const before = new Set(lineMaps(term).flatMap((maps) => [maps._combined, maps._extendedAttrs]));
    writer.writeSync(Array.from({ length: 200 }, (_, i) => `\r\nflood ${i}`).join(""));
    const after = lineMaps(term).flatMap((maps) => [maps._combined, maps._extendedAttrs]);
    expect(after.every((map) => before.has(map))).toBe(true);
    term.dispose();
  });

  it("combined characters and extended attributes still show, and leave nothing behind when recycled", () => {
    const term = newTerminal(20, 4, 6, undefined);
    const writer = syncWriter(term);
    // A combining accent (a combined cell) and a curly, coloured underline (extended attributes).
    const marked = (i: number): string => `e\u0301 \x1b[4:3m\x1b[58:5:1mline ${i}\x1b[0m`;
    writer.writeSync(Array.from({ length: 12 }, (_, i) => marked(i)).join("\r\n"));
    const buffer = term.buffer.active;
    expect(textOf(buffer.getLine(buffer.baseY + 3), 20)).toBe("e\u0301 line 11");
    expect(held(buffer.getLine(buffer.baseY + 3))).toEqual({ combined: 1, extended: 7 });
    // Plain lines into the recycled ones: no accent, no underline from what the lines held before.
    writer.writeSync(Array.from({ length: 12 }, (_, i) => `\r\nplain ${i}`).join(""));
    const rows = [0, 1, 2, 3].map((y) => buffer.getLine(buffer.baseY + y));
    expect(rows.map((line) => textOf(line, 20))).toEqual(["plain 8", "plain 9", "plain 10", "plain 11"]);
    expect(rows.map(held)).toEqual(rows.map(() => ({ combined: 0, extended: 0 })));
    // And marked lines written into recycled lines again show as written.
    writer.writeSync(`\r\n${marked(99)}`);
    expect(textOf(buffer.getLine(buffer.baseY + 3), 20)).toBe("e\u0301 line 99");
    expect(held(buffer.getLine(buffer.baseY + 3))).toEqual({ combined: 1, extended: 7 });
    term.dispose();
  });
});
