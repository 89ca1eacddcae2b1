// Characters whose layout tmux versions disagree on, the columns each version gives them, and the
// known differences of the replica per version (docs/widths.md). Measured on glibc 2.36 builds of
// tmux 3.2a–3.7c by printing `x`, the sample and `|` into a pane (cursor_x and capture-pane -p).
import type { WidthRules } from "../../src/observe/widths/table.js";

export interface WidthSample {
  name: string;
  text: string;
  /** Columns the sample takes after an `x`, per rules: 3.2, 3.3, 3.4 (and 3.5), 3.6, 3.7. */
  columns: readonly [number, number, number, number, number];
}

const RULES: readonly WidthRules[] = ["3.2", "3.3", "3.4", "3.6", "3.7"];

/** Columns after an `x` in a tmux with these rules. */
export function columnsOf(sample: WidthSample, rules: WidthRules): number {
  return sample.columns[RULES.indexOf(rules)] ?? Number.NaN;
}

const all = (n: number): WidthSample["columns"] => [n, n, n, n, n];

export const WIDTH_SAMPLES: readonly WidthSample[] = [
  { name: "CJK", text: "日本語", columns: all(6) },
  { name: "Hangul syllable", text: "한", columns: all(2) },
  { name: "Hangul jamo L V T", text: "\u1100\u1161\u11a8", columns: all(2) },
  { name: "Hangul jamo V alone", text: "\u1161", columns: all(0) },
  { name: "fullwidth forms", text: "ＡＢ", columns: all(4) },
  { name: "emoji", text: "\u{1f642}", columns: all(2) },
  { name: "BMP emoji", text: "\u231a", columns: all(2) },
  { name: "heart, text style", text: "\u2764", columns: all(1) },
  { name: "heart + VS16", text: "\u2764\ufe0f", columns: [1, 1, 2, 2, 2] },
  { name: "heart + VS15", text: "\u2764\ufe0e", columns: all(1) },
  { name: "letter + VS16", text: "a\ufe0f", columns: [1, 1, 2, 2, 2] },
  { name: "VS16 alone", text: "\ufe0f", columns: [0, 0, 1, 1, 1] },
  { name: "thumbs up + skin tone", text: "\u{1f44d}\u{1f3fd}", columns: [4, 4, 2, 2, 2] },
  { name: "letter + skin tone", text: "a\u{1f3fd}", columns: all(3) },
  { name: "accented letter + skin tone", text: "\u00e9\u{1f3fd}", columns: [3, 3, 2, 3, 3] },
  { name: "pointing finger + skin tone", text: "\u261d\u{1f3fd}", columns: [3, 3, 2, 4, 4] },
  { name: "ZWJ family of three", text: "\u{1f468}\u200d\u{1f469}\u200d\u{1f467}", columns: [6, 2, 2, 2, 2] },
  { name: "ZWJ family of four", text: "\u{1f468}\u200d\u{1f469}\u200d\u{1f467}\u200d\u{1f466}", columns: [8, 2, 4, 2, 2] },
  { name: "technologist + skin tone (ZWJ)", text: "\u{1f469}\u{1f3fd}\u200d\u{1f4bb}", columns: [6, 4, 2, 2, 2] },
  { name: "rainbow flag (VS16 + ZWJ)", text: "\u{1f3f3}\ufe0f\u200d\u{1f308}", columns: [3, 1, 2, 2, 2] },
  { name: "keycap", text: "1\ufe0f\u20e3", columns: [1, 1, 2, 2, 2] },
  { name: "flag", text: "\u{1f1eb}\u{1f1f7}", columns: all(2) },
  { name: "two flags", text: "\u{1f1eb}\u{1f1f7}\u{1f1e9}\u{1f1ea}", columns: [4, 4, 2, 2, 4] },
  { name: "three flags", text: "\u{1f1eb}\u{1f1f7}\u{1f1e9}\u{1f1ea}\u{1f1ef}\u{1f1f5}", columns: [6, 6, 4, 2, 6] },
  { name: "lone regional indicator", text: "\u{1f1eb}", columns: [1, 1, 2, 1, 1] },
  { name: "tag sequence flag", text: "\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}", columns: all(2) },
  { name: "e + combining acute", text: "e\u0301", columns: all(1) },
  { name: "combining acute alone", text: "\u0301", columns: all(0) },
  { name: "ZWJ alone", text: "\u200d", columns: all(0) },
  { name: "ZWJ between letters", text: "a\u200db", columns: all(2) },
  { name: "zero-width space", text: "a\u200bb", columns: all(2) },
  { name: "East Asian ambiguous", text: "\u00b1\u00a7\u00b0\u03b1\u2460\u2192\u2500", columns: all(7) },
  { name: "Hangul filler", text: "\u3164", columns: [2, 2, 2, 0, 0] },
  { name: "unassigned code point", text: "\u{1faff}", columns: [1, 0, 1, 1, 1] },
  { name: "e, colour, combining acute", text: "e\x1b[31m\u0301\x1b[m", columns: all(1) },
  { name: "thumbs up, colour, skin tone", text: "\u{1f44d}\x1b[31m\u{1f3fd}\x1b[m", columns: [4, 4, 2, 2, 2] },
  { name: "man ZWJ, colour, woman", text: "\u{1f468}\u200d\x1b[31m\u{1f469}\x1b[m", columns: [4, 2, 2, 2, 2] },
  { name: "letter, colour, VS16", text: "a\x1b[31m\ufe0f\x1b[m", columns: [1, 1, 2, 2, 2] },
  { name: "C1 control NEL as UTF-8", text: "a\u0085b", columns: [3, 2, 2, 2, 2] },
];

