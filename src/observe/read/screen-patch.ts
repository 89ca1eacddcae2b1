// The text view of a read: what to send a reader who holds the screen of its cursor (frames.ts) so
// that it ends up with exactly the screen now, in few bytes. The reader first scrolls its screen
// (the whole screen, or a region such as a chat's message area above a fixed status line), then
// overwrites the rows listed. Lines that scrolled into history say how far the normal screen
// scrolled: that scroll is the one stated, so new output that happens to read like the rows the
// reader holds is still sent (lineScroll). Otherwise the scroll is chosen by content, so it also
// finds scrolls that do not move line numbers (regions mid-screen, the alternate screen). Pure.
import type { Frame } from "../pane/frames.js";
import type { Offscreen, PatchRow, ReadLimits, ScreenPatch, Scroll } from "./delta.js";
import { applyLimits } from "./limits.js";

/** Approximate text cost of stating a scroll, against the rows it saves (row text + "N|" + newline). */
const WHOLE_SCROLL_COST = 12;
const REGION_SCROLL_COST = 20;
const ROW_OVERHEAD = 3;

/**
 * Lines above the screen the reader has not seen (negative rows), listed before the screen's rows:
 * the lowest of them, as many as the limits can keep, and how many more there are above.
 */
export interface History {
  readonly rows: readonly PatchRow[];
  readonly above: number;
  /** Changed lines above those that left panescope's history before this read: no longer readable. */
  readonly scrolledPast?: number;
  /** Every one of them (only offscreen's search needs the lines above). */
  all(): readonly PatchRow[];
}

export const NO_HISTORY: History = Object.freeze({ rows: [], above: 0, all: () => [] });

/** History lines all read (`above` is 0). */
export function historyOf(rows: readonly PatchRow[]): History {
  return { rows, above: 0, all: () => rows };
}

/** The patch from `before` (what the reader holds; undefined when not known) to `now`. */
export function patchScreen(before: Frame | undefined, now: Frame, history: History, limits: ReadLimits = {}, raw = ""): ScreenPatch {
  // A resize reflows the screen: the whole screen is sent, with its new size.
  let full = before === undefined || before.rows.length !== now.rows.length || before.cols !== now.cols;
  let scroll: Scroll | undefined;
  let rows: PatchRow[];
  if (full || before === undefined) {
    let last = now.rows.length - 1;
    while (last >= 0 && now.rows[last] === "") last--;
    rows = now.rows.slice(0, last + 1).map((text, row) => ({ row, text }));
    full = true;
  } else {
    scroll = lineScroll(before, now, raw) ?? bestScroll(before.rows, now.rows);
    const predicted = scroll ? predict(before.rows, scroll) : before.rows;
    rows = [];
    now.rows.forEach((text, row) => {
      if (text !== predicted[row]) rows.push({ row, text });
    });
  }
  const limited = applyLimits(history.rows.length === 0 ? rows : [...history.rows, ...rows], "", limits);
  return {
    full,
    ...(scroll ? { scroll } : {}),
    rows: limited.rows,
    cut: limited.truncated.rows + history.above,
    ...(history.scrolledPast ? { scrolledPast: history.scrolledPast } : {}),
    ...(raw === "" || now.alternate ? {} : { offscreen: offscreen(raw, now.rows, history) }),
  };
}

const squash = (text: string): string => text.replace(/\s+/g, "");
/**
 * Characters of screen text scanned looking for raw lines (≈1–2 ms); beyond it, only exact row
 * matches. A flood's raw lines are mostly not on the screen any more, and each miss scans it all.
 */
const SCAN_CHARS = 2 * 1024 * 1024;

/**
 * What of `raw` the rows cannot show: each part of a line overwritten in place (before a `\r`), and
 * each line found neither on the screen nor in the history rows (redrawn by cursor movement, or
 * scrolled out of a region that keeps no history). Full-screen programs are never counted: their
 * raw output is drawing, the rows are the screen.
 */
export function offscreen(raw: string, screen: readonly string[], history: History): Offscreen {
  if (raw.length <= SMALL_RAW && shownAsIs(raw, screen, history)) return { frames: 0, bytes: 0 };
  return searchOffscreen(raw, screen, history.all());
}

/** offscreen's search, line by line through the squashed rows (exported for its tests). */
export function searchOffscreen(raw: string, screen: readonly string[], history: readonly PatchRow[]): Offscreen {
  const rows = [...history.map((r) => r.text), ...screen].map(squash).filter((row) => row !== "");
  const exact = new Set(rows);
  const joined = rows.join("");
  let frames = 0;
  let bytes = 0;
  let budget = SCAN_CHARS;
  // Lines wrapped over several rows are found in the joined text, usually right after the last one.
  let from = 0;
  const found = (shown: string): boolean => {
    if (budget <= 0) return false;
    let at = joined.indexOf(shown, from);
    budget -= (at < 0 ? joined.length : at + shown.length) - from;
    if (at < 0 && from > 0 && budget > 0) {
      at = joined.indexOf(shown);
      budget -= at < 0 ? joined.length : at + shown.length;
    }
    if (at >= 0) from = at + shown.length;
    return at >= 0;
  };
  const count = (text: string): void => {
    frames++;
    bytes += Buffer.byteLength(text, "utf8");
  };
  for (const line of raw.split("\n")) {
    const parts = line.split(/\r/);
    const last = parts.pop() ?? "";
    for (const part of parts) if (part !== "") count(part);
    const shown = squash(last.replace(/[^\b]\x08/g, ""));
    if (shown === "" || exact.has(shown) || found(shown)) continue;
    count(last);
  }
  return { frames, bytes };
}

