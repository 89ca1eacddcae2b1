// A plain-text flood (`seq`, a build log) pushes most of its lines through the emulator and out of
// its scrollback before anyone can see them. Parsing those lines is most of a flood's cost (xterm
// ≈35 ms per MB of `seq` on a 2-core VM). Where the text is plain — printable ASCII, CR and LF, and
// the colour (SGR) and erase-in-line (EL) escapes a coloured log prints — what it does to the
// terminal is simple enough to work out here: how many times it scrolls, where the cursor goes, and
// which colours are in force. That lets the screen skip a stretch of lines that a later stretch of
// the same flood is certain to push out of memory, and parse only that later stretch. Pure.

const LF = 0x0a;
const CR = 0x0d;
const ESC = 0x1b;
/** `ESC [` opens a control sequence; of those, plain text may hold SGR (`… m`) and EL (`… K`). */
const CSI_OPEN = 0x5b;
const SGR = 0x6d;
const EL = 0x4b;
/** Parameter bytes of the sequences allowed: digits, `:` and `;` (no private markers). */
const isParam = (b: number): boolean => ((b - 0x30) >>> 0) < 0x0c;

/**
 * Whether `data` starts as plain text (printable ASCII, CR, LF, SGR and EL: what a skip can cover),
 * judged by its first `look` bytes: a cheap guess for scheduling; the plan itself checks every byte.
 */
export function looksPlain(data: Uint8Array, look = 256): boolean {
  const end = Math.min(data.length, look);
  for (let i = 0; i < end; i++) {
    const b = data[i] as number;
    if (((b - 0x20) >>> 0) < 0x5f || b === LF || b === CR) continue;
    if (b !== ESC) return false;
    // A sequence cut by the look counts as plain: it is a guess.
    if (i + 1 < end && data[i + 1] !== CSI_OPEN) return false;
    let j = i + 2;
    while (j < end && isParam(data[j] as number)) j++;
    if (j < end && data[j] !== SGR && data[j] !== EL) return false;
    i = j;
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
    /**
     * The skipped colour sequences that still count, in order (from the last one that reset them
     * all): parsed after the skip, they leave the colours in force as the skipped bytes did.
     */
    replay: Uint8Array;
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
    if (cut) {
      const replay = walk.renditions.replay(pieces, cut.renditions);
      return { pieces: covered, resume: { piece: cut.piece, offset: cut.offset, scrolls, replay } };
    }
  }
  return { pieces: covered };
}

/**
 * How far below the target a plan looks for a place to resume from (wrapped lines scroll without
 * one). Beyond it the plan gives up: nothing is skipped, nothing goes wrong.
 */
const LOOK_BACK = 256;

interface Cut {
  piece: number;
  offset: number;
  /** Colour sequences the walk had passed when it got here (Renditions' entries before this). */
  renditions: number;
}

/**
 * The latest place to resume from for each of the last `size` (at least) scroll counts (one walk,
 * no list). Its slots are a power of two: a mask, not a division, per line of a flood.
 */
class Cuts {
  private readonly scrolls: Int32Array;
  private readonly piece: Int32Array;
  private readonly offset: Int32Array;
  private readonly renditions: Int32Array;
  private readonly mask: number;

  constructor(size: number) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(2, size)));
    this.mask = slots - 1;
    this.scrolls = new Int32Array(slots).fill(-1);
    this.piece = new Int32Array(slots);
    this.offset = new Int32Array(slots);
    this.renditions = new Int32Array(slots);
  }

  record(scrolls: number, piece: number, offset: number, renditions: number): void {
    const i = scrolls & this.mask;
    this.scrolls[i] = scrolls;
    this.piece[i] = piece;
    this.offset[i] = offset;
    this.renditions[i] = renditions;
  }

  at(scrolls: number): Cut | undefined {
    const i = scrolls & this.mask;
    if (this.scrolls[i] !== scrolls) return undefined;
    return { piece: this.piece[i] as number, offset: this.offset[i] as number, renditions: this.renditions[i] as number };
  }
}

/**
 * The colour sequences (SGR) a walk passed, as positions in the walked bytes, and which of them a
 * resume must replay: those from the last one whose first parameter is 0 (it resets every colour
 * and attribute: xterm's SGR 0), or all of them. A sequence that sets or resets the underline
 * colour (58, 59) ends the walk: xterm's SGR 0 keeps part of that colour, so no reset before it
 * would be exact.
 */
class Renditions {
  /** Entries so far, and how many of them reset every attribute (their indices in `resets`). */
  count = 0;
  private resetCount = 0;
  // Shared by every plan (one runs at a time, to its end): a flood's plan logs thousands.
  private starts = log.starts;
  private ends = log.ends;
  private resets = log.resets;
  /** The sequence being read: where it began, its parameter so far, what it has shown. */
  private begin = 0;
  private value = 0;
  private first = true;
  private firstZero = true;
  private sub = false;
  private refused = false;