/** What one side shows after `prefix + sample + "|"` on a cleared screen: cursor and top two rows. */
export interface Shown {
  x: number;
  y: number;
  rows: [string, string];
}

export interface KnownDifference {
  sample: string;
  /** At column 0, or after an `x`. */
  at: "start" | "after x";
  /** tmux versions as major × 100 + minor, inclusive. */
  from: number;
  to: number;
  tmux: Shown;
  replica: Shown;
}

/** A tmux `#{version}` ("3.5a") as major × 100 + minor (305). */
export function versionNumber(version: string): number {
  const match = /(\d+)\.(\d+)/.exec(version);
  return match ? Number(match[1]) * 100 + Number(match[2]) : Number.NaN;
}

/** "and every later version" */
const NEW = 999;

function shown(x: number, row: string, y = 0, second = ""): Shown {
  return { x, y, rows: [row, second] };
}

function textOf(name: string): string {
  return WIDTH_SAMPLES.find((s) => s.name === name)?.text ?? "";
}

const TAG_FLAG = textOf("tag sequence flag");
/** The tag flag as tmux before 3.6 keeps it: what fits in a cell of 21 bytes. */
const TAG_FLAG_21 = [...TAG_FLAG].slice(0, 5).join("");
const FAMILY_4 = textOf("ZWJ family of four");
const FAMILY_4_21 = [...FAMILY_4].slice(0, 6).join("");

/**
 * Where the replica cannot agree with tmux (docs/widths.md explains each kind): what each side
 * shows, exactly. tmux's rows are as capture-pane -p prints them.
 */
