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
  /** Whole pieces the plan covers: after the skip, the rest of them is parsed. */
  pieces: number;
  /** Where parsing resumes: piece index and byte offset, right after a CR LF. */
  piece: number;
  offset: number;
  /** Scrolls the skipped bytes would have made (each one moves every line number up by one). */
  scrolls: number;
}

/**
 * Plans a skip over `pieces` (the next bytes for a terminal in the state `start`, with the whole
 * screen as its scroll region, in the normal buffer, its parser at rest). Only whole pieces of plain
 * text are considered. The skipped bytes end with a CR LF on the bottom row, so the terminal then
 * sits at column 0 of the bottom row with nothing pending, exactly as if it had parsed them; what
 * follows scrolls at least `keep` times (the lines the terminal holds), so every line the skipped
 * bytes wrote, and every line the terminal held before, is pushed out before anything can read it.
 * Undefined when there is nothing worth skipping.
 */
export function planFloodSkip(pieces: readonly Uint8Array[], start: SkipStart, keep: number): FloodSkip | undefined {
  // Two walks: the first counts the scrolls of every whole plain piece, the second finds the last
  // place to resume from that leaves `keep` of them (no list of every line end on the way).
  const whole = new Walk(start);
  let covered = 0;
  while (covered < pieces.length && whole.run(pieces[covered] as Uint8Array, Infinity) !== STOPPED) covered++;
  const limit = whole.scrolls - keep;
  if (limit <= 0) return undefined;
  const walk = new Walk(start);
  for (let p = 0; p < covered; p++) {
    walk.run(pieces[p] as Uint8Array, limit);
    if (walk.scrolls > limit) break;
  }
  if (walk.cut.scrolls === 0) return undefined;
  return { pieces: covered, piece: walk.cut.piece, offset: walk.cut.offset, scrolls: walk.cut.scrolls };
}

const STOPPED = -1;

/** xterm's cursor through plain text: how it moves, when it scrolls, and the last place to cut. */
class Walk {
  x: number;
  y: number;
  scrolls = 0;
  /** The last place seen, up to the scroll limit, after a line feed at column 0 of the bottom row. */
  cut = { piece: 0, offset: 0, scrolls: 0 };
  private piece = -1;
  private readonly cols: number;
  private readonly bottom: number;
  private readonly wraparound: boolean;

  constructor(start: SkipStart) {
    this.x = start.x;
    this.y = start.y;
    this.cols = start.cols;
    this.bottom = start.rows - 1;
    this.wraparound = start.wraparound;
  }

  /**
   * Walks one piece; stops early once past `limit` scrolls. Returns STOPPED (state unchanged) when
   * the piece is not all plain text.
   */
  run(data: Uint8Array, limit: number): number {
    this.piece++;
    const { cols, bottom, wraparound } = this;
    let { x, y, scrolls } = this;
    let cut = -1;
    let cutScrolls = 0;
    for (let i = 0; i < data.length; i++) {
      const b = data[i] as number;
      if (b >= 0x20 && b < 0x7f) {
        // xterm's print of a one-cell character: wrap first when the line is full.
        if (x >= cols) {
          if (!wraparound) x = cols - 1;
          else {
            x = 0;
            if (y === bottom) scrolls++;
            else y++;
          }
        }
        x++;
      } else if (b === LF) {
        // xterm's lineFeed: down one row (scrolling at the bottom); a pending wrap is dropped.
        if (y === bottom) scrolls++;
        else y++;
        if (x >= cols) x = cols - 1;
        if (scrolls > limit) break;
        if (x === 0 && y === bottom) {
          cut = i + 1;
          cutScrolls = scrolls;
        }
      } else if (b === CR) {
        x = 0;
      } else {
        return STOPPED;
      }
    }
    this.x = x;
    this.y = y;
    this.scrolls = scrolls;
    if (cut !== -1) this.cut = { piece: this.piece, offset: cut, scrolls: cutScrolls };
    return scrolls;
  }
}
