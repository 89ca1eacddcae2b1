// A named reader's calls on one pane, one at a time. Its cursor of the pane is one position: two
// calls that overlapped both started from it, so both answered the output after it (seen twice),
// and whichever answered last set it, maybe back to before what the other showed (seen again).
// The second call is refused at once, saying who holds the reader and what to do; waiting for the
// first instead would hang a `send` that a `wait` of the same reader waits on for ever. Keys alone
// (a `send` without a wait) are typed, and leave the cursor to the call that holds it (connection.ts).
// Bounded by the calls in flight: a claim ends with its call's answer, its cancel, or its connection.

/** The call holding a reader × pane. */
export interface Holder {
  /** The tool it called (its shell command in a message: shell/words.ts). */
  tool: string;
  since: number;
}

export class BusyReaders {
  private readonly held = new Map<string, Holder>();

  /** Takes the reader × pane for a call: its holder, or the holder that has it already (then nothing is taken). */
  claim(reader: string, paneId: string, tool: string, now = Date.now()): { taken: Holder } | { busy: Holder } {
    const key = keyOf(reader, paneId);
    const holder = this.held.get(key);
    if (holder !== undefined) return { busy: holder };
    const taken = { tool, since: now };
    this.held.set(key, taken);
    return { taken };
  }

  /** Whether a call holds the reader × pane now. */
  holds(reader: string, paneId: string): boolean {
    return this.held.has(keyOf(reader, paneId));
  }

  /** Lets the reader × pane go, if `holder` still has it. */
  release(reader: string, paneId: string, holder: Holder): void {
    const key = keyOf(reader, paneId);
    if (this.held.get(key) === holder) this.held.delete(key);
  }

  get size(): number {
    return this.held.size;
  }
}

/**
 * Why the call was refused, in the tools' words (a shell command's are put in by shell/words.ts:
 * `wait_for` is `panescope wait`, `cursor` is `--cursor`).
 */
export function busyMessage(reader: string, paneId: string, holder: Holder, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - holder.since) / 1000));
  return (
    `reader ${JSON.stringify(reader)} is busy on ${paneId}: its ${holder.tool} call (started ${seconds} s ago) has not answered yet, and one reader's calls on a pane must not overlap ` +
    `(both would answer from its one cursor, the same output twice). Wait for that call to end (or stop it), then run this again; for calls at the same time, give each its own reader (--as NAME), or pass \`cursor\``
  );
}

function keyOf(reader: string, paneId: string): string {
  return `${reader}\0${paneId}`;
}