export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  // A zero-width character at column 0: tmux drops it, xterm gives it a column of its own.
  ...["Hangul jamo V alone", "VS16 alone", "combining acute alone", "ZWJ alone"].map(
    (sample): KnownDifference => ({ sample, at: "start", from: 302, to: NEW, tmux: shown(1, "|"), replica: shown(2, `${textOf(sample)}|`) }),
  ),
  // A C1 control sent as UTF-8: tmux prints it (3.2: 1 column; 3.4+: 0 columns) and so does the
  // replica; 3.3 drops it, the replica keeps it in the cell before (the same columns).
  { sample: "C1 control NEL as UTF-8", at: "start", from: 303, to: 303, tmux: shown(3, "ab|"), replica: shown(3, "a\u0085b|") },
  { sample: "C1 control NEL as UTF-8", at: "after x", from: 303, to: 303, tmux: shown(4, "xab|"), replica: shown(4, "xa\u0085b|") },
  // Before 3.6 a cell holds at most 21 bytes; tmux drops what does not fit, the replica keeps it.
  { sample: "tag sequence flag", at: "start", from: 302, to: 305, tmux: shown(3, `${TAG_FLAG_21}|`), replica: shown(3, `${TAG_FLAG}|`) },
  { sample: "tag sequence flag", at: "after x", from: 302, to: 305, tmux: shown(4, `x${TAG_FLAG_21}|`), replica: shown(4, `x${TAG_FLAG}|`) },
  { sample: "ZWJ family of four", at: "start", from: 303, to: 303, tmux: shown(3, `${FAMILY_4_21}|`), replica: shown(3, `${FAMILY_4}|`) },
  { sample: "ZWJ family of four", at: "after x", from: 303, to: 303, tmux: shown(4, `x${FAMILY_4_21}|`), replica: shown(4, `x${FAMILY_4}|`) },
  // 3.3 keeps a ZWJ out of the screen until a non-ASCII character follows, and drops what glibc
  // cannot print (an unassigned code point): the replica joins them to the cell before.
  { sample: "ZWJ alone", at: "after x", from: 303, to: 303, tmux: shown(2, "x|"), replica: shown(2, "x\u200d|") },
  { sample: "ZWJ between letters", at: "start", from: 303, to: 303, tmux: shown(3, "ab|"), replica: shown(3, "a\u200db|") },
  { sample: "ZWJ between letters", at: "after x", from: 303, to: 303, tmux: shown(4, "xab|"), replica: shown(4, "xa\u200db|") },
  { sample: "unassigned code point", at: "start", from: 303, to: 303, tmux: shown(1, "|"), replica: shown(2, "\u{1faff}|") },
  { sample: "unassigned code point", at: "after x", from: 303, to: 303, tmux: shown(2, "x|"), replica: shown(2, "x\u{1faff}|") },
  // 3.4's capture-pane shows a space after a cell that VS16 or a skin tone made wide (its padding
  // cell lands one column too far: screen_write_combine, fixed in 3.5).
  { sample: "heart + VS16", at: "start", from: 304, to: 304, tmux: shown(3, "\u2764\ufe0f |"), replica: shown(3, "\u2764\ufe0f|") },
  { sample: "heart + VS16", at: "after x", from: 304, to: 304, tmux: shown(4, "x\u2764\ufe0f |"), replica: shown(4, "x\u2764\ufe0f|") },
  { sample: "letter + VS16", at: "start", from: 304, to: 304, tmux: shown(3, "a\ufe0f |"), replica: shown(3, "a\ufe0f|") },
  { sample: "letter + VS16", at: "after x", from: 304, to: 304, tmux: shown(4, "xa\ufe0f |"), replica: shown(4, "xa\ufe0f|") },
  { sample: "VS16 alone", at: "after x", from: 304, to: 304, tmux: shown(3, "x\ufe0f |"), replica: shown(3, "x\ufe0f|") },
  { sample: "accented letter + skin tone", at: "start", from: 304, to: 304, tmux: shown(3, "\u00e9\u{1f3fd} |"), replica: shown(3, "\u00e9\u{1f3fd}|") },
  { sample: "accented letter + skin tone", at: "after x", from: 304, to: 304, tmux: shown(4, "x\u00e9\u{1f3fd} |"), replica: shown(4, "x\u00e9\u{1f3fd}|") },
  { sample: "rainbow flag (VS16 + ZWJ)", at: "start", from: 304, to: 304, tmux: shown(3, "\u{1f3f3}\ufe0f \u200d\u{1f308}|"), replica: shown(3, "\u{1f3f3}\ufe0f\u200d\u{1f308}|") },
  { sample: "rainbow flag (VS16 + ZWJ)", at: "after x", from: 304, to: 304, tmux: shown(4, "x\u{1f3f3}\ufe0f \u200d\u{1f308}|"), replica: shown(4, "x\u{1f3f3}\ufe0f\u200d\u{1f308}|") },
  { sample: "keycap", at: "start", from: 304, to: 304, tmux: shown(3, "1\ufe0f \u20e3|"), replica: shown(3, "1\ufe0f\u20e3|") },
  { sample: "keycap", at: "after x", from: 304, to: 304, tmux: shown(4, "x1\ufe0f \u20e3|"), replica: shown(4, "x1\ufe0f\u20e3|") },
  // 3.4+ widens a cell for a VS16 that comes after an escape sequence; xterm cannot widen a cell
  // it finds by looking back (it would move the cursor by the whole new width).
  { sample: "letter, colour, VS16", at: "start", from: 304, to: 304, tmux: shown(3, "a\ufe0f |"), replica: shown(2, "a\ufe0f|") },
  { sample: "letter, colour, VS16", at: "after x", from: 304, to: 304, tmux: shown(4, "xa\ufe0f |"), replica: shown(3, "xa\ufe0f|") },
  { sample: "letter, colour, VS16", at: "start", from: 305, to: NEW, tmux: shown(3, "a\ufe0f|"), replica: shown(2, "a\ufe0f|") },
  { sample: "letter, colour, VS16", at: "after x", from: 305, to: NEW, tmux: shown(4, "xa\ufe0f|"), replica: shown(3, "xa\ufe0f|") },
  // 3.6+ ignores U+3164 HANGUL FILLER entirely; the replica joins it to the cell before.
  { sample: "Hangul filler", at: "start", from: 306, to: NEW, tmux: shown(1, "|"), replica: shown(2, "\u3164|") },
  { sample: "Hangul filler", at: "after x", from: 306, to: NEW, tmux: shown(2, "x|"), replica: shown(2, "x\u3164|") },
];
