// How the tmux in use lays characters out, as an xterm Unicode provider: a width per code point
// (table.ts) and, per tmux version, which characters tmux combines into the cell before
// (screen_write_combine in screen-write.c), and when that cell becomes 2 columns wide.
import type { IUnicodeVersionProvider } from "@xterm/headless";
import type { WidthRules } from "./table.js";

/** The cell left of the cursor as the screen holds it: its characters and its width. */
export type CellBefore = () => { chars: string; width: number } | undefined;

/** A width table holds a width (0-2) per code point, in these bits. */
export const WIDTH_MASK = 3;
/** Marks, in a width table, a code point some rule looks at: it never takes the fast path. */
const SPECIAL = 4;

/** Marks the code points some rule looks at (ZWJ, VS16, jamo, flags, skin tones and their emoji). */
export function markSpecial(table: Uint8Array): void {
  const mark = (first: number, last: number): void => {
    for (let cp = first; cp <= last; cp++) table[cp] = (table[cp] ?? 0) | SPECIAL;
  };
  mark(0x1100, 0x11ff); // Hangul jamo
  mark(0x200d, 0x200d); // ZWJ
  mark(0x3164, 0x3164); // Hangul filler
  mark(0xa960, 0xa97f);
  mark(0xd7b0, 0xd7ff);
  mark(0xfe0f, 0xfe0f); // VS16
  mark(0x1f1e6, 0x1f1ff); // regional indicators
  mark(0x1f3fb, 0x1f3ff); // skin tones
  for (const cp of TONE_BASES) mark(cp, cp);
}

const ZWJ = 0x200d;
const VS16 = 0xfe0f;
const HANGUL_FILLER = 0x3164;

/** tmux keeps at most this many UTF-8 bytes in one cell (UTF8_SIZE in tmux.h). */
function cellBytes(rules: WidthRules): number {
  return rules === "3.6" || rules === "3.7" ? 32 : 21;
}

/** Emoji that take a skin tone in tmux 3.6+ (utf8_should_combine in utf8-combined.c). */
const TONE_BASES = new Set([
  0x1f44b, 0x1f44c, 0x1f44d, 0x1f44e, 0x1f44f, 0x1f450, 0x1f466, 0x1f467, 0x1f468, 0x1f469, 0x1f46e, 0x1f470,
  0x1f471, 0x1f472, 0x1f473, 0x1f474, 0x1f475, 0x1f476, 0x1f477, 0x1f478, 0x1f47c, 0x1f481, 0x1f482, 0x1f483,
  0x1f485, 0x1f486, 0x1f487, 0x1f4aa, 0x1f575, 0x1f57a, 0x1f590, 0x1f595, 0x1f596, 0x1f645, 0x1f646, 0x1f647,
  0x1f64b, 0x1f64c, 0x1f64d, 0x1f64e, 0x1f64f, 0x1f6b4, 0x1f6b5, 0x1f6b6, 0x1f926, 0x1f937, 0x1f938, 0x1f939,
  0x1f93d, 0x1f93e, 0x1f9b5, 0x1f9b6, 0x1f9b8, 0x1f9b9, 0x1f9cd, 0x1f9ce, 0x1f9cf, 0x1f9d1, 0x1f9d2, 0x1f9d3,
  0x1f9d4, 0x1f9d5, 0x1f9d6, 0x1f9d7, 0x1f9d8, 0x1f9d9, 0x1f9da, 0x1f9db, 0x1f9dc, 0x1f9dd, 0x1f9de, 0x1f9df,
]);

// What a cell's first code point is, for tmux 3.6+'s pairing rules.
const FIRST_OTHER = 0;
const FIRST_RI = 1;
const FIRST_TONE = 2;
const FIRST_BASE = 3;

// Hangul jamo classes (hanguljamo_get_class in tmux 3.6+).
const JAMO_NONE = 0;
const JAMO_CHOSEONG = 1;
const JAMO_JUNGSEONG = 2;
const JAMO_JONGSEONG = 3;

/*
 * xterm hands back what charProperties returned for the previous character of the same run of
 * text (0 after a control character or CSI): `state << 3 | width << 1 | join`, where `width` is
 * how wide xterm made the cell. The state describes that cell as tmux's rules look at it:
 *   bits 0-5 UTF-8 bytes in it (0: unknown), 6-7 class of its first code point, 8-9 regional
 *   indicators in it, 10 it ends in a ZWJ, 11-12 jamo class of its last code point, 13-14 its
 *   width in tmux. The two widths differ for a cell found by looking back across an escape
 *   sequence: xterm then counts it as 0 wide, so joining it must not change its width.
 */
const BYTES = 0x3f;
const FIRST_SHIFT = 6;
const RI_SHIFT = 8;
const ZWJ_END = 1 << 10;
const JAMO_SHIFT = 11;
const WIDTH_SHIFT = 13;

