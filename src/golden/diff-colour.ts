// Colours for a golden diff on a terminal: removed lines red, added lines green, and in each
// changed row the words that changed marked in reverse video, so a one-character change in an
// 80-column row is seen at once. Whether to colour follows NO_COLOR / FORCE_COLOR / a TTY. Pure.

import { editScript } from "./compare.js";

const RESET = "\u001b[0m";
const RED = "\u001b[31m";
const GREEN = "\u001b[32m";
const CYAN = "\u001b[36m";
const DIM = "\u001b[2m";
const BOLD = "\u001b[1m";
/** Reverse video on, then off (keeps the line's colour). */
const MARK_ON = "\u001b[7m";
const MARK_OFF = "\u001b[27m";

/**
 * Colour or not, the way most command-line tools decide (https://no-color.org, FORCE_COLOR as
 * chalk and vitest read it): NO_COLOR set and non-empty → no; FORCE_COLOR 0/false → no, any
 * other non-empty value → yes; otherwise only when the output is a terminal.
 */
export function wantColour(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if ((env.NO_COLOR ?? "") !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return !/^(0|false)$/i.test(force);
  return isTTY;
}

/**
 * A row cut into words, runs of blanks and single other characters: marking whole words reads
 * better than marking scattered letters ("golden" → "world" is one word, not g/en → w/r).
 */
export function diffTokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+|\s+|./gsu) ?? [];
}

/** The two rows with the tokens only one side has wrapped in `on`/`off`. */
export function markChanges(removed: string, added: string, on: string, off: string): { removed: string; added: string } {
  let a = "";
  let b = "";
  for (const op of editScript(diffTokens(removed), diffTokens(added))) {
    if (op.kind === " ") {
      a += op.text;
      b += op.text;
    } else if (op.kind === "-") a += `${on}${op.text}${off}`;
    else b += `${on}${op.text}${off}`;
  }
  // Adjacent marks merge into one run: `on`+`off` pairs in between add nothing.
  const merge = (s: string): string => s.split(`${off}${on}`).join("");
  return { removed: merge(a), added: merge(b) };
}

function paint(colour: string, text: string): string {
  return `${colour}${text}${RESET}`;
}

/** Colours a unified diff from compareGolden; changed rows paired in order get in-line marks. */
export function colourDiff(diff: string): string {
  const lines = diff.endsWith("\n") ? diff.slice(0, -1).split("\n") : diff.split("\n");
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    // Only the first two lines are the header: a removed row may itself start with "--".
    if (i < 2 && (line.startsWith("---") || line.startsWith("+++"))) {
      out.push(paint(BOLD, line));
      i++;
    } else if (line.startsWith("@@")) {
      out.push(paint(CYAN, line));
      i++;
    } else if (line.startsWith("-") || line.startsWith("+")) {
      // A block of removed rows, then the added rows that replace them: pair them row by row.
      const minus: string[] = [];
      const plus: string[] = [];
      while ((lines[i] ?? "").startsWith("-")) minus.push((lines[i++] ?? "").slice(1));
      while ((lines[i] ?? "").startsWith("+")) plus.push((lines[i++] ?? "").slice(1));
      const pairs = Math.min(minus.length, plus.length);
      const marked = minus.map((row, k) => (k < pairs ? markChanges(row, plus[k] ?? "", MARK_ON, MARK_OFF) : { removed: row, added: "" }));
      for (let k = 0; k < minus.length; k++) out.push(paint(RED, `-${marked[k]?.removed ?? ""}`));
      for (let k = 0; k < plus.length; k++) out.push(paint(GREEN, `+${k < pairs ? (marked[k]?.added ?? "") : (plus[k] ?? "")}`));
    } else {
      out.push(line.startsWith("\\") ? paint(DIM, line) : line);
      i++;
    }
  }
  return `${out.join("\n")}${diff.endsWith("\n") ? "\n" : ""}`;
}
