// tmux's passthrough (`ESC P tmux; … ESC \`, ESCs inside doubled) and screen's window name (`ESC k`)
// kept from the replica's parser, as tmux keeps them from its screen: whole, cut anywhere between
// writes (seeded property), beside DCS strings that are not one, and in a screen, where the
// sequence inside used to act and the name was printed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PassthroughFilter } from "../../../src/observe/emulator/passthrough.js";
import { Screen } from "../../../src/observe/emulator/screen.js";

const bytes = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, "latin1"));
const text = (data: Uint8Array): string => Buffer.from(data).toString("latin1");

/** Pieces of output, and what the filter passes on of each. */
const PIECES: ReadonlyArray<{ text: string; out: string }> = [
  ...["plain text ", "\x1b[1;31mred\x1b[0m", "\x1bP1$r0m\x1b\\", "\x1bPtmux", "\x1bPt", "\x1b", "\x1bP", "é\n"].map((text) => ({ text, out: text })),
  ...["\x1bPtmux;\x1b\x1b[31m\x1b\\", "\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\", "\x1bPtmux;\x1b\x1b_Gf=100;AAAA\x1b\x1b\\\x1b\\", "\x1bPtmux;\x1bx\x1b\x1b\x1b\\"].map((text) => ({ text, out: "" })),
  // A window name ends at the next ESC (or CAN, SUB), which goes on: `ESC \` to xterm is nothing.
  { text: "\x1bk~/src\x1b\\", out: "\x1b\\" },
  { text: "\x1bkname\x18", out: "\x18" },
  { text: "\x1bkname\x1b[0m", out: "\x1b[0m" },
];

describe("PassthroughFilter", () => {
  it("drops a passthrough with the ESCs doubled inside it, and keeps what is around it", () => {
    const filter = new PassthroughFilter();
    expect(text(filter.filter(bytes("a\x1bPtmux;\x1b\x1b[31mX\x1b\\b")))).toBe("ab");
    expect(filter.busy).toBe(false);
  });

  it("keeps DCS strings that are not a passthrough, and a start that turns out not to be one", () => {
    const filter = new PassthroughFilter();
    expect(text(filter.filter(bytes("\x1bP1$r0m\x1b\\x")))).toBe("\x1bP1$r0m\x1b\\x");
    expect(text(filter.filter(bytes("y\x1bPtmu")))).toBe("y");
    expect(filter.busy).toBe(true);
    expect(text(filter.filter(bytes("X;z")))).toBe("\x1bPtmuX;z");
    expect(filter.busy).toBe(false);
  });

  it("gives the same bytes however the output is cut between writes (seeded property)", () => {
    const piece = fc.integer({ min: 0, max: PIECES.length - 1 });
    const cut = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), cut, (chosen, cuts) => {
        const picked = chosen.map((i) => PIECES[i] as { text: string; out: string });
        const all = bytes(picked.map((p) => p.text).join(""));
        const expected = picked.map((p) => p.out).join("");
        const filter = new PassthroughFilter();
        let out = "";
        for (let at = 0, c = 0; at < all.length; c++) {
          const size = cuts[c % cuts.length] as number;
          out += text(filter.filter(all.subarray(at, at + size)));
          at += size;
        }
        expect(out).toBe(text(new PassthroughFilter().filter(all)));
        // Held at the end: only the start of a passthrough that may still come (the next write decides).
        const rest = expected.slice(out.length);
        expect(expected.startsWith(out)).toBe(true);
        expect("\x1bPtmux;".startsWith(rest) && rest.length < 7).toBe(true);
        expect(filter.busy).toBe(rest.length > 0);
      }),
      { seed: 28, numRuns: 2000 },
    );
  });

  it("drops a window name (screen's ESC k) up to the ESC that ends it, which goes on", () => {
    const filter = new PassthroughFilter();
    expect(text(filter.filter(bytes("$ \x1bk~/sr")))).toBe("$ ");
    expect(filter.busy).toBe(true);
    expect(text(filter.filter(bytes("c\x1b\\ls")))).toBe("\x1b\\ls");
    expect(filter.busy).toBe(false);
  });

  it("keeps the sequences inside from the screen: no colour, no cursor move, no window name, as tmux draws it", async () => {
    const screen = new Screen({ cols: 20, rows: 4 });
    screen.write(bytes("a\x1bPtmux;\x1b\x1b[31m\x1b\\b\x1bPtmux;\x1b\x1b[3;5H\x1b\\c\x1bk~/src\x1b\\"));
    await screen.flush();
    const snap = screen.snapshot();
    expect(snap.lines[0]).toBe("abc");
    expect(snap.styles).toEqual([]);
    expect([screen.cursorX, screen.cursorY]).toEqual([3, 0]);
  });
});
