// Changed lines that left the emulator's memory (scrolled past its history) before a read could
// list them, counted by the render sequence at which they changed: a read whose cursor precedes
// that sequence cannot show them among its rows, and says how many (Truncation.rows). Pure.

export interface ScrolledEntry {
  seq: number;
  count: number;
}

/**
 * Entries kept: one per run of lines that changed at one sequence (a flood's look stamps hundreds,
 * a slow log's one). Beyond it the oldest two merge at the later sequence: a reader that old is told
 * at least as many as left, never fewer. As many as the tracker's lost lines keep (rows.ts): a
 * publication copies the whole log whenever it moved, every look of a flood.
 */
const KEPT = 256;

export class ScrolledPast {
  private entries: ScrolledEntry[] = [];
  /** Bumped at every change: a publication sends the entries again only when it moved. */
  version = 0;

  /** `count` lines that last changed at `seq` left memory. */
  add(seq: number, count: number): void {
    if (count <= 0) return;
    this.version++;
    const last = this.entries[this.entries.length - 1];
    if (last && last.seq === seq) last.count += count;
    else this.entries.push({ seq, count });
    if (this.entries.length > KEPT) {
      const [a, b] = this.entries.splice(0, 2);
      if (a && b) this.entries.unshift({ seq: Math.max(a.seq, b.seq), count: a.count + b.count });
    }
  }

  get list(): readonly ScrolledEntry[] {
    return this.entries;
  }
}

/** Lines that changed after `seq` and left memory since. */
export function scrolledSince(entries: readonly ScrolledEntry[], seq: number): number {
  let count = 0;
  for (const entry of entries) if (entry.seq > seq) count += entry.count;
  return count;
}
