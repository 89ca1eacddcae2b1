import { describe, expect, it } from "vitest";
import { colourHex, DEFAULT_BG, DEFAULT_FG, paint, paletteHex } from "../../src/evidence/palette.js";

describe("palette", () => {
  it("the 16 theme colours are xterm.js's defaults", () => {
    expect(paletteHex(0)).toBe("#2e3436");
    expect(paletteHex(1)).toBe("#cc0000");
    expect(paletteHex(9)).toBe("#ef2929");
    expect(paletteHex(15)).toBe("#eeeeec");
  });

  it("16–231 are the 6×6×6 cube and 232–255 the greys", () => {
    expect(paletteHex(16)).toBe("#000000");
    expect(paletteHex(21)).toBe("#0000ff");
    expect(paletteHex(196)).toBe("#ff0000");
    expect(paletteHex(110)).toBe("#87afd7");
    expect(paletteHex(231)).toBe("#ffffff");
    expect(paletteHex(232)).toBe("#080808");
    expect(paletteHex(255)).toBe("#eeeeee");
  });

  it("truecolor becomes its own hex and the default falls back", () => {
    expect(colourHex({ kind: "rgb", rgb: 0x0a0b0c }, DEFAULT_FG)).toBe("#0a0b0c");
    expect(colourHex({ kind: "default" }, DEFAULT_BG)).toBe("#000000");
    expect(colourHex(undefined, DEFAULT_FG)).toBe("#ffffff");
  });

  it("bold brightens the first eight colours only", () => {
    expect(paint({ bold: true, fg: { kind: "palette", index: 1 } }).fg).toBe(paletteHex(9));
    expect(paint({ bold: true, fg: { kind: "palette", index: 9 } }).fg).toBe(paletteHex(9));
    expect(paint({ bold: true, fg: { kind: "palette", index: 100 } }).fg).toBe(paletteHex(100));
  });

  it("inverse swaps the resolved colours, defaults included", () => {
    expect(paint({ inverse: true })).toEqual({ fg: DEFAULT_BG, bg: DEFAULT_FG, opacity: 1 });
    expect(paint({ inverse: true, fg: { kind: "palette", index: 2 } })).toEqual({ fg: DEFAULT_BG, bg: "#4e9a06", opacity: 1 });
  });

  it("dim halves the glyph's opacity and leaves its colour", () => {
    expect(paint({ dim: true, fg: { kind: "palette", index: 4 } })).toEqual({ fg: "#3465a4", bg: DEFAULT_BG, opacity: 0.5 });
  });
});
