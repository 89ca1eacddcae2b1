// What a pane holds since a cursor, gathered for its answer (answer.ts shapes it): the stripped raw
// text since the cursor's offset, the gaps and heals after its sequence, the changed rows its
// limits can keep, and the screen its reader was shown. The same for the observer and for a read
// view on another thread (view.ts), so that both answer alike.
import type { CursorFields } from "../cursor/codec.js";
import type { MissedReason, ReadLimits } from "../read/delta.js";
import type { RawStream } from "../raw/stream.js";
import type { StripState } from "../raw/strip.js";
import type { News } from "./answer.js";
import type { BreakLog } from "./breaks.js";
import type { Frame } from "./frames.js";
import type { HealLog } from "./heals.js";
import type { Changes, RowBound } from "./rows.js";

/** Where a pane's news is read from. */
export interface NewsSource {
  raw: RawStream;
  breaks: BreakLog;
  heals: HealLog;
  /** Offset of the last byte the rows hold. */
  applied: number;
  changedSince(seq: number, bound?: RowBound): Changes;
  frameAt(seq: number): Frame | undefined;
}

/** The news since `fields` within `limits`, and the escape stripper's state where it ends. */
export function newsSince(fields: CursorFields, source: NewsSource, limits: ReadLimits): { news: News; strip: StripState } {
  const gaps = source.breaks.since(fields.seq);
  let missedBytes = gaps.bytes;
  let missed: MissedReason | undefined = gaps.reason;
  const stripped = source.raw.since(fields.offset, fields.strip, source.applied);
  if (stripped.missed > 0) {
    missed ??= "overflow";
    missedBytes += stripped.missed;
  }
  // Only the rows the limits can keep are read out (a flood read's thousand lines cost most).
  const bound = limits.maxLines === undefined && limits.maxBytes === undefined ? undefined : { lines: limits.maxLines, bytes: limits.maxBytes };
  const changes = source.changedSince(fields.seq, bound);
  if (changes.lostLines > 0) missed ??= "overflow";
  const news: News = {
    rows: changes.rows,
    above: changes.above,
    scrolledPast: changes.scrolledPast,
    everyRow: () => source.changedSince(fields.seq).rows,
    raw: stripped.text,
    rawBytes: stripped.bytes,
    missed,
    missedBytes,
    healed: source.heals.since(fields.seq),
    shown: source.frameAt(fields.seq),
  };
  return { news, strip: stripped.state };
}
