// "Something changed" for waiting readers: event-driven, never polled. A wait ends on the next
// notify, on its timeout, or when its signal aborts, and leaves no timer or listener behind.

/**
 * Timers and abort listeners of waits that news ended, let go on the next turn: the woken readers
 * answer first (letting go is a noticeable part of a keystroke's wake: docs/benchmarks.md, history).
 */
const releases: Array<() => void> = [];

function releaseSoon(release: () => void): void {
  if (releases.push(release) === 1) setImmediate(() => releases.splice(0).forEach((r) => r()));
}

/** The longest delay setTimeout takes (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class Wakeup {
  private waiters = new Set<() => void>();

  /** Wakes every current waiter. */
  notify(): void {
    const waiting = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiting) wake();
  }

  /** Resolves on the next notify, after `ms`, or on abort, whichever comes first. */
  next(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let ended = false;
      const release = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onEnd);
      };
      const end = (byNews: boolean): void => {
        if (ended) return;
        ended = true;
        this.waiters.delete(onNews);
        resolve();
        if (byNews) releaseSoon(release);
        else release();
      };
      const onNews = (): void => end(true);
      const onEnd = (): void => end(false);
      // Node fires a delay over 2^31 - 1 ms at once (a TimeoutOverflowWarning each time): a longer
      // wait is cut to that, and its caller waits again for the rest.
      const timer = setTimeout(onEnd, Math.min(Math.max(0, ms), MAX_TIMER_MS));
      signal?.addEventListener("abort", onEnd, { once: true });
      this.waiters.add(onNews);
    });
  }

  /** Waiters now (tests check that an ended wait leaves none). */
  get size(): number {
    return this.waiters.size;
  }
}
