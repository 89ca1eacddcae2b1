// The heal log of one pane: rows whose text panescope took from tmux because its emulator had drawn
// them differently (the replica audit), stamped with the render sequence that carried the fix.
// Bounded; an old reader still hears of the lines of the entries dropped (merged into one).

interface Heal {
  seq: number;
  lines: number[];
}

const MAX_HEALS = 32;
const MAX_LINES = 256;

export class HealLog {
  private heals: Heal[] = [];
  private total = 0;

  add(seq: number, lines: readonly number[]): void {
    this.total++;
    this.heals.push({ seq, lines: lines.slice(0, MAX_LINES) });
    if (this.heals.length > MAX_HEALS) {
      const [a, b] = this.heals.splice(0, 2);
      if (a && b) this.heals.unshift({ seq: b.seq, lines: [...new Set([...a.lines, ...b.lines])].slice(0, MAX_LINES) });
    }
  }

  /** Lines healed after `seq`, ascending (undefined when none: most answers). */
  since(seq: number): number[] | undefined {
    let lines: Set<number> | undefined;
    for (const heal of this.heals) {
      if (heal.seq <= seq) continue;
      lines ??= new Set();
      for (const line of heal.lines) lines.add(line);
    }
    return lines && [...lines].sort((x, y) => x - y);
  }

  /** Heals since the observer started. */
  get count(): number {
    return this.total;
  }
}