/** Raw this short is checked against the rows as they are first (a keystroke's echo, every wake). */
const SMALL_RAW = 256;

/**
 * Whether every line of `raw` is plainly on a row: no `\r` or backspace (they make frames and edits)
 * and found within one row as it is. Then offscreen's search finds each too (a row holding the line
 * holds it squashed), so nothing is off screen; otherwise that search decides.
 */
function shownAsIs(raw: string, screen: readonly string[], history: History): boolean {
  const holds = (rows: readonly PatchRow[], line: string): boolean => rows.some((row) => row.text.includes(line));
  for (const line of raw.split("\n")) {
    if (line === "") continue;
    if (/[\r\x08]/.test(line)) return false;
    if (screen.some((row) => row.includes(line)) || holds(history.rows, line)) continue;
    // The lines above the ones read are read only now (raw is the newest output: rarely).
    if (history.above === 0 || !holds(history.all(), line)) return false;
  }
  return true;
}

/**
 * The scroll the lines made on the normal screen: `by` lines went into history (Frame.top moved), so
 * rows from the top moved up by as many. Content alone is not enough there: `seq 5` run again on a
 * screen that then reads the same would be no scroll and no row, and `seq 5` after `seq 5` a scroll
 * down and one row, the command and its output left out. The region is the one from the top that
 * leaves the fewest bytes of rows to send (a status line below a chat's messages stays), the whole
 * screen on a tie; a row that reads as one of the last lines of `raw` may be that line, new, and is
 * never kept below the region. Undefined when no line went into history, or on the alternate screen.
 */
export function lineScroll(before: Frame, now: Frame, raw = ""): Scroll | undefined {
  if (before.alternate || now.alternate || before.top === undefined || now.top === undefined) return undefined;
  const by = now.top - before.top;
  const n = now.rows.length;
  if (by <= 0 || n === 0) return undefined;
  const printed = lastLines(raw, 2 * n);
  let lowest = 0;
  for (let y = n - 1; y > 0 && lowest === 0; y--) if (printed.has((now.rows[y] ?? "").trimEnd())) lowest = y;
  const weight = (y: number): number => (now.rows[y] ?? "").length + ROW_OVERHEAD;
  const prefix = (differs: (y: number) => boolean): number[] => {
    const sums = [0];
    for (let y = 0; y < n; y++) sums.push((sums[y] ?? 0) + (differs(y) ? weight(y) : 0));
    return sums;
  };
  const at = (sums: number[], i: number): number => sums[i] ?? 0;
  const up = prefix((y) => y + by >= n || now.rows[y] !== before.rows[y + by]);
  const blanks = prefix((y) => now.rows[y] !== "");
  const same = prefix((y) => now.rows[y] !== before.rows[y]);
  let best = { cost: Infinity, to: n - 1 };
  // Region [0, b]: rows 0..b-by come from by..b, rows b-by+1..b enter blank, rows below b stay.
  for (let b = n - 1; b >= lowest; b--) {
    const entering = Math.max(0, b - by + 1);
    const stated = b === n - 1 ? WHOLE_SCROLL_COST : REGION_SCROLL_COST;
    const cost = at(up, entering) + at(blanks, b + 1) - at(blanks, entering) + at(same, n) - at(same, b + 1) + stated;
    if (cost < best.cost) best = { cost, to: b };
  }
  return { from: 0, to: best.to, by };
}

/** The last `count` lines of raw output as a row would show them (after their last `\r`, trailing blanks trimmed), blank ones left out. */
function lastLines(raw: string, count: number): Set<string> {
  const lines = new Set<string>();
  let end = raw.length;
  for (let i = 0; i < count && end > 0; i++) {
    const start = raw.lastIndexOf("\n", end - 1) + 1;
    const line = raw.slice(start, end);
    const shown = line.slice(line.lastIndexOf("\r") + 1).trimEnd();
    if (shown !== "") lines.add(shown);
    end = start - 1;
  }
  return lines;
}

/** The reader's screen after the scroll, before any row is written. */
export function predict(rows: readonly string[], scroll: Scroll | undefined): string[] {
  const out = [...rows];
  if (!scroll) return out;
  const { from, to, by } = scroll;
  for (let y = from; y <= to; y++) {
    const source = y + by;
    out[y] = source >= from && source <= to ? (rows[source] ?? "") : "";
  }
  return out;
}