  /** An `ESC` at `position` (counted over every piece walked) begins a sequence. */
  open(position: number): void {
    this.begin = position;
    this.value = 0;
    this.first = true;
    this.firstZero = true;
    this.sub = false;
    this.refused = false;
  }

  /** One parameter byte (isParam). */
  param(b: number): void {
    if (b <= 0x39) {
      this.value = Math.min(this.value * 10 + (b - 0x30), 0xffff);
      if (this.first && b !== 0x30) this.firstZero = false;
      return;
    }
    this.endParam();
    this.first = false;
    this.sub = b === 0x3a; // ':' opens a subparameter of the parameter before it
    this.value = 0;
  }

  /** The SGR's final byte, just before `end`: false when the walk cannot go past it. */
  closeSgr(end: number): boolean {
    this.endParam();
    if (this.refused) return false;
    if (this.count === this.starts.length) {
      this.starts = log.starts = grow(this.starts);
      this.ends = log.ends = grow(this.ends);
      this.resets = log.resets = grow(this.resets);
    }
    if (this.firstZero) this.resets[this.resetCount++] = this.count;
    this.starts[this.count] = this.begin;
    this.ends[this.count] = end;
    this.count++;
    return true;
  }

  /** What a resume after the first `to` entries replays: those from the last reset among them on. */
  replay(pieces: readonly Uint8Array[], to: number): Uint8Array {
    let r = this.resetCount - 1;
    while (r >= 0 && (this.resets[r] as number) >= to) r--;
    return this.bytes(pieces, r < 0 ? 0 : (this.resets[r] as number), to);
  }

  /** The bytes of entries [from, to), in order, out of the pieces walked. */
  private bytes(pieces: readonly Uint8Array[], from: number, to: number): Uint8Array {
    let size = 0;
    for (let e = from; e < to; e++) size += (this.ends[e] as number) - (this.starts[e] as number);
    const out = new Uint8Array(size);
    let written = 0;
    let piece = 0;
    let base = 0;
    for (let e = from; e < to; e++) {
      // A sequence may be cut across pieces: copy it piece by piece.
      for (let at = this.starts[e] as number, end = this.ends[e] as number; at < end; ) {
        while (at >= base + (pieces[piece] as Uint8Array).length) base += (pieces[piece++] as Uint8Array).length;
        const data = pieces[piece] as Uint8Array;
        const take = Math.min(end, base + data.length) - at;
        out.set(data.subarray(at - base, at - base + take), written);
        written += take;
        at += take;
      }
    }
    return out;
  }

  private endParam(): void {
    if (!this.sub && (this.value === 58 || this.value === 59)) this.refused = true;
  }
}

/** Where every plan logs its colour sequences: grown as needed, kept for the next plan. */
const log = { starts: new Int32Array(4096), ends: new Int32Array(4096), resets: new Int32Array(4096) };

function grow(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Where the walk is in a sequence: outside any, just after an ESC, among a CSI's parameters. */
const OUTSIDE = 0;
const AFTER_ESC = 1;
const IN_CSI = 2;

/** xterm's cursor through plain text: how it moves and when it scrolls, noting places to cut. */
class Walk {
  x: number;
  y: number;
  scrolls = 0;
  readonly renditions = new Renditions();
  private escape = OUTSIDE;
  /** Bytes in the pieces walked before the current one. */
  private base = 0;
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
    const { cols, bottom, wraparound, cuts, renditions, base } = this;
    let { x, y, scrolls } = this;
    const end = data.length;
    // A sequence cut at the end of the last piece goes on here.
    let i = this.escape === OUTSIDE ? 0 : this.sequence(data, 0);
    if (i < 0) return false;
    for (; i < end; i++) {
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
        if (x === 0 && y === bottom) cuts.record(scrolls, piece, i + 1, renditions.count);
      } else if (b === CR) {
        x = 0;
      } else if (b === ESC) {
        // SGR and EL move no cursor: read past the sequence (into the next piece, if it goes on).
        renditions.open(base + i);
        this.escape = AFTER_ESC;
        const next = this.sequence(data, i + 1);
        if (next < 0) return false;
        i = next - 1;
      } else {
        return false;
      }
    }
    this.x = x;
    this.y = y;
    this.scrolls = scrolls;
    this.base += end;
    return true;
  }

  /**
   * Reads on in the sequence under way from `data[from]`: the index after its final byte, or the
   * piece's length when it goes on in the next piece; -1 when it is not SGR or EL (not plain text).
   */
  private sequence(data: Uint8Array, from: number): number {
    const renditions = this.renditions;
    for (let i = from; i < data.length; i++) {
      const b = data[i] as number;
      if (this.escape === AFTER_ESC) {
        if (b !== CSI_OPEN) return -1;
        this.escape = IN_CSI;
      } else if (isParam(b)) renditions.param(b);
      else if (b === SGR || b === EL) {
        if (b === SGR && !renditions.closeSgr(this.base + i + 1)) return -1;
        this.escape = OUTSIDE;
        return i + 1;
      } else return -1;
    }
    return data.length;
  }
}