function props(state: number, width: number, join: boolean): number {
  return (state << 3) | (width << 1) | (join ? 1 : 0);
}

/** A printable ASCII character: a cell of its own (no tmux combines onto or from it), 1 column. */
const ASCII = props(1 | (1 << WIDTH_SHIFT), 1, false);

function utf8Length(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

function isRegional(cp: number): boolean {
  return cp >= 0x1f1e6 && cp <= 0x1f1ff;
}

function isTone(cp: number): boolean {
  return cp >= 0x1f3fb && cp <= 0x1f3ff;
}

function firstClass(cp: number): number {
  if (cp < 0x1f1e6) return FIRST_OTHER;
  if (isRegional(cp)) return FIRST_RI;
  if (isTone(cp)) return FIRST_TONE;
  return TONE_BASES.has(cp) ? FIRST_BASE : FIRST_OTHER;
}

function jamoClass(cp: number): number {
  if (cp < 0x1100 || (cp > 0x11ff && cp < 0xa960) || cp > 0xd7fb) return JAMO_NONE;
  if (cp <= 0x115f || (cp >= 0xa960 && cp <= 0xa97c)) return JAMO_CHOSEONG;
  if (cp <= 0x11a7 || (cp >= 0xd7b0 && cp <= 0xd7c6)) return JAMO_JUNGSEONG;
  if (cp <= 0x11ff || cp >= 0xd7cb) return JAMO_JONGSEONG;
  return JAMO_NONE;
}

/** The state of a cell holding these code points (the first decides the class). */
function cellState(cps: readonly number[], width: number): number {
  let bytes = 0;
  let regional = 0;
  for (const cp of cps) {
    bytes += utf8Length(cp);
    if (isRegional(cp)) regional++;
  }
  const first = cps[0] ?? 0;
  const last = cps[cps.length - 1] ?? 0;
  return (
    Math.min(BYTES, bytes) |
    (firstClass(first) << FIRST_SHIFT) |
    (Math.min(3, regional) << RI_SHIFT) |
    (last === ZWJ ? ZWJ_END : 0) |
    (jamoClass(last) << JAMO_SHIFT) |
    (width << WIDTH_SHIFT)
  );
}

/** A new cell holding just `cp`. */
function cell(cp: number, width: number): number {
  const state =
    utf8Length(cp) |
    (firstClass(cp) << FIRST_SHIFT) |
    ((isRegional(cp) ? 1 : 0) << RI_SHIFT) |
    (cp === ZWJ ? ZWJ_END : 0) |
    (jamoClass(cp) << JAMO_SHIFT) |
    (width << WIDTH_SHIFT);
  return props(state, width, false);
}

/** The width tmux gives the cell `preceding` describes. */
function widthIn(preceding: number): number {
  return (preceding >> (3 + WIDTH_SHIFT)) & 3;
}

/** `cp` appended to the previous cell, which becomes `width` columns wide in tmux. */
function append(previous: number, cp: number, width: number): number {
  const before = previous >> 3;
  // A cell xterm counts as 0 wide (found by looking back) cannot change width: xterm would move
  // the cursor by the whole new width.
  const synced = ((previous >> 1) & 3) === widthIn(previous);
  const kept = synced ? width : widthIn(previous);
  const bytes = Math.min(BYTES, (before & BYTES) + utf8Length(cp));
  const regional = Math.min(3, ((before >> RI_SHIFT) & 3) + (isRegional(cp) ? 1 : 0));
  const state =
    bytes |
    (before & (3 << FIRST_SHIFT)) |
    (regional << RI_SHIFT) |
    (cp === ZWJ ? ZWJ_END : 0) |
    (jamoClass(cp) << JAMO_SHIFT) |
    (kept << WIDTH_SHIFT);
  return props(state, synced ? width : 0, true);
}

/**
 * A character tmux drops (or keeps out of sight) where it would combine. xterm cannot drop one:
 * it joins the previous cell, which keeps its width, so the columns agree and only the text differs.
 */
function swallow(previous: number): number {
  return previous | 1;
}

export class TmuxWidths implements IUnicodeVersionProvider {
  readonly version: string;
  private readonly limit: number;

  constructor(
    readonly rules: WidthRules,
    private readonly table: Uint8Array,
    private readonly vsWide: boolean,
    private readonly cellBefore?: CellBefore,
  ) {
    this.version = `tmux-${rules}`;
    this.limit = cellBytes(rules);
  }

  wcwidth(cp: number): 0 | 1 | 2 {
    if (cp < 0x20) return 0;
    if (cp < 0x7f) return 1;
    return ((this.table[cp] ?? 1) & WIDTH_MASK) as 0 | 1 | 2;
  }

  charProperties(cp: number, preceding: number): number {
    if (cp >= 0x20 && cp < 0x7f) return ASCII; // the hot path: no table, no state
    const entry = this.table[cp] ?? 1;
    // The next hottest (CJK, most symbols): a character no rule looks at, with a width, after a
    // known cell that does not end in a ZWJ, is a cell of its own.
    if (entry !== 0 && entry < SPECIAL && preceding !== 0 && ((preceding >> 3) & ZWJ_END) === 0) {
      return props(utf8Length(cp) | (entry << WIDTH_SHIFT), entry, false);
    }
    const width = entry & WIDTH_MASK;
    switch (this.rules) {
      case "3.2":
        return this.oldest(cp, width, preceding, false);
      case "3.3":
        return this.oldest(cp, width, preceding, true);
      default:
        return this.newer(cp, width, preceding);
    }
  }

  /**
   * tmux combines with the cell left of the cursor, whatever came in between; xterm's state stops
   * at an escape sequence. Then read that cell off the screen (xterm counts it 0 wide).
   */
  private lookBack(preceding: number): number {
    if (preceding !== 0 || !this.cellBefore) return preceding;
    const found = this.cellBefore();
    if (!found || found.chars === "") return 0;
    const cps = [...found.chars].map((char) => char.codePointAt(0) ?? 0);
    return props(cellState(cps, found.width), 0, false);
  }

  /**
   * tmux 3.2 and 3.3: a zero-width character joins the cell left of the cursor (dropped if the
   * cell is full); 3.3 also joins whatever non-ASCII character follows a ZWJ, keeping the width.
   */
  private oldest(cp: number, width: number, preceding: number, zwj: boolean): number {
    if (zwj && width !== 0) preceding = this.lookBack(preceding);
    const before = preceding >> 3;
    const bytes = before & BYTES;
    const joining = width === 0 || (zwj && (cp === ZWJ || (before & ZWJ_END) !== 0));
    if (!joining) return cell(cp, width);
    if (bytes === 0) return props(zwj && cp === ZWJ ? ZWJ_END : 0, 0, true);
    if (bytes + utf8Length(cp) > this.limit) return swallow(preceding);
    return append(preceding, cp, widthIn(preceding));
  }

  /** tmux 3.4+ (screen_write_combine): ZWJ sequences, VS16, skin tones, flags, Hangul jamo. */
  private newer(cp: number, width: number, preceding: number): number {
    const newest = this.rules === "3.6" || this.rules === "3.7";
    if (newest && cp === HANGUL_FILLER) return swallow(preceding); // 3.6+ ignores U+3164 entirely
    const zeroWidth = cp === ZWJ || cp === VS16 || width === 0;
    if (!zeroWidth) preceding = this.lookBack(preceding);
    const before = preceding >> 3;
    const bytes = before & BYTES;
    let forceWide = cp === VS16 && this.vsWide;
    if (bytes === 0) {
      // No cell left of the cursor, or one not known: a zero-width character joins it unwidened.
      return zeroWidth ? props(cp === ZWJ ? ZWJ_END : 0, 0, true) : cell(cp, width);
    }
    if (!zeroWidth) {
      if (!newest) {
        // 3.4 and 3.5: a regional indicator or skin tone widens any non-ASCII cell before it.
        if (isRegional(cp) || isTone(cp)) {
          if (bytes < 2) return cell(cp, width);
          forceWide = true;
        } else if ((before & ZWJ_END) === 0) return cell(cp, width);
      } else {
        const jamo = jamoClass(cp);
        const lastJamo = (before >> JAMO_SHIFT) & 3;
        if (jamo === JAMO_CHOSEONG) return cell(cp, width);
        if (jamo === JAMO_JUNGSEONG || jamo === JAMO_JONGSEONG) {
          // A medial after an initial, a final after a medial: composed; anything else is dropped.
          if (lastJamo !== jamo - 1) return swallow(preceding);
        } else if (this.pairs(before, cp)) {
          forceWide = true;
        } else if ((before & ZWJ_END) === 0) return cell(cp, width);
      }
    }
    if (bytes + utf8Length(cp) > this.limit) return zeroWidth ? swallow(preceding) : cell(cp, width);
    const cellWidth = widthIn(preceding);
    return append(preceding, cp, forceWide && cellWidth === 1 ? 2 : cellWidth);
  }

  /** 3.6+: two regional indicators make a flag (3.7: only two), a skin tone joins its emoji. */
  private pairs(before: number, cp: number): boolean {
    const first = (before >> FIRST_SHIFT) & 3;
    if (isRegional(cp)) return first === FIRST_RI && (this.rules !== "3.7" || ((before >> RI_SHIFT) & 3) === 1);
    if (isTone(cp)) return first === FIRST_BASE;
    return first === FIRST_TONE && TONE_BASES.has(cp);
  }
}
