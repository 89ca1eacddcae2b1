// A read view's lines (view.ts): each line's stamp, and where its text sits in the packed text of
// the publication that last sent it. A line's text is cut out only when a read asks for it: split
// at every publication, twenty floods' lines lived as strings until they scrolled away, and the
// young heap's scavenges copied them (pauses of 5–20 ms on the thread that answers, 2026-12-04).

export class PublishedLines {
  /** Absolute number of the first line held. */
  private base = 0;
  private stamps: number[] = [];
  /** The packed text each line's text sits in (a publication's; held while a line points into it). */
  private packs: Array<string | undefined> = [];
  private starts: number[] = [];
  private ends: number[] = [];

  get first(): number {
    return this.base;
  }

  /** One past the last line held. */
  get end(): number {
    return this.base + this.stamps.length;
  }

  /** Forgets every line: the next ones are numbered from `base`. */
  reset(base: number): void {
    this.base = base;
    this.stamps = [];
    this.packs = [];
    this.starts = [];
    this.ends = [];
  }

  /** Forgets the lines before `line`. */
  dropBefore(line: number): void {
    const drop = line - this.base;
    if (drop <= 0) return;
    if (drop >= this.stamps.length) return this.reset(line);
    this.stamps.splice(0, drop);
    this.packs.splice(0, drop);
    this.starts.splice(0, drop);
    this.ends.splice(0, drop);
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
        while (this.stamps.length < index) this.push(0, undefined, 0, 0);
        if (index === this.stamps.length) this.push(stamps[i] as number, text, start, end);
        else {
          this.stamps[index] = stamps[i] as number;
          this.packs[index] = text;
          this.starts[index] = start;
          this.ends[index] = end;
        }
      }
      start = end + 1;
    }
  }

  stamp(line: number): number {
    return this.stamps[line - this.base] ?? 0;
  }

  /** A held line's text ("" for one never sent). */
  text(line: number): string {
    const index = line - this.base;
    const pack = this.packs[index];
    return pack === undefined ? "" : pack.slice(this.starts[index], this.ends[index]);
  }

  private push(stamp: number, pack: string | undefined, start: number, end: number): void {
    this.stamps.push(stamp);
    this.packs.push(pack);
    this.starts.push(start);
    this.ends.push(end);
  }
}
