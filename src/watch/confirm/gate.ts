// Confirm: output held until tmux confirms who wrote it. tmux says nothing when a pane is respawned: the new
// process's bytes arrive as the same pane's %output, and the %* subscription tells of the new pid
// only about a second later. So a watch hands bytes to its observer only once tmux has confirmed
// that the pane still runs the process the observer watches (confirm.ts): a respawned pane's
// output is never read as the old process's. Pure: chunks in, chunks out, counted in bytes.

export class OutputGate {
  private pending: Uint8Array[] = [];
  private head = 0;
  /** Bytes ever held, and of those the ones handed on or dropped. */
  private receivedBytes = 0;
  private resolvedBytes = 0;

  /** Bytes received so far: a confirmation asked for now covers up to here. */
  get received(): number {
    return this.receivedBytes;
  }

  /** Bytes held and not yet handed on. */
  get held(): number {
    return this.receivedBytes - this.resolvedBytes;
  }

  hold(data: Uint8Array): void {
    if (data.length === 0) return;
    this.pending.push(data);
    this.receivedBytes += data.length;
  }

  /** Hands on, in order, the chunks received up to `upTo` (a `received` taken earlier). */
  release(upTo: number, sink: (data: Uint8Array) => void): void {
    while (this.head < this.pending.length) {
      const chunk = this.pending[this.head] as Uint8Array;
      if (this.resolvedBytes + chunk.length > upTo) break;
      this.pending[this.head++] = EMPTY;
      this.resolvedBytes += chunk.length;
      sink(chunk);
    }
    this.compact();
  }

  /** Takes every held chunk (they are resolved elsewhere: dropped, or kept as raw only). */
  takeAll(): Uint8Array[] {
    const all = this.pending.slice(this.head);
    this.pending = [];
    this.head = 0;
    this.resolvedBytes = this.receivedBytes;
    return all;
  }

  private compact(): void {
    if (this.head === this.pending.length) {
      this.pending = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.pending.length) {
      this.pending = this.pending.slice(this.head);
      this.head = 0;
    }
  }
}

const EMPTY = new Uint8Array(0);
