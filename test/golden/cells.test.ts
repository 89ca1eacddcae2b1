// Cell widths and visible stand-ins: the golden frame aligns only if these match the terminal.
import { describe, expect, it } from "vitest";
import { charWidth, displayWidth, visibleText } from "../../src/golden/cells.js";

describe("display width", () => {
  it("counts ASCII and Latin letters as one cell each", () => {
    expect(displayWidth("hello é")).toBe(7);
  });

  it("counts CJK, Hangul, fullwidth forms and emoji as two cells", () => {
    expect(displayWidth("中文")).toBe(4);
    expect(displayWidth("한국")).toBe(4);
    expect(displayWidth("ＡＢ")).toBe(4);
    expect(displayWidth("✅🙂")).toBe(4);
  });

  it("counts combining marks and zero-width characters as nothing", () => {
    expect(displayWidth("e\u0301")).toBe(1);
    expect(displayWidth("a\u200bb")).toBe(2);
  });

  it("counts a ZWJ family emoji as its three emoji, as xterm unicode11 does (tmux 3.3a says 2)", () => {
    expect(displayWidth("👨‍👩‍👧")).toBe(6);
  });

  it("gives controls no width of their own", () => {
    expect(charWidth("\u001b")).toBe(0);
    expect(charWidth("\u0085")).toBe(0);
  });
});

describe("visible text", () => {
  it("shows C0 controls and DEL as one-cell control pictures", () => {
    expect(visibleText("a\tb\u001b[m\r\u007f")).toBe("a␉b␛[m␍␡");
  });

  it("shows C1 controls and invisible format characters as escapes", () => {
    expect(visibleText("x\u0085y\u200bz\u202e\ufeff")).toBe("x\\u{85}y\\u{200b}z\\u{202e}\\u{feff}");
  });

  it("leaves emoji joiners and variation selectors inside emoji alone", () => {
    expect(visibleText("👨‍👩‍👧 ❤️")).toBe("👨‍👩‍👧 ❤️");
  });
});
