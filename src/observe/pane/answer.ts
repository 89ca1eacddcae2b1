// One read's answer, shaped: what the observer gathered since a cursor (changed rows, raw text,
// gaps, heals) cut to the reader's limits, with the text view's patch from the screen the reader
// holds to the screen now. Pure: the observer gathers, this file only builds the Delta.
import type { Delta, MissedReason, PaneExit, PatchRow, ReadLimits, Row } from "../read/delta.js";
import { afterRaw, applyLimits } from "../read/limits.js";
import { NO_HISTORY, patchScreen, type History } from "../read/screen-patch.js";
import type { Frame } from "./frames.js";

/** What every answer says besides its news: whose it is, where to go on from, how the pane stands. */
export interface Standing {
  paneId: string;
  cursor: string;
  screen: Delta["screen"];
  /** The screen now, as the text view's patch sees it. */
  frame: Frame;
  closed: boolean;
  exit: PaneExit | undefined;
  streaming: boolean;
}

/** What changed since a cursor. */
export interface News {
  /** Rows changed since, by absolute line (history lines included): all, or the lowest of them. */
  rows: Row[];
  /** Changed history lines above `rows`, left unread because the limits cut them (rows.ts). */
  above: number;
  /** Changed lines above those, gone from the emulator's history before this read (scrolled-past.ts). */
  scrolledPast: number;
  /** Every changed row, read when a part of the answer needs them all (the patch's offscreen search). */
  everyRow(): Row[];
  /** The escape-stripped text since, and its size before stripping. */
  raw: string;
  rawBytes: number;
  /** Why something was missed, and how many bytes (undefined: nothing was). */
  missed: MissedReason | undefined;
  missedBytes: number;
  healed: number[] | undefined;
  /** The screen the cursor's reader was shown, if still kept. */
  shown: Frame | undefined;
}

/** The answer to a cursor the observer continues. */
export function newsAnswer(standing: Standing, news: News, limits: ReadLimits): Delta {
  const limited = applyLimits(news.rows, news.raw, limits);
  // Rows that scrolled past the history are cut like rows the limits cut: the reader is told, raw has them.
  limited.truncated.rows += news.above + news.scrolledPast;
  const top = standing.screen.top;
  const history: History = { rows: historyRows(news.rows, top), above: news.above, scrolledPast: news.scrolledPast, all: () => historyRows(news.everyRow(), top) };
  return {
    paneId: standing.paneId,
    cursor: standing.cursor,
    first: false,
    ...(news.healed ? { healed: news.healed } : {}),
    rows: limited.rows,
    screen: standing.screen,
    raw: limited.raw,
    rawBytes: news.rawBytes,
    missed: news.missed !== undefined,
    missedBytes: news.missedBytes,
    ...(news.missed ? { reason: news.missed } : {}),
    ...ending(standing),
    truncated: limited.truncated,
    patch: patchScreen(news.shown, standing.frame, history, afterRaw(limits, limited.raw), limited.raw),
  };
}

/** The history lines among `rows` (above the screen's `top`), by screen row. */
function historyRows(rows: readonly Row[], top: number): PatchRow[] {
  // A loop, not flatMap: a flood read has a thousand history lines, and flatMap made an array for each.
  const history: PatchRow[] = [];
  for (const row of rows) if (row.line < top) history.push({ row: row.line - top, text: row.text });
  return history;
}

/** A watch's first answer (or one after a discontinuity): the visible screen, down to the last non-blank row or the cursor row. */
export function firstAnswer(standing: Standing, visible: readonly string[], limits: ReadLimits, reason: MissedReason | undefined): Delta {
  const screen = standing.screen;
  let last = screen.cursorY;
  for (let y = visible.length - 1; y > last; y--) {
    if (visible[y] !== "") {
      last = y;
      break;
    }
  }
  const rows: Row[] = visible.slice(0, last + 1).map((text, y) => ({ line: screen.top + y, text }));
  const limited = applyLimits(rows, "", limits);
  return {
    paneId: standing.paneId,
    cursor: standing.cursor,
    first: true,
    rows: limited.rows,
    screen,
    raw: "",
    rawBytes: 0,
    missed: reason !== undefined,
    missedBytes: 0,
    ...(reason ? { reason } : {}),
    ...ending(standing),
    truncated: limited.truncated,
    patch: patchScreen(undefined, standing.frame, NO_HISTORY, limits),
  };
}

/** How the pane stands: closed (and how it ended), streamed or polled. */
function ending(standing: Standing): Pick<Delta, "closed" | "exit" | "streaming"> {
  return { closed: standing.closed, ...(standing.closed && standing.exit ? { exit: standing.exit } : {}), streaming: standing.streaming };
}
