// The discontinuity log of one pane: every gap a reader could not see (output tmux dropped, a
// respawn, polling instead of streaming), stamped with the render sequence at which it happened.
import type { MissedReason } from "../read/delta.js";

interface Break {
  /** Render sequence at the break: a cursor with a lower sequence has not seen it. */
  seq: number;
  reason: MissedReason;
  bytes: number;
}

const MAX_BREAKS = 64;

export class BreakLog {
  private breaks: Break[] = [];
  /** The newest entry dropped from the bounded list: an older reader still hears of (at least) it. */
  private dropped: Break | undefined;

  add(seq: number, reason: MissedReason, bytes: number): void {
    this.breaks.push({ seq, reason, bytes });
    if (this.breaks.length > MAX_BREAKS) this.dropped = this.breaks.shift();
  }

  /** What a reader at `seq` has not seen: the first reason, and the bytes known to be lost. */
  since(seq: number): { reason?: MissedReason; bytes: number } {
    let reason = this.dropped && this.dropped.seq > seq ? this.dropped.reason : undefined;
    let bytes = 0;
    for (const gap of this.breaks) {
      if (gap.seq <= seq) continue;
      reason ??= gap.reason;
      bytes += gap.bytes;
    }
    return reason === undefined ? { bytes } : { reason, bytes };
  }
}
