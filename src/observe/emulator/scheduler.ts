// When a screen parses what it is written: its writes wait in a queue and are parsed a slice at a
// time on the feeder's turns (feeder.ts), at once when a little output is awaited on an idle screen
// (a keystroke's echo), and late when plain text nobody waits for may still grow into a flood worth
// skipping (flood-skip.ts). The terminal itself is the target's: this file only decides when.
import { mayParseNow, wake, type Feedable } from "./feeder.js";
import { looksPlain } from "./flood-skip.js";
import { carveBytes } from "../../bytes.js";

/**
 * Most bytes parsed for one screen in one go before other work gets a turn: ≈0.5–2.5 ms of xterm
 * parsing (2-core VM), so twenty flooding panes share the event loop with reads and tmux replies.
 */
export const SLICE_BYTES = 32 * 1024;
/**
 * Plain text nobody waits for waits for this much backlog (or PLAIN_DELAY_MS) before it is parsed.
 * Each skip still parses the last rows + scrollback lines, so fewer skips cost less, up to a point
 * (the sizes measured: docs/benchmarks.md, history).
 */
export const SKIP_BACKLOG = 256 * 1024;
/**
 * Backlog from which a skip is tried when its turn comes: below it one can hardly pay (a skip keeps
 * the terminal's last rows + scrollback lines: ≥ 1 KiB), and a failed plan costs a walk over the bytes.
 */
const SKIP_MIN_BYTES = 8 * 1024;
/** Most bytes looked at for one skip: ≈1.5 ms of scanning; the lines kept are parsed as usual. */
export const SKIP_SCAN_BYTES = 512 * 1024;
/**
 * What looks like plain text, with nobody waiting for it, is parsed this late at most, unless
 * SKIP_BACKLOG of it gathers first: a flood then reaches the backlog a skip needs instead of being
 * parsed line by line as it trickles in. A read parses what it needs at once (Replica.settle).
 */
export const PLAIN_DELAY_MS = 50;

/** The terminal a scheduler feeds; the feeder's turns call its pump(), which hands back to ours. */
export interface ParseTarget extends Feedable {
  /** Parses one queued write now. */
  parseWrite(data: Uint8Array | string): void;
  /**
   * Skips what it can of a plain-text flood that starts with `pieces` (Screen.skipFlood): undefined
   * when the terminal is not at a point to try, else how many pieces it covered or walked in vain.
   */
  skipFlood(pieces: readonly Uint8Array[]): { skipped: boolean; pieces: number } | undefined;
}

/**
 * Joinable writes up to this size are copied into one piece of up to JOIN_BYTES while they wait.
 * A shell loop's output comes one line per `%output` (20–30 bytes); queued for a skip, twenty such
 * panes held hundreds of thousands of small objects that every scavenge of the young heap copied
 * again: 3 MB survived each one, 5–15 ms pauses, a tenth of the thread under figure 5's floods.
 */
const JOIN_MAX = 2 * 1024;
const JOIN_BYTES = 16 * 1024;

/**
 * Pieces whose writes were parsed, kept for the next joins (xterm copies what it parses). Memory
 * fresh from the system costs a page fault on each first touch, ≈16 µs per 4 KiB under a flood on
 * the 2-core VM: a new piece for every 16 KiB was a tenth of a `seq` flood's CPU.
 */
const spare: Uint8Array[] = [];
const SPARE_PIECES = 64;

/** Puts the piece of a write that was parsed, skipped or dropped back for the next join. */
function release(item: Pending): void {
  if (item.piece !== undefined && spare.length < SPARE_PIECES) spare.push(item.piece);
  item.piece = undefined;
}

interface Pending {
  data: Uint8Array | string;
  onApplied: (() => void) | undefined;
  /** performance.now() when written: plain text waits PLAIN_DELAY_MS from here at most. */
  at: number;
  /** Whether it looks like plain text (looksPlain), judged once: it is asked at each write behind it. */
  plain: boolean | undefined;
  /** Later joinable writes may join this one (write's `joinable`). */
  joinable: boolean;
  /** The piece joined writes are copied into (`data` is its start), once a second one joined. */
  piece?: Uint8Array;
}

