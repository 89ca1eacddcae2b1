// The width tmux gives each code point (its utf8_width(), before any combining): glibc's wcwidth()
// adjusted the way each tmux version adjusts it, then what was learned from the running server.
import { GLIBC_WIDTH_RUNS } from "./glibc.js";

/** The tmux versions whose width and combining rules differ (see docs/widths.md). */
export type WidthRules = "3.2" | "3.3" | "3.4" | "3.6" | "3.7";

/** The rules of a tmux `#{version}` ("3.3a", "3.5a", "next-3.6", "master"): unknown means newest. */
export function rulesFor(version: string): WidthRules {
  const match = /(\d+)\.(\d+)/.exec(version);
  if (!match) return "3.7";
  const n = Number(match[1]) * 100 + Number(match[2]);
  if (n >= 307) return "3.7";
  if (n >= 306) return "3.6";
  if (n >= 304) return "3.4";
  if (n >= 303) return "3.3";
  return "3.2";
}

const CODEPOINTS = 0x110000;

/**
 * Emoji tmux 3.4 and 3.5 force to width 2 (utf8_force_wide in utf8.c); 3.6+ keeps the same list
 * in its width cache (utf8_default_width_cache), except that regional indicators become width 1.
 */
const TMUX_WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x261d, 0x261d], [0x26f9, 0x26f9], [0x270a, 0x270d], [0x1f1e6, 0x1f1ff], [0x1f385, 0x1f385],
  [0x1f3c2, 0x1f3c4], [0x1f3c7, 0x1f3c7], [0x1f3ca, 0x1f3cc], [0x1f3fb, 0x1f3ff], [0x1f442, 0x1f443],
  [0x1f446, 0x1f450], [0x1f466, 0x1f469], [0x1f46b, 0x1f46e], [0x1f470, 0x1f478], [0x1f47c, 0x1f47c],
  [0x1f481, 0x1f483], [0x1f485, 0x1f487], [0x1f48f, 0x1f48f], [0x1f491, 0x1f491], [0x1f4aa, 0x1f4aa],
  [0x1f574, 0x1f575], [0x1f57a, 0x1f57a], [0x1f590, 0x1f590], [0x1f595, 0x1f596], [0x1f645, 0x1f647],
  [0x1f64b, 0x1f64f], [0x1f6a3, 0x1f6a3], [0x1f6b4, 0x1f6b6], [0x1f6c0, 0x1f6c0], [0x1f6cc, 0x1f6cc],
  [0x1f90c, 0x1f90c], [0x1f90f, 0x1f90f], [0x1f918, 0x1f91f], [0x1f926, 0x1f926], [0x1f930, 0x1f939],
  [0x1f93d, 0x1f93e], [0x1f977, 0x1f977], [0x1f9b5, 0x1f9b6], [0x1f9b8, 0x1f9b9], [0x1f9bb, 0x1f9bb],
  [0x1f9cd, 0x1f9cf], [0x1f9d1, 0x1f9dd], [0x1fac3, 0x1fac5], [0x1faf0, 0x1faf8],
];

/**
 * Where tmux builds can disagree (glibc versions, utf8proc, tmux's own lists, a user's
 * `codepoint-widths`): the scripts with spacing and zero-width marks, symbols and emoji, Hangul
 * jamo, kana, compatibility and half/fullwidth forms, tags. The running server is asked about
 * these (watch/seed/widths.ts); elsewhere (CJK ideographs, Hangul syllables, private use) glibc stands.
 */
export const PROBE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00a0, 0x33ff], // Latin-1 to CJK symbols and kana: marks, jamo, punctuation, symbols, emoji
  [0x4dc0, 0x4dff], // Yijing hexagrams
  [0xa000, 0xabff], // Yi, Lisu, Vai, Brahmic extensions, Hangul jamo extended A, Meetei Mayek
  [0xd7b0, 0xd7ff], // Hangul jamo extended B
  [0xf900, 0xfffd], // CJK compatibility, presentation forms, variation selectors, fullwidth forms
  [0x11000, 0x11fff], // Brahmi to Ahom: spacing and zero-width marks
  [0x16fe0, 0x16fff], [0x1aff0, 0x1b2ff], // ideographic symbols, kana extended
  [0x1d100, 0x1d24f], // musical symbols and their combining marks
  [0x1f000, 0x1fbff], // mahjong to legacy computing: every emoji block
  [0xe0000, 0xe01ef], // tags, variation selectors supplement
];

/** PROBE_RANGES cut into blocks of `size` code points (a block never spans two ranges). */
export function probeBlocks(size = 16): number[][] {
  const blocks: number[][] = [];
  for (const [first, last] of PROBE_RANGES) {
    for (let start = first; start <= last; start += size) {
      const block: number[] = [];
      for (let cp = start; cp <= Math.min(last, start + size - 1); cp++) block.push(cp);
      blocks.push(block);
    }
  }
  return blocks;
}

const defaults = new Map<WidthRules, Uint8Array>();

/**
 * The widths a glibc build of tmux with these rules gives, before learning: glibc's wcwidth()
 * (scripts/glibc-widths.py), what utf8_width() makes of its -1, and the emoji tmux forces wide.
 * Each call returns a fresh copy.
 */
export function defaultWidths(rules: WidthRules): Uint8Array {
  let table = defaults.get(rules);
  if (!table) {
    table = new Uint8Array(CODEPOINTS);
    // wcwidth -1 (not printable): 3.2 assumes width 1; 3.3 drops the character (input.c:
    // UTF8_ERROR), which takes no column; 3.4+ makes C1 controls 0 and everything else 1.
    const unprintable = rules === "3.3" ? 0 : 1;
    let cp = 0;
    for (const token of GLIBC_WIDTH_RUNS.split(",")) {
      if (token === "") continue;
      const length = parseInt(token.slice(1), 36);
      table.fill(token[0] === "-" ? unprintable : Number(token[0]), cp, cp + length);
      cp += length;
    }
    if (rules !== "3.2" && rules !== "3.3") {
      table.fill(0, 0x80, 0xa0);
      for (const [first, last] of TMUX_WIDE) table.fill(2, first, last + 1);
      if (rules !== "3.4") table.fill(1, 0x1f1e6, 0x1f1ff + 1); // regional indicators: 1 in the 3.6 cache
    }
    defaults.set(rules, table);
  }
  return table.slice();
}

/**
 * Applies tmux 3.6+'s `codepoint-widths` option (`U+XXXX=W`, `U+XXXX-U+YYYY=W` since 3.7, or
 * `C=W` for a single character): the values tmux's width cache then answers with.
 */
export function applyCodepointWidths(table: Uint8Array, entries: readonly string[]): void {
  for (const entry of entries) {
    const match = /^(?:U\+([0-9a-fA-F]+)(?:-U\+([0-9a-fA-F]+))?|(.))=([012])$/u.exec(entry);
    if (!match) continue;
    const width = Number(match[4]);
    const single = match[3]?.codePointAt(0);
    const first = single ?? parseInt(match[1] ?? "", 16);
    const last = single ?? (match[2] === undefined ? first : parseInt(match[2], 16));
    if (!(first > 0 && last >= first && last < CODEPOINTS)) continue;
    table.fill(width, first, last + 1);
  }
}
