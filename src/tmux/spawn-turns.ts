// One spawn per turn of the event loop. Starting a process blocks the loop while Node forks (4–20 ms
// each on a 2-core VM, more the larger the process), and a storm of send_keys held every other call
// behind it (docs/benchmarks.md, figure 7). Spawns wait their turn here, and the I/O
// that arrives between turns (reads, tmux output) is served in between.

type Schedule = (next: () => void) => void;

export class SpawnTurns {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  constructor(private readonly schedule: Schedule = (next) => setImmediate(next)) {}

  /** Resolves when this caller may spawn: at most one caller per turn. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.wake();
    });
  }

  private wake(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      this.waiting.shift()?.();
      this.wake();
    });
  }
}

/** The process-wide turns every one-shot tmux command waits for. */
export const spawnTurns = new SpawnTurns();
