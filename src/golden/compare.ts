// Compare two golden texts and explain a difference as a unified diff (Myers line diff, 3 lines of
// context) whose lines are safe to print: control characters and trailing blanks are shown, and a
// run of identical blank screen rows is folded into one line that counts them. Pure.

import { visibleText } from "./cells.js";

export interface CompareResult {
  equal: boolean;
  /** Unified diff, empty when equal; ends with a newline otherwise. */
  diff: string;
}

export interface CompareLabels {
  expected?: string;
  actual?: string;
}

const CONTEXT = 3;
/** A run of at least this many identical blank frame rows (same side of the diff) is folded. */
const FOLD = 3;
const BLANK_ROW = /^│ *│$/;
const NO_EOL = "\\ No newline at end of file";

export type Op = { kind: " " | "-" | "+"; text: string; a: number; b: number };

interface Lines {
  lines: string[];
  /** The last line has no newline after it. */
  noEol: boolean;
}

function splitLines(text: string): Lines {
  if (text === "") return { lines: [], noEol: false };
  const lines = text.split("\n");
  const noEol = lines.at(-1) !== "";
  if (!noEol) lines.pop();
  return { lines, noEol };
}

/** Myers' O(ND) shortest edit script between two arrays of comparable keys (lines, or characters). */
export function editScript(a: string[], b: string[]): Op[] {
  // Common prefix and suffix are cheap and cover the usual golden change (a few rows).
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const x0 = a.slice(pre, a.length - suf);
  const y0 = b.slice(pre, b.length - suf);
  const n = x0.length;
  const m = y0.length;
  const max = n + m;
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  search: for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[off + k - 1] ?? 0) < (v[off + k + 1] ?? 0));
      let x = down ? (v[off + k + 1] ?? 0) : (v[off + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && x0[x] === y0[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) break search;
    }
  }
  const middle: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d] ?? v;
    const k = x - y;
    const down = k === -d || (k !== d && (vd[off + k - 1] ?? 0) < (vd[off + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = vd[off + prevK] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      middle.push({ kind: " ", text: x0[x] ?? "", a: pre + x, b: pre + y });
    }
    if (d > 0) {
      if (x === prevX) middle.push({ kind: "+", text: y0[prevY] ?? "", a: pre + x, b: pre + prevY });
      else middle.push({ kind: "-", text: x0[prevX] ?? "", a: pre + prevX, b: pre + y });
    }
    x = prevX;
    y = prevY;
  }
  middle.reverse();
  const ops: Op[] = [];
  for (let i = 0; i < pre; i++) ops.push({ kind: " ", text: a[i] ?? "", a: i, b: i });
  ops.push(...middle);
  for (let i = suf; i > 0; i--) ops.push({ kind: " ", text: a[a.length - i] ?? "", a: a.length - i, b: b.length - i });
  return ops;
}

/** A diff line made safe and readable: controls as pictures, trailing spaces as ␠. */
function show(text: string): string {
  const body = visibleText(text);
  const trailing = /[ ]+$/.exec(body);
  return trailing === null ? body : body.slice(0, trailing.index) + "\u2420".repeat(trailing[0].length);
}

function range(start: number, length: number): string {
  // Unified diff convention: an empty range names the line before it.
  const first = length === 0 ? start : start + 1;
  return length === 1 ? `${first}` : `${first},${length}`;
}

/** Equal texts give no diff; otherwise a unified diff from `expected` to `actual`. */
export function compareGolden(expected: string, actual: string, labels: CompareLabels = {}): CompareResult {
  if (expected === actual) return { equal: true, diff: "" };
  const a = splitLines(expected);
  const b = splitLines(actual);
  // A missing final newline makes the last line differ from the same text with one.
  const key = (l: Lines): string[] => l.lines.map((line, i) => (l.noEol && i === l.lines.length - 1 ? `${line}\u0000` : line));
  const ops = editScript(key(a), key(b)).map((op) => ({ ...op, text: op.text.replace(/\u0000$/, "") }));

  const out = [`--- ${labels.expected ?? "expected"}`, `+++ ${labels.actual ?? "actual"}`];
  const changes = ops.flatMap((op, i) => (op.kind === " " ? [] : [i]));
  let h = 0;
  while (h < changes.length) {
    const firstChange = changes[h] ?? 0;
    let lastChange = firstChange;
    while (h + 1 < changes.length && (changes[h + 1] ?? 0) - lastChange <= 2 * CONTEXT + 1) lastChange = changes[++h] ?? 0;
    h++;
    const from = Math.max(0, firstChange - CONTEXT);
    const to = Math.min(ops.length, lastChange + CONTEXT + 1);
    const hunk = ops.slice(from, to);
    const aLen = hunk.filter((op) => op.kind !== "+").length;
    const bLen = hunk.filter((op) => op.kind !== "-").length;
    const aStart = hunk.find((op) => op.kind !== "+")?.a ?? hunk[0]?.a ?? 0;
    const bStart = hunk.find((op) => op.kind !== "-")?.b ?? hunk[0]?.b ?? 0;
    out.push(`@@ -${range(aStart, aLen)} +${range(bStart, bLen)} @@`);
    for (let i = 0; i < hunk.length; i++) {
      const first = hunk[i];
      if (first === undefined) continue;
      out.push(`${first.kind}${show(first.text)}`);
      let run = 1;
      while (BLANK_ROW.test(first.text) && hunk[i + run]?.kind === first.kind && hunk[i + run]?.text === first.text) run++;
      if (run >= FOLD) {
        // The hunk header keeps the real line counts; only the printing is folded.
        out.push(`${first.kind}┆ ${run - 1} more blank rows`);
        i += run - 1;
      }
      const op = hunk[i] ?? first;
      const side = op.kind === "+" ? b : a;
      const index = op.kind === "+" ? op.b : op.a;
      // A context line can only be last in both files or in neither: its key carries the mark.
      if (side.noEol && index === side.lines.length - 1) out.push(NO_EOL);
    }
  }
  return { equal: false, diff: `${out.join("\n")}\n` };
}
