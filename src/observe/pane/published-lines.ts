// A read view's lines (view.ts): each line's stamp, and where its text sits in the packed text of
// the publication that last sent it. A line's text is cut out only when a read asks for it: split
// at every publication, twenty floods' lines lived as strings until they scrolled away, and the
// young heap's scavenges copied them (pauses of 5–20 ms on the thread that answers, 2026-12-04).
// The lines sit in a ring of typed arrays: held in arrays that every publication spliced at the
// front and pushed at the back, they were a quarter of what the front allocated under twenty
// floods, and every scavenge of it paused the reads.

/** Lines a new store has room for before it grows (a screen and some history). */
const INITIAL_CAPACITY = 256;

export class PublishedLines {
  /** Absolute number of the first line held. */
  private base = 0;
  /** Lines held, from slot `head` on (wrapping). */
  private count = 0;
  private head = 0;
  private mask = INITIAL_CAPACITY - 1;
  /** Stamps are publication sequences: Float64 keeps them exact past 2^31. */
  private stamps = new Float64Array(INITIAL_CAPACITY);
  /** The packed text each line's text sits in (a publication's; held while a line points into it). */
  private packs: Array<string | undefined> = new Array<string | undefined>(INITIAL_CAPACITY).fill(undefined);
  private starts = new Int32Array(INITIAL_CAPACITY);
  private ends = new Int32Array(INITIAL_CAPACITY);

  get first(): number {
    return this.base;
  }

  /** One past the last line held. */
  get end(): number {
    return this.base + this.count;
  }

  /** Forgets every line: the next ones are numbered from `base`. */
  reset(base: number): void {
    this.clear(0, this.count);
    this.base = base;
    this.count = 0;
    this.head = 0;
  }

  /** Forgets the lines before `line`. */
  dropBefore(line: number): void {
    const drop = line - this.base;
    if (drop <= 0) return;
    if (drop >= this.count) return this.reset(line);
    this.clear(0, drop);
    this.head = (this.head + drop) & this.mask;
    this.count -= drop;
    this.base += drop;
  }

  /** Takes `lines` with their `stamps` and their texts, joined by LF in `text` (a publication's rows). */
  take(lines: Int32Array, stamps: Int32Array, text: string): void {
    if (lines.length === 0) return;
    let start = 0;
    for (let i = 0; i < lines.length; i++) {
      const found = text.indexOf("\n", start);
      const end = found === -1 ? text.length : found;
      const index = (lines[i] as number) - this.base;
      if (index >= 0) {
        // Lines never sent between the last held and this one are blank and unstamped.
        while (this.count <= index) this.put(this.count++, 0, undefined, 0, 0);
        this.put(index, stamps[i] as number, text, start, end);
      }
      start = end + 1;
    }
  }

  stamp(line: number): number {
    const index = line - this.base;
    return index < 0 || index >= this.count ? 0 : (this.stamps[this.slot(index)] as number);
  }

  /** A held line's text ("" for one never sent). */
  text(line: number): string {
    const index = line - this.base;
    if (index < 0 || index >= this.count) return "";
    const slot = this.slot(index);
    const pack = this.packs[slot];
    return pack === undefined ? "" : pack.slice(this.starts[slot], this.ends[slot]);
  }

  private slot(index: number): number {
    return (this.head + index) & this.mask;
  }

  /** Sets the line at `index` (< count), growing the ring first when it is full. */
  private put(index: number, stamp: number, pack: string | undefined, start: number, end: number): void {
    if (index > this.mask) this.grow();
    const slot = this.slot(index);
    this.stamps[slot] = stamp;
    this.packs[slot] = pack;
    this.starts[slot] = start;
    this.ends[slot] = end;
  }

  /** Lets the packs of lines [from, to) go (their texts may be all that holds a publication's). */
  private clear(from: number, to: number): void {
    for (let index = from; index < to; index++) this.packs[this.slot(index)] = undefined;
  }

  /** Twice the room, the lines held moved to the start in order. */
  private grow(): void {
    const capacity = (this.mask + 1) * 2;
    const stamps = new Float64Array(capacity);
    const packs = new Array<string | undefined>(capacity).fill(undefined);
    const starts = new Int32Array(capacity);
    const ends = new Int32Array(capacity);
    for (let index = 0; index <= this.mask; index++) {
      const slot = this.slot(index);
      stamps[index] = this.stamps[slot] as number;
      packs[index] = this.packs[slot];
      starts[index] = this.starts[slot] as number;
      ends[index] = this.ends[slot] as number;
    }
    this.stamps = stamps;
    this.packs = packs;
    this.starts = starts;
    this.ends = ends;
    this.head = 0;
    this.mask = capacity - 1;
  }
}