const EMPTY: Pending = { data: "", onApplied: undefined, at: 0, plain: undefined, joinable: false };

export class WriteScheduler {
  private readonly queue: Pending[] = [];
  /** queue[head] is the next write to parse; bytes queued counted as they come and go. */
  private head = 0;
  private queued = 0;
  /** Inside pump(): a write from a callback queues behind, never parses re-entrantly. */
  private parsing = false;
  /** Set while plain text waits (PLAIN_DELAY_MS) for more before it is parsed. */
  private delay: NodeJS.Timeout | undefined;
  /** Someone waits for what is queued (a waited write, hurry, a marker): parse it all, defer nothing. */
  private urgent = false;
  /** Bytes parsed or skipped so far, and the count before which no skip is tried again. */
  private consumed = 0;
  private noSkipBefore = 0;

  constructor(private readonly target: ParseTarget) {}

  /** Bytes written and not yet applied. */
  get backlog(): number {
    return this.queued;
  }

  /** True while written data has not been applied yet. */
  get busy(): boolean {
    return this.head < this.queue.length;
  }

  /**
   * Screen.write: queues data, parsed on a coming turn or at once (see there). A `joinable` write
   * may be appended to the joinable write queued before it, as if both had come in one chunk: that
   * write's callback is then dropped and this one's runs once both are applied, so a caller joins
   * only writes whose callback stands for every one before it.
   */
  write(data: Uint8Array | string, onApplied?: () => void, waited = true, joinable = false): void {
    const first = this.queue.length === this.head && !this.parsing;
    if (!joinable || typeof data === "string" || !this.join(data, onApplied)) {
      this.queue.push({ data, onApplied, at: performance.now(), plain: undefined, joinable });
    }
    this.queued += data.length;
    // An empty write marks a point in the stream (a resize, a flush) that someone waits for.
    if (waited || data.length === 0) this.urgent = true;
    // A little awaited output on an idle screen (a keystroke's echo) is parsed now: the waiting
    // reader is answered without a turn of the event loop. Anything behind other data waits its turn.
    if (waited && first && mayParseNow(data.length)) this.target.pump();
    else if (!this.waitFor()) wake(this.target);
  }

  /** Appends `data` to the last write when both are small and joinable and it is not taken yet. */
  private join(data: Uint8Array, onApplied: (() => void) | undefined): boolean {
    const tail = this.queue.length > this.head ? this.queue[this.queue.length - 1] : undefined;
    if (!tail?.joinable || typeof tail.data === "string" || data.length > JOIN_MAX) return false;
    const held = tail.data;
    if (held.length + data.length > JOIN_BYTES || (tail.piece === undefined && held.length > JOIN_MAX)) return false;
    let piece = tail.piece;
    if (piece === undefined) {
      piece = tail.piece = spare.pop() ?? carveBytes(JOIN_BYTES);
      piece.set(held);
    }
    piece.set(data, held.length);
    tail.data = piece.subarray(0, held.length + data.length);
    tail.onApplied = onApplied;
    tail.plain = undefined; // judged again: the bytes it looks at may have grown
    return true;
  }

  /** Someone waits for this screen's news: parse what is queued on the next turn, not later. */
  hurry(): void {
    if (!this.busy) return;
    this.urgent = true;
    wake(this.target);
  }

  /**
   * Whether the queued data waits for more before it is parsed (a timer then wakes the screen at its
   * deadline): plain text nobody waits for, short of the backlog a skip needs, queued less than
   * PLAIN_DELAY_MS ago. A flood is then skipped a backlog at a time instead of parsed as it trickles
   * in (the remainder after a skip too: parsing that at once left half of a `seq` flood parsed).
   */
  private waitFor(): boolean {
    if (this.urgent || this.queued >= SKIP_BACKLOG || this.consumed < this.noSkipBefore) return false;
    const item = this.queue[this.head];
    if (item === undefined) return false;
    item.plain ??= typeof item.data !== "string" && looksPlain(item.data);
    if (!item.plain) return false;
    const left = item.at + PLAIN_DELAY_MS - performance.now();
    if (left <= 0) return false;
    // At the head's deadline (+1: a timer may fire up to a millisecond early by performance.now()).
    this.delay ??= setTimeout(() => {
      this.delay = undefined;
      wake(this.target);
    }, left + 1).unref();
    return true;
  }