/**
 * At most what any scroll can save (checked before bestScroll builds its tables: every wake's path).
 * Shifted, a row saves its cost only when its new text is what the reader holds at another row (or
 * it is blank); a row that did not change gains nothing. Stating a scroll costs at least
 * WHOLE_SCROLL_COST, so at or below it no scroll pays: a keystroke's echo changes one row, to a
 * text the reader does not hold.
 */
export function scrollGain(oldRows: readonly string[], newRows: readonly string[]): number {
  let held: Set<string> | undefined;
  let gain = 0;
  for (let y = 0; y < newRows.length; y++) {
    const text = newRows[y] ?? "";
    if (text === oldRows[y]) continue;
    if (text === "") gain += ROW_OVERHEAD;
    else if ((held ??= new Set(oldRows)).has(text)) gain += text.length + ROW_OVERHEAD;
  }
  return gain;
}

/**
 * The scroll that leaves the fewest bytes of rows to send, or none. Every region [a, b] and shift d
 * is considered in O(rows²) with prefix sums: rows outside the region are predicted unchanged, rows
 * inside shifted, the rows that enter blank.
 */
export function bestScroll(oldRows: readonly string[], newRows: readonly string[]): Scroll | undefined {
  return scrollGain(oldRows, newRows) <= WHOLE_SCROLL_COST ? undefined : searchScroll(oldRows, newRows);
}

/** bestScroll's search over every region and shift (exported for its tests). */
export function searchScroll(oldRows: readonly string[], newRows: readonly string[]): Scroll | undefined {
  const ids = new Map<string, number>();
  const id = (text: string): number => {
    let n = ids.get(text);
    if (n === undefined) ids.set(text, (n = ids.size));
    return n;
  };
  const blank = id("");
  const before = oldRows.map(id);
  const now = newRows.map(id);
  const n = now.length;
  const weight = newRows.map((text) => text.length + ROW_OVERHEAD);
  const prefix = (cost: (y: number) => number): number[] => {
    const sums = [0];
    for (let y = 0; y < n; y++) sums.push((sums[y] ?? 0) + cost(y));
    return sums;
  };
  const at = (sums: number[], i: number): number => sums[i] ?? 0;
  const same = prefix((y) => (now[y] === before[y] ? 0 : (weight[y] ?? 0)));
  const total = at(same, n);
  const blanks = prefix((y) => (now[y] === blank ? 0 : (weight[y] ?? 0)));

  let best: { cost: number; scroll?: Scroll } = { cost: total };
  const consider = (cost: number, from: number, to: number, by: number): void => {
    const stated = cost + (from === 0 && to === n - 1 ? WHOLE_SCROLL_COST : REGION_SCROLL_COST);
    if (stated < best.cost) best = { cost: stated, scroll: { from, to, by } };
  };

  for (let d = 1; d < n; d++) {
    // A shift only pays if some non-blank row reappears shifted by it.
    let useful = false;
    for (let y = 0; y + d < n && !useful; y++) useful = now[y] === before[y + d] && now[y] !== blank;
    if (useful) {
      // Up by d within [a, b]: rows a..b-d come from a+d..b, rows b-d+1..b enter blank.
      const up = prefix((y) => (y + d < n && now[y] === before[y + d] ? 0 : (weight[y] ?? 0)));
      let bestA = 0;
      let bestValue = Infinity;
      for (let b = d; b < n; b++) {
        const a = b - d;
        const value = at(same, a) - at(up, a);
        if (value < bestValue) [bestValue, bestA] = [value, a];
        const cost = bestValue + at(up, b - d + 1) + (at(blanks, b + 1) - at(blanks, b - d + 1)) + (total - at(same, b + 1));
        consider(cost, bestA, b, d);
        if (bestA !== 0) consider(at(up, b - d + 1) + (at(blanks, b + 1) - at(blanks, b - d + 1)) + (total - at(same, b + 1)), 0, b, d);
      }
    }
    useful = false;
    for (let y = d; y < n && !useful; y++) useful = now[y] === before[y - d] && now[y] !== blank;
    if (useful) {
      // Down by d within [a, b]: rows a..a+d-1 enter blank, rows a+d..b come from a..b-d.
      const down = prefix((y) => (y >= d && now[y] === before[y - d] ? 0 : (weight[y] ?? 0)));
      // tail[i] = min over j ≥ i of down[j] - same[j], with the j reaching it (j = b + 1).
      const tail: Array<{ value: number; j: number }> = new Array<{ value: number; j: number }>(n + 2);
      tail[n + 1] = { value: Infinity, j: n + 1 };
      for (let j = n; j >= 0; j--) {
        const value = at(down, j) - at(same, j);
        const next = tail[j + 1] ?? { value: Infinity, j: n + 1 };
        tail[j] = value < next.value ? { value, j } : next;
      }
      for (let a = 0; a + d < n; a++) {
        const end = tail[a + d + 1] ?? { value: Infinity, j: n + 1 };
        if (!Number.isFinite(end.value)) continue;
        const cost = at(same, a) + (at(blanks, a + d) - at(blanks, a)) - at(down, a + d) + total + end.value;
        consider(cost, a, end.j - 1, -d);
      }
    }
  }
  return best.scroll;
}
