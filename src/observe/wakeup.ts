// "Something changed" for waiting readers: event-driven, never polled. A wait ends on the next
// notify, on its timeout, or when its signal aborts, and leaves no timer or listener behind.

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
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener("abort", done, { once: true });
      this.waiters.add(done);
    });
  }

  /** Waiters now (tests check that an ended wait leaves none). */
  get size(): number {
    return this.waiters.size;
  }
}
