// Terminal cells for plain text: how many columns a character takes, and a visible stand-in for
// characters that show nothing. Shared by the golden formatter and the diff; pure.

// East Asian Wide/Fullwidth blocks (Unicode 11, as @xterm/addon-unicode11 uses), as [first, last].
// Emoji are handled by the Emoji_Presentation property below, not listed here.
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], // Hangul Jamo initial consonants
  [0x2329, 0x232a], // angle brackets
  [0x2e80, 0x303e], // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
  [0x3041, 0x33ff], // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa000, 0xa4cf], // Yi
  [0xa960, 0xa97f], // Hangul Jamo extended A
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe10, 0xfe19], // vertical forms
  [0xfe30, 0xfe6f], // CJK compatibility forms, small form variants
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6], // fullwidth signs
  [0x16fe0, 0x16fe4], // ideographic symbols
  [0x17000, 0x18aff], // Tangut
  [0x1b000, 0x1b2ff], // Kana supplement, Nushu
  [0x20000, 0x2fffd], // CJK extensions B..F, supplement
  [0x30000, 0x3fffd], // CJK extension G
];

const EMOJI = /^\p{Emoji_Presentation}$/u;
// Combining marks, format characters (ZWJ, bidi controls, BOM) and Hangul medial/final Jamo take no cell.
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff]$/u;

function inWide(cp: number): boolean {
  let lo = 0;
  let hi = WIDE.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const range = WIDE[mid];
    if (range === undefined) break;
    if (cp < range[0]) hi = mid - 1;
    else if (cp > range[1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Columns one code point takes: 0 for controls and zero-width marks, 2 for wide and emoji, else 1. */
export function charWidth(char: string): number {
  const cp = char.codePointAt(0) ?? 0;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp < 0x300) return 1; // fast path: Latin
  if (ZERO_WIDTH.test(char)) return 0;
  if (inWide(cp) || EMOJI.test(char)) return 2;
  return 1;
}

/** Columns a string takes, summed per code point (a ZWJ emoji sequence counts each emoji, as xterm does). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

// Invisible characters that stand out as a `\u{…}` escape. Zero-width joiners and variation
// selectors are left alone: they are part of emoji and render as the emoji.
const INVISIBLE = /^[\p{Cf}\u2028\u2029\p{Cs}]$/u;
const KEEP = new Set([0x200d, 0xfe0e, 0xfe0f]);

/**
 * The character as it should appear in a golden or a diff: C0 controls and DEL become Unicode
 * control pictures (␛ for ESC, ␉ for TAB: one cell, so columns stay aligned), C1 controls and
 * invisible format characters become `\u{hex}`. Everything else is itself.
 */
export function visibleChar(char: string): string {
  const cp = char.codePointAt(0) ?? 0;
  if (cp < 0x20) return String.fromCodePoint(0x2400 + cp);
  if (cp === 0x7f) return "\u2421";
  if (cp < 0x7f) return char;
  if (cp < 0xa0 || (INVISIBLE.test(char) && !KEEP.has(cp))) return `\\u{${cp.toString(16)}}`;
  return char;
}

/** `visibleChar` applied to every code point of a string. */
export function visibleText(text: string): string {
  let out = "";
  for (const char of text) out += visibleChar(char);
  return out;
}