  /** Screen.dropQueued: forgets what is queued; returns the bytes dropped. */
  dropQueued(): number {
    const dropped = this.queued;
    this.noSkipBefore = this.consumed;
    for (let i = this.head; i < this.queue.length; i++) release(this.queue[i] as Pending);
    this.queue.length = 0;
    this.head = 0;
    this.queued = 0;
    this.urgent = false;
    return dropped;
  }

  /** Screen.pump: parses queued writes, in order, for about `bytes`; true while more is due now. */
  pump(bytes = SLICE_BYTES): boolean {
    if (this.parsing) return this.busy;
    this.parsing = true;
    let parsed = 0;
    let waiting = false;
    try {
      while (this.head < this.queue.length && parsed < bytes) {
        if (this.waitFor()) {
          waiting = true;
          break;
        }
        if (this.queued >= SKIP_MIN_BYTES) {
          const done = this.skipFlood();
          if (done > 0) {
            parsed += done;
            continue;
          }
        }
        const item = this.next();
        parsed += item.data.length;
        if (item.data.length > 0) this.target.parseWrite(item.data);
        release(item);
        item.onApplied?.();
      }
    } finally {
      this.parsing = false;
    }
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
      this.urgent = false;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    return this.busy && !waiting;
  }

  /** Resolves once everything written so far has been applied. */
  flush(): Promise<void> {
    // Nothing queued: every write's callback has run, so the screen is current.
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.write("", resolve));
  }

  dispose(): void {
    clearTimeout(this.delay);
    this.dropQueued();
  }

  /** Takes the head write off the queue, counted as consumed. */
  private next(): Pending {
    const item = this.queue[this.head] as Pending;
    this.queue[this.head++] = EMPTY;
    this.queued -= item.data.length;
    this.consumed += item.data.length;
    return item;
  }

  /**
   * Hands the queued plain text to the target's flood skip, then runs the covered writes' callbacks
   * in order. Returns the bytes covered, 0 when there was nothing to skip.
   */
  private skipFlood(): number {
    if (this.consumed < this.noSkipBefore) return 0;
    // A skip starts at the head and covers whole writes of plain text, so only the writes that look
    // plain from the head on are offered; fewer than SKIP_MIN_BYTES of them before one that does
    // not rule a skip out until that one is parsed. A TUI's stream, never plain for long, offered
    // each slice a plan that failed (≈13% of its ingest CPU went to setting those up).
    const pieces: Uint8Array[] = [];
    let scanned = 0;
    for (let i = this.head; i < this.queue.length && scanned < SKIP_SCAN_BYTES; i++) {
      const item = this.queue[i] as Pending;
      const data = item.data;
      // An empty write marks a point in the stream (a resize, a flush): never run past it.
      if (typeof data === "string" || data.length === 0) break;
      item.plain ??= looksPlain(data);
      if (!item.plain) {
        if (scanned >= SKIP_MIN_BYTES) break;
        this.noSkipBefore = this.consumed + scanned + data.length;
        return 0;
      }
      pieces.push(data);
      scanned += data.length;
    }
    if (scanned < SKIP_MIN_BYTES) return 0;
    const result = this.target.skipFlood(pieces);
    if (result === undefined) return 0;
    // The screen failed during the skip and dropped its queue (and the callbacks with it): nothing
    // is left to cover. Non-zero, so that pump looks at the queue again rather than parse from it.
    if (this.head === this.queue.length) return scanned;
    if (!result.skipped) {
      // Walked in vain (LF without CR never returns to column 0, say): not again over these bytes,
      // nor over the piece the walk stopped in (it is not plain text: no skip can start before its end).
      this.noSkipBefore = this.consumed + pieces.slice(0, result.pieces + 1).reduce((sum, piece) => sum + piece.length, 0);
      return 0;
    }
    let covered = 0;
    for (let p = 0; p < result.pieces; p++) {
      const item = this.next();
      covered += item.data.length;
      release(item);
      item.onApplied?.();
    }
    return covered;
  }
}
