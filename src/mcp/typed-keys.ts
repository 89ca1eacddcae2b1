// The last keys each caller sent to each pane, as a cursor from just before them: until the pane
// changed after that cursor, wait_for does not test a screen pattern (the prompt the keys found is
// not their answer: wait.ts). Kept per caller: the daemon's callers share one store, and one
// caller's keys must not blind another's waits (a reader that typed nothing timed out on a screen
// that showed its pattern, until the pane changed).

/** Callers × panes remembered (the oldest forgotten first). */
export const MAX_TYPED = 256;

/** Every caller's last keys, by caller and pane; one per server (the daemon: one for all its connections). */
export class TypedStore {
  private readonly cursors = new Map<string, string>();

  get(key: string): string | undefined {
    return this.cursors.get(key);
  }

  remember(key: string, cursor: string): void {
    this.cursors.delete(key);
    this.cursors.set(key, cursor);
    const oldest = this.cursors.keys().next().value;
    if (this.cursors.size > MAX_TYPED && oldest !== undefined) this.cursors.delete(oldest);
  }
}

/** One caller's view of the store: a server has one, and the daemon names its caller per connection. */
export class TypedKeys {
  constructor(
    private readonly store: TypedStore = new TypedStore(),
    /** Whose keys: a shell command's reader, a relay's connection; "" where one caller has the server. */
    public caller = "",
  ) {}

  /** A cursor from just before the last keys this caller sent to the pane, if any. */
  get(paneId: string): string | undefined {
    return this.store.get(`${this.caller}\0${paneId}`);
  }

  remember(paneId: string, cursor: string): void {
    this.store.remember(`${this.caller}\0${paneId}`, cursor);
  }
}
