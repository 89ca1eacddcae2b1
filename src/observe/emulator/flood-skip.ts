// A plain-text flood (`seq`, a build log) pushes most of its lines through the emulator and out of
// its scrollback before anyone can see them. Parsing those lines is most of a flood's cost (xterm
// ≈35 ms per MB of `seq` on a 2-core VM). Where the text is plain — printable ASCII, CR and LF —
// what it does to the terminal is simple enough to work out here: how many times it scrolls, and
// where the cursor goes. That lets the screen skip a stretch of lines that a later stretch of the
// same flood is certain to push out of memory, and parse only that later stretch. Pure.

const LF = 0x0a;
const CR = 0x0d;

/**
 * Whether `data` starts as plain text (printable ASCII, CR, LF: what a skip can cover), judged by
 * its first `look` bytes: a cheap guess for scheduling; the plan itself checks every byte.
 */
export function looksPlain(data: Uint8Array, look = 256): boolean {
  const end = Math.min(data.length, look);
  for (let i = 0; i < end; i++) {
    const b = data[i] as number;
    if ((b < 0x20 || b >= 0x7f) && b !== LF && b !== CR) return false;
  }
  return true;
}

export interface SkipStart {
  /** Cursor column; equal to `cols` when a wrap is pending (xterm's own convention). */
  x: number;
  y: number;
  cols: number;
  rows: number;
  /** DECAWM: text reaching the right margin continues on the next line (else it overwrites there). */
  wraparound: boolean;
}

export interface FloodSkip {
  /** Whole pieces of plain text walked (a skip covers them; a failed plan need not walk them again). */
  pieces: number;
  /** Where parsing resumes, when a skip is worth it: piece index and byte offset, right after a CR LF. */
  resume?: {
    piece: number;
    offset: number;
    /** Scrolls the skipped bytes would have made (each one moves every line number up by one). */
    scrolls: number;
  };
}

/**
 * Plans a skip over `pieces` (the next bytes for a terminal in the state `start`, with the whole
 * screen as its scroll region, in the normal buffer, its parser at rest). Only whole pieces of plain
 * text are considered. The skipped bytes end with a CR LF on the bottom row, so the terminal then
 * sits at column 0 of the bottom row with nothing pending, exactly as if it had parsed them; what
 * follows scrolls at least `keep` times (the lines the terminal holds), so every line the skipped
 * bytes wrote, and every line the terminal held before, is pushed out before anything can read it.
 * No `resume` when there is nothing worth skipping.
 */
export function planFloodSkip(pieces: readonly Uint8Array[], start: SkipStart, keep: number): FloodSkip {
  const walk = new Walk(start, new Cuts(keep + LOOK_BACK));
  let covered = 0;
  while (covered < pieces.length && walk.run(pieces[covered] as Uint8Array, covered)) covered++;
  // The last place to resume from that leaves `keep` scrolls to come: the latest cut made at most
  // `target` scrolls in (its scroll count is the largest one ≤ target).
  const target = walk.scrolls - keep;
  for (let scrolls = target; scrolls > 0 && scrolls > target - LOOK_BACK; scrolls--) {
    const cut = walk.cuts.at(scrolls);
    if (cut) return { pieces: covered, resume: { piece: cut.piece, offset: cut.offset, scrolls } };
  }
  return { pieces: covered };
}

/**
 * How far below the target a plan looks for a place to resume from (wrapped lines scroll without
 * one). Beyond it the plan gives up: nothing is skipped, nothing goes wrong.
 */
const LOOK_BACK = 256;

/**
 * The latest place to resume from for each of the last `size` (at least) scroll counts (one walk,
 * no list). Its slots are a power of two: a mask, not a division, per line of a flood.
 */
class Cuts {
  private readonly scrolls: Int32Array;
  private readonly piece: Int32Array;
  private readonly offset: Int32Array;
  private readonly mask: number;

  constructor(size: number) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(2, size)));
    this.mask = slots - 1;
    this.scrolls = new Int32Array(slots).fill(-1);
    this.piece = new Int32Array(slots);
    this.offset = new Int32Array(slots);
  }

  record(scrolls: number, piece: number, offset: number): void {
    const i = scrolls & this.mask;
    this.scrolls[i] = scrolls;
    this.piece[i] = piece;
    this.offset[i] = offset;
  }

  at(scrolls: number): { piece: number; offset: number } | undefined {
    const i = scrolls & this.mask;
    return this.scrolls[i] === scrolls ? { piece: this.piece[i] as number, offset: this.offset[i] as number } : undefined;
  }
}

/** xterm's cursor through plain text: how it moves and when it scrolls, noting places to cut. */
class Walk {
  x: number;
  y: number;
  scrolls = 0;
  private readonly cols: number;
  private readonly bottom: number;
  private readonly wraparound: boolean;

  constructor(
    start: SkipStart,
    readonly cuts: Cuts,
  ) {
    this.x = start.x;
    this.y = start.y;
    this.cols = start.cols;
    this.bottom = start.rows - 1;
    this.wraparound = start.wraparound;
  }

  /**
   * Walks one piece, noting each line feed that leaves the cursor at column 0 of the bottom row.
   * False when the piece is not all plain text: the walk then stands where the piece began (its
   * notes all lie beyond any target, so they are never used).
   */
  run(data: Uint8Array, piece: number): boolean {
    const { cols, bottom, wraparound, cuts } = this;
    let { x, y, scrolls } = this;
    const end = data.length;
    for (let i = 0; i < end; i++) {
      const b = data[i] as number;
      // Printable ASCII (0x20–0x7e) in one unsigned comparison: this loop sees every byte of a flood.
      if (((b - 0x20) >>> 0) < 0x5f) {
        // A run of one-cell characters, as xterm prints them: each wraps first when the line is
        // full (a pending wrap), or without wraparound overwrites the last column.
        let j = i + 1;
        while (j < end) {
          if (((data[j] as number) - 0x20) >>> 0 >= 0x5f) break;
          j++;
        }
        let left = j - i;
        i = j - 1;
        if (!wraparound) {
          x = Math.min(cols, (x >= cols ? cols - 1 : x) + left);
          continue;
        }
        while (left > 0) {
          if (x >= cols) {
            x = 0;
            if (y === bottom) scrolls++;
            else y++;
          }
          const take = Math.min(left, cols - x);
          x += take;
          left -= take;
        }
      } else if (b === LF) {
        // xterm's lineFeed: down one row (scrolling at the bottom); a pending wrap is dropped.
        if (y === bottom) scrolls++;
        else y++;
        if (x >= cols) x = cols - 1;
        if (x === 0 && y === bottom) cuts.record(scrolls, piece, i + 1);
      } else if (b === CR) {
        x = 0;
      } else {
        return false;
      }
    }
    this.x = x;
    this.y = y;
    this.scrolls = scrolls;
    return true;
  }
}
